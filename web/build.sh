#!/bin/sh
# Builds the browser client into OUTDIR: installs the npm packages from the
# committed lock file when they are missing or older than it, checks the
# TypeScript (strict), and bundles it with esbuild.
# usage: web/build.sh OUTDIR
set -eu
[ $# -eq 1 ] || { echo "usage: web/build.sh OUTDIR" >&2; exit 2; }
mkdir -p "$1"
out=$(cd "$1" && pwd)
cd "$(dirname "$0")"
if ! command -v npm >/dev/null 2>&1 || ! command -v node >/dev/null 2>&1; then
    echo "web/build.sh: node and npm are needed to build the browser client (scripts/setup.sh installs them)" >&2
    exit 1
fi
if ! node -e 'process.exit(Number(process.versions.node.split(".")[0]) >= 18 ? 0 : 1)'; then
    echo "web/build.sh: node $(node --version) is too old; the browser client's build needs node 18 or later" >&2
    exit 1
fi
stamp=node_modules/.package-lock.json
if [ ! -f "$stamp" ] || [ package-lock.json -nt "$stamp" ]; then
    npm ci --no-audit --no-fund --loglevel=error
fi
node_modules/.bin/tsc -p .
node build.mjs "$out"
