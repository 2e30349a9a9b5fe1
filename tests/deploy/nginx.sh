#!/bin/sh
# docs/deploy/nginx.conf passes `nginx -t`: a copy whose certificate, log
# and pid paths point to a temporary folder, with a certificate made there
# by openssl, is checked by the nginx installed (Debian's nginx-light, which
# scripts/setup.sh check installs).  Without nginx the test says so and is
# skipped (exit 77, CTest's SKIP_RETURN_CODE).
# usage: nginx.sh SOURCE_DIR
set -u
src=$1
conf="$src/docs/deploy/nginx.conf"
nginx=$(command -v nginx || { [ -x /usr/sbin/nginx ] && echo /usr/sbin/nginx; })
if [ -z "$nginx" ]; then
    echo "SKIP nginx is not installed (scripts/setup.sh check installs nginx-light): docs/deploy/nginx.conf is not checked"
    exit 77
fi
if ! command -v openssl >/dev/null 2>&1; then
    echo "FAIL openssl is needed to make the test's certificate"
    exit 1
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
ok() { echo "ok   $1"; }
bad() { echo "FAIL $1"; fail=1; }

mkdir -p "$tmp/ssl" "$tmp/log" "$tmp/temp"
if openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj "/CN=barbu.example" \
    -keyout "$tmp/ssl/privkey.pem" -out "$tmp/ssl/fullchain.pem" >"$tmp/openssl.out" 2>&1; then
    ok "a self-signed certificate for barbu.example"
else
    bad "a self-signed certificate for barbu.example"
    cat "$tmp/openssl.out"
    exit 1
fi

# The copy: every path of the machine replaced by one in $tmp.  The user
# directive only works for root, so it goes for anyone else.
sed -e "s|/etc/ssl/barbu/|$tmp/ssl/|g" \
    -e "s|/var/log/nginx/|$tmp/log/|g" \
    -e "s|/run/nginx.pid|$tmp/nginx.pid|g" \
    "$conf" >"$tmp/nginx.conf"
[ "$(id -u)" = 0 ] || sed -i -e '/^user /d' "$tmp/nginx.conf"
if grep -n "^[^#]*\(/etc/\|/var/\|/run/\)" "$tmp/nginx.conf" >"$tmp/left"; then
    bad "the copy names no path of the machine"
    cat "$tmp/left"
else
    ok "the copy names no path of the machine"
fi
# Its temporary files, which nginx -t makes, in $tmp too (-g adds to the
# configuration; the file itself leaves them to the package's defaults).
temps="client_body_temp_path $tmp/temp/body; proxy_temp_path $tmp/temp/proxy;"
temps="$temps fastcgi_temp_path $tmp/temp/fcgi; uwsgi_temp_path $tmp/temp/uwsgi; scgi_temp_path $tmp/temp/scgi;"
sed -i -e "s|^http {|http {\n    $temps|" "$tmp/nginx.conf"
if "$nginx" -t -p "$tmp" -c "$tmp/nginx.conf" >"$tmp/nginx.out" 2>&1; then
    ok "nginx -t accepts docs/deploy/nginx.conf ($("$nginx" -v 2>&1 | sed 's/^nginx version: //'))"
else
    bad "nginx -t accepts docs/deploy/nginx.conf"
fi
cat "$tmp/nginx.out"
# What docs/deploy.md says the file does.
for want in "location = /ws" "location /n/a/" "location = /n/a/ws" "upstream barbu_nodes" \
    "proxy_set_header Upgrade" "listen 443 ssl"; do
    grep -q "$want" "$conf" && ok "it has $want" || bad "it has $want"
done
exit $fail
