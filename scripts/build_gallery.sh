#!/usr/bin/env bash
# Builds the real-component gallery (tests/gallery): the npm packages at the versions
# package-lock.json pins, bundled by esbuild into tests/gallery/dist. Tests only: the
# webfovea package itself never needs Node. Installs Node from Debian when root and missing.
set -euo pipefail
cd "$(dirname "$0")/../tests/gallery"
if ! command -v npm >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ]; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nodejs npm
  else
    echo "build_gallery: npm not found; install Node.js 18+ to build tests/gallery" >&2
    exit 1
  fi
fi
stamp=node_modules/.installed
if [ ! -f "$stamp" ] || [ package-lock.json -nt "$stamp" ]; then
  npm ci --no-audit --no-fund --loglevel=error
  touch "$stamp"
fi
npm run --silent build
