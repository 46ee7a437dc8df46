#!/usr/bin/env bash
# A MAME that has the `sprinter` driver (>= 0.276), from Debian's packages only.
#   Debian 13 and later: the system's `mame` package (scripts/setup.sh installs it) already has it.
#   Debian 12: Debian 13's `mame` and `mame-tools` with their whole dependency closure, downloaded through a private
#   apt configuration (the system's apt and dpkg untouched, no root needed) and unpacked under one prefix; wrappers
#   start them through that prefix's own dynamic loader and libraries, with a mame.ini whose paths point into it.
# Prints the wrapper's path on its last line. Re-runs are no-ops. The prefix: $RETRO_MAME_PREFIX, else
# /opt/retro-debug/mame-trixie as root, else ${XDG_DATA_HOME:-~/.local/share}/retro-debug/mame-trixie.
set -euo pipefail

say() { echo "install-mame: $*" >&2; }
has_sprinter() { "$1" -listfull sprinter 2>/dev/null | grep -q '^sprinter '; }

if command -v mame >/dev/null && has_sprinter "$(command -v mame)"; then
  command -v mame
  exit 0
fi

if [ "$(id -u)" = 0 ]; then default=/opt/retro-debug/mame-trixie; else default="${XDG_DATA_HOME:-$HOME/.local/share}/retro-debug/mame-trixie"; fi
prefix="${RETRO_MAME_PREFIX:-$default}"
wrapper="$prefix/bin/mame"
if [ -x "$wrapper" ] && [ -f "$prefix/.complete" ] && has_sprinter "$wrapper"; then
  echo "$wrapper"
  exit 0
fi

case "$(dpkg --print-architecture 2>/dev/null)" in
  amd64) triplet=x86_64-linux-gnu loader=ld-linux-x86-64.so.2 ;;
  arm64) triplet=aarch64-linux-gnu loader=ld-linux-aarch64.so.1 ;;
  *)
    say "no Debian 13 MAME for this architecture ($(dpkg --print-architecture 2>/dev/null || uname -m)); set mamePath to a MAME >= 0.276."
    exit 1
    ;;
esac
keyring=/usr/share/keyrings/debian-archive-keyring.gpg
if [ ! -r "$keyring" ]; then
  say "$keyring is missing (Debian's debian-archive-keyring package): cannot check Debian 13's packages."
  exit 1
fi

started=$(date +%s)
say "Debian $(cat /etc/debian_version 2>/dev/null) has no MAME with the sprinter driver; fetching Debian 13's into $prefix"
rm -rf "$prefix"
apt_dir="$prefix/apt"
mkdir -p "$apt_dir/state/lists/partial" "$apt_dir/cache/archives/partial" "$prefix/root" "$prefix/bin" "$prefix/ini"
: >"$apt_dir/status"
# the system's own Debian mirror, so a machine with a local mirror or proxy uses it too
mirror=$(grep -rhE '^[[:space:]]*(URIs:|deb )' /etc/apt/sources.list /etc/apt/sources.list.d/ 2>/dev/null |
  grep -oE 'https?://[^ ]+/debian/?( |$)' | head -n1 | tr -d ' ' || true)
echo "deb [signed-by=$keyring] ${mirror:-http://deb.debian.org/debian} trixie main" >"$apt_dir/sources.list"
apt_opts=(
  -o "Dir::State=$apt_dir/state" -o "Dir::State::status=$apt_dir/status" -o "Dir::Cache=$apt_dir/cache"
  -o "Dir::Etc::sourcelist=$apt_dir/sources.list" -o "Dir::Etc::sourceparts=/dev/null"
  -o "Dir::Etc::preferencesparts=/dev/null" -o "Debug::NoLocking=1" -o "APT::Sandbox::User=$(id -un)"
  -o "APT::Get::AllowUnauthenticated=false" -o "APT::Architecture=$(dpkg --print-architecture)"
)
if ! apt-get "${apt_opts[@]}" -qq update || ! apt-get "${apt_opts[@]}" -qq -y -d --no-install-recommends install mame mame-tools >/dev/null; then
  say "could not download Debian 13's mame packages (is Debian's archive reachable?). Set mamePath to a MAME >= 0.276 instead."
  exit 1
fi
debs=("$apt_dir"/cache/archives/*.deb)
download_mb=$(du -sm "$apt_dir/cache/archives" | cut -f1)
for deb in "${debs[@]}"; do dpkg-deb -x "$deb" "$prefix/root"; done
rm -rf "$apt_dir/cache"

root="$prefix/root"
libs="$root/usr/lib/$triplet:$root/lib/$triplet:$root/usr/lib/$triplet/pulseaudio"
sed "s#/usr/share/games/mame#$root/usr/share/games/mame#g; s#/etc/mame#$prefix/ini#g" "$root/etc/mame/mame.ini" >"$prefix/ini/mame.ini"
for f in "$root"/etc/mame/*.ini; do [ "$(basename "$f")" = mame.ini ] || cp "$f" "$prefix/ini/"; done
write_wrapper() { # name, binary, extra arguments
  cat >"$prefix/bin/$1" <<EOF
#!/bin/sh
# Debian 13's $1, run through its own loader and libraries (scripts/install-mame.sh)
exec "$root/usr/lib/$triplet/$loader" --library-path "$libs" "$2" $3 "\$@"
EOF
  chmod +x "$prefix/bin/$1"
}
write_wrapper mame "$root/usr/games/mame" "-inipath \"$prefix/ini\""
write_wrapper chdman "$root/usr/bin/chdman" ""
if ! has_sprinter "$wrapper"; then
  say "the unpacked MAME does not start or has no sprinter driver: $("$wrapper" -version 2>&1 | head -n3)"
  exit 1
fi
touch "$prefix/.complete"
say "MAME $("$wrapper" -version | cut -d' ' -f1) ready: ${#debs[@]} packages, ${download_mb} MB downloaded, $(du -sm "$prefix" | cut -f1) MB unpacked, $(($(date +%s) - started)) s"
echo "$wrapper"
