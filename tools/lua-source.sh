#!/bin/sh
# SPDX-License-Identifier: MIT
# lua-source.sh DIR — Debian's own Lua 5.4 source package (the sources the
# Windows and browser builds compile Lua from), unpacked with Debian's
# patches under DIR. Prints the path of the unpacked tree (its src/ holds
# lua.h, lapi.c, ...) on stdout; the version is in DIR/VERSION.
# Adds a deb-src line for Debian's archive when apt has none (root only),
# and does nothing when DIR already holds an unpacked tree. No copy of Lua
# is kept in this repository.
set -eu
dir="$1"
mkdir -p "$dir"
dir="$(cd "$dir" && pwd)"
found() { for d in "$dir"/lua5.4-*/; do [ -f "$d/src/lapi.c" ] && { echo "${d%/}"; return 0; }; done; return 1; }
if found >/dev/null; then
    found
    exit 0
fi
if ! apt-get source --print-uris lua5.4 >/dev/null 2>&1; then
    if [ "$(id -u)" != 0 ]; then
        echo "lua-source.sh: apt has no deb-src line for Debian's archive; add one (as root) or run this as root" >&2
        exit 1
    fi
    src=/etc/apt/sources.list.d/debian.sources
    if [ -f "$src" ] && grep -q '^Types: deb$' "$src"; then
        sed -i 's/^Types: deb$/Types: deb deb-src/' "$src"
    else
        . /etc/os-release
        echo "deb-src http://deb.debian.org/debian ${VERSION_CODENAME:-bookworm} main" >/etc/apt/sources.list.d/steer-deb-src.list
    fi
    apt-get update -qq >&2
fi
command -v dpkg-source >/dev/null || apt-get install -y -qq dpkg-dev >&2
(cd "$dir" && apt-get source -qq lua5.4 >&2)
tree="$(found)"
basename "$dir"/lua5.4_*.dsc .dsc | sed 's/^lua5.4_//' >"$dir/VERSION"
echo "lua-source.sh: Debian lua5.4 $(cat "$dir/VERSION") in $tree" >&2
echo "$tree"
