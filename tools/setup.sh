#!/bin/sh
# SPDX-License-Identifier: MIT
# Install what steer needs on Debian 12 (only what is missing), then
# configure and build. Used by run-demo.sh, run-tests.sh and CI.
#   tools/setup.sh [BUILD_DIR [MESON_OPTIONS...]]
#   tools/setup.sh --packages PACKAGE...   only install these (the checks'
#                                          tools: clang, clang-format, gcc-aarch64-linux-gnu, qemu-user-static)
set -eu
cd "$(dirname "$0")/.."
pkgs="meson ninja-build pkg-config gcc liblua5.4-dev lua5.4 libsdl2-dev libsdl2-ttf-dev fonts-dejavu-core xvfb libstb-dev python3 lua-check lua-busted luarocks"
# the module for the other Luas games load, their interpreters, and LÖVE
pkgs="$pkgs liblua5.3-dev lua5.3 liblua5.1-0-dev lua5.1 libluajit-5.1-dev luajit lua-compat53-dev love libgl1-mesa-dri"
# the C++ compilers the cxx_headers test builds a C++ host with (clang has clang++)
pkgs="$pkgs g++ clang"
# Recast, which bakes navigation meshes from level geometry (src/nav/bake.cpp, -Drecast=auto)
pkgs="$pkgs librecast-dev"
only=false
if [ "${1:-}" = --packages ]; then
    shift
    pkgs="$*"
    only=true
fi
missing=""
for p in $pkgs; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
if [ -n "$missing" ]; then
    echo "setup: installing$missing" >&2
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq $missing >/dev/null
fi
$only && exit 0
build="${1:-build}"
[ $# -gt 0 ] && shift
if [ -f "$build/build.ninja" ]; then
    meson setup --reconfigure "$build" "$@" >/dev/null
else
    meson setup "$build" "$@" >/dev/null
fi
ninja -C "$build" >/dev/null
