#!/bin/sh
# Installs the Debian 12 packages barbu needs to build and test, if any are
# missing.  Uses apt-get directly as root, through sudo otherwise.  Node.js
# and npm (for the browser client's build) are taken from Debian unless a
# node of version 18 or later is already installed (NodeSource's, say,
# which brings its own npm).
# usage: setup.sh [check]
#   check: also what only the tests need: headless Chromium, which renders
#   the score sheet page to a screenshot, and a hand-written font for it;
#   PostgreSQL's server, which the tests start in a folder of their own;
#   nginx (light), whose `nginx -t` checks docs/deploy/nginx.conf.
set -eu

PACKAGES="gcc make cmake ninja-build pkgconf libcmocka-dev libncurses-dev libwebsockets-dev libwebsockets-evlib-uv libuv1-dev libjansson-dev libsqlite3-dev libsodium-dev libicu-dev xxd zlib1g-dev clang libclang-rt-14-dev clang-format tmux libssl-dev openssl libpq-dev"
case "${1:-}" in
check) PACKAGES="$PACKAGES chromium fonts-comic-neue postgresql nginx-light" ;;
"") ;;
*)
    echo "usage: scripts/setup.sh [check]" >&2
    exit 2
    ;;
esac

missing=""
for pkg in $PACKAGES; do
    if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed"; then
        missing="$missing $pkg"
    fi
done
if ! command -v node >/dev/null 2>&1; then
    missing="$missing nodejs"
fi
if ! command -v npm >/dev/null 2>&1; then
    missing="$missing npm"
fi
[ -z "$missing" ] && exit 0

echo "barbu: installing missing Debian packages:$missing"
if [ "$(id -u)" -eq 0 ]; then
    run=""
elif command -v sudo >/dev/null 2>&1; then
    run="sudo"
else
    echo "barbu: these packages are missing:$missing" >&2
    echo "barbu: run as root, or install sudo, or install them yourself:" >&2
    echo "    apt-get install$missing" >&2
    exit 1
fi
if ! command -v apt-get >/dev/null 2>&1; then
    echo "barbu: apt-get not found; this script needs Debian 12 (or install:$missing)" >&2
    exit 1
fi
export DEBIAN_FRONTEND=noninteractive
$run apt-get update -q || echo "barbu: apt-get update failed; trying the install with the lists we have" >&2
$run apt-get install -y -q --no-install-recommends $missing
