#!/usr/bin/env bash
# Sets up a fresh Debian machine for Retro Debug (with `sudo` when not root).
#   bash scripts/setup.sh           MAME, SDCC and cc65 from Debian (and, where the system's MAME has no
#                                   `sprinter` driver, Debian 13's MAME through scripts/install-mame.sh), `npm ci`, the bundle in dist/:
#                                   enough for the headless demo (README's first command).
#   bash scripts/setup.sh --tests   also everything `npm test` needs: the Debian packages listed in
#                                   scripts/test-packages.txt (DOSBox, nasm, bcc, …) and, through
#                                   scripts/install-e2e.sh, code-server with Node 24, playwright-core
#                                   and Chromium for the end-to-end test (README's second command).
set -euo pipefail
cd "$(dirname "$0")/.."

tests=false
for arg in "$@"; do
  case "$arg" in
    --tests) tests=true ;;
    *) echo "setup.sh: unknown option $arg (use --tests or nothing)" >&2; exit 2 ;;
  esac
done

sudo=""; [ "$(id -u)" = 0 ] || sudo=sudo
if $tests; then
  wanted=($(grep -v '^#' scripts/test-packages.txt))
else
  wanted=(mame sdcc cc65)
fi
missing=()
for p in "${wanted[@]}"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup.sh: installing ${missing[*]}"
  $sudo apt-get update -qq
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
fi
# a MAME with the sprinter driver: the system's on Debian 13, Debian 13's unpacked under a prefix on Debian 12
bash scripts/install-mame.sh >/dev/null
npm ci --no-audit --no-fund
npm run build
if $tests; then
  bash scripts/install-e2e.sh
fi
