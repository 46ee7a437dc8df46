#!/usr/bin/env bash
# Sets up a fresh Debian machine to run Retro Debug headless: MAME and SDCC from
# Debian's packages (cc65 for the C64 demo), the npm dependencies, and the bundle in dist/.
set -euo pipefail
cd "$(dirname "$0")/.."
sudo=""; [ "$(id -u)" = 0 ] || sudo=sudo
missing=()
for p in mame sdcc cc65; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
if [ ${#missing[@]} -gt 0 ]; then
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi
npm ci --no-audit --no-fund
npm run build
