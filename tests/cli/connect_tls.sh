#!/bin/sh
# barbu connect over wss:// (tmux) against barbu serve --tls-cert/--tls-key
# with a certificate made here (the openssl program): with --ca the
# certificate is checked and the lobby works (a chat line goes from alice to
# bob); without it the self-signed certificate is refused with the reason on
# the screen and on stderr (exit 1); --self-signed connects and the screen
# says the certificate was not checked; --ca on ws:// is a usage error.
# usage: connect_tls.sh BARBU SOURCE_DIR
set -u
barbu=$1
for tool in tmux openssl; do
    if ! command -v $tool >/dev/null 2>&1; then
        echo "FAIL $tool is not installed (scripts/setup.sh installs it)"
        exit 1
    fi
done
. "$(dirname "$0")/connect_lib.sh"
deadline=$(($(date +%s) + 120))

# start NAME ARGS...: this test's start (instead of the library's), barbu
# connect ARGS in a terminal of its own, 120 by 30; exit
# status to $tmp/NAME.rc, stderr to $tmp/NAME.err.
start() {
    name=$1
    shift
    rm -f "$tmp/$name.rc"
    T new-session -d -s "$name" -x 120 -y 30 \
        "cd '$tmp' && XDG_STATE_HOME='$tmp/state' timeout --foreground 100 '$barbu' connect $* 2>'$tmp/$name.err'; echo \$? >'$tmp/$name.rc'; sleep 30"
}

# ------------------------------------------------------------ certificate
if ! openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -subj /CN=localhost \
    -addext subjectAltName=DNS:localhost,IP:127.0.0.1 -days 2 \
    -keyout "$tmp/key.pem" -out "$tmp/cert.pem" 2>/dev/null; then
    bad "openssl makes a test certificate"
    exit 1
fi

serve_start --tls-cert "$tmp/cert.pem" --tls-key "$tmp/key.pem"

# ------------------------------------------------------------------- --ca
start alice "wss://127.0.0.1:$port" --name alice --ca "'$tmp/cert.pem'"
if shows alice "connected \(TLS\)" 10 && grep -q "No tables yet" "$tmp/screen"; then
    ok "with --ca the certificate is checked and alice reaches the lobby over wss://"
else
    bad "with --ca the certificate is checked and alice reaches the lobby over wss://"
    cat "$tmp/screen" "$tmp/alice.err"
fi
start localhost "wss://localhost:$port" --name carol --ca "'$tmp/cert.pem'"
if shows localhost "connected \(TLS\)" 10; then
    ok "the certificate's name localhost is accepted too"
else
    bad "the certificate's name localhost is accepted too"
    cat "$tmp/screen" "$tmp/localhost.err"
fi
quit localhost

# -------------------------------------------------------------- refused
start refused "wss://127.0.0.1:$port" --name dave
if shows refused "certificate was refused: self-signed certificate" 10 &&
    grep -q "stopped" "$tmp/screen" && grep -q -- "--ca FILE" "$tmp/screen"; then
    ok "without --ca the self-signed certificate is refused, and the screen says why and what to do"
else
    bad "without --ca the self-signed certificate is refused, and the screen says why and what to do"
    cat "$tmp/screen"
fi
quit refused
if [ "$(cat "$tmp/refused.rc" 2>/dev/null)" = 1 ] &&
    grep -q "barbu connect: the server's certificate was refused: self-signed certificate" "$tmp/refused.err"; then
    ok "it exits 1 with the reason on stderr"
else
    bad "it exits 1 with the reason on stderr (exit $(cat "$tmp/refused.rc" 2>/dev/null))"
    cat "$tmp/refused.err"
fi

# --------------------------------------------------------- --self-signed
start bob "wss://127.0.0.1:$port" --name bob --self-signed
if shows bob "connected, certificate NOT checked" 10 && grep -q "certificate is not checked" "$tmp/screen"; then
    ok "--self-signed connects, and the screen says the certificate was not checked"
else
    bad "--self-signed connects, and the screen says the certificate was not checked"
    cat "$tmp/screen"
fi

# A lobby chat line from alice reaches bob, both over TLS.
T send-keys -t alice /
sleep 0.3
T send-keys -t alice -l "hello over tls"
T send-keys -t alice Enter
if shows bob "alice: hello over tls" 10; then
    ok "a lobby chat line goes from alice to bob over wss://"
else
    bad "a lobby chat line goes from alice to bob over wss://"
    cat "$tmp/screen"
fi
quit alice
quit bob
[ "$(cat "$tmp/alice.rc")" = 0 ] && [ "$(cat "$tmp/bob.rc")" = 0 ] && ok "both quit with status 0" ||
    bad "both quit with status 0"

# ---------------------------------------------------------------- usage
"$barbu" connect "ws://127.0.0.1:$port" --ca "$tmp/cert.pem" >/dev/null 2>"$tmp/usage.err"
rc=$?
[ $rc = 2 ] && grep -q "is for a wss:// server" "$tmp/usage.err" && ok "--ca with ws:// is a usage error" ||
    bad "--ca with ws:// is a usage error (exit $rc)"
"$barbu" connect "wss://127.0.0.1:$port" --ca "$tmp/key.pem" >/dev/null 2>"$tmp/usage.err"
rc=$?
[ $rc = 2 ] && grep -q "holds no certificate" "$tmp/usage.err" && ok "--ca with a file that is no certificate is refused" ||
    bad "--ca with a file that is no certificate is refused (exit $rc)"

kill "$server_pid"
wait "$server_pid"
rc=$?
server_pid=
[ $rc = 0 ] && ok "the server stops" || bad "the server stops (exit $rc)"
exit $fail
