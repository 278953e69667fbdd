#!/bin/sh
# SPDX-License-Identifier: MIT
# web-build.sh [BUILD] — the browser build (default build-web): Lua 5.4
# from Debian's own lua5.4 source package (tools/lua-source.sh, into
# BUILD/lua-src; its version in BUILD/lua-src/VERSION) compiled with
# emscripten into BUILD/lua/liblua.a, then the core, the engine and the
# bindings with meson (tools/wasm32-emscripten.ini), linked with web/web.c
# into BUILD/web/steer-web.js + .wasm, beside the page (web/index.html,
# web/app.js, web/style.css) and the demos and Lua library it embeds. Serve
# it with: python3 -m http.server -d BUILD/web 8000
# Installs emscripten (Debian's) when missing.
set -eu
cd "$(dirname "$0")/.."
build="${1:-build-web}"
tools/setup.sh --packages emscripten dpkg-dev >/dev/null
mkdir -p "$build"
build="$(cd "$build" && pwd)"
lua="$(tools/lua-source.sh "$build/lua-src")"
# liblua.a as Debian's Makefile builds it (LUA_COMPAT_5_3, POSIX), without
# dlopen (no C modules in the browser) and without lua.c and luac.c
if [ ! -f "$build/lua/liblua.a" ]; then
    mkdir -p "$build/lua/obj" "$build/lua/include"
    # Debian's luaconf.h names the multiarch triplet (for C module paths)
    printf '#ifndef _LUA_DEB_MULTIARCH_\n#define _LUA_DEB_MULTIARCH_\n#define DEB_HOST_MULTIARCH "wasm32-emscripten"\n#endif\n' \
        >"$build/lua/include/lua5.4-deb-multiarch.h"
    ls "$lua"/src/*.c | grep -v -e '/lua\.c$' -e '/luac\.c$' |
        xargs -P "$(nproc)" -I{} sh -c 'emcc -O2 -DLUA_COMPAT_5_3 -DLUA_USE_POSIX -I"$1/include" -c "$2" \
            -o "$1/obj/$(basename "$2" .c).o"' sh "$build/lua" {}
    [ "$(ls "$build/lua/obj" | wc -l)" -eq "$(ls "$lua"/src/*.c | grep -c -v -e '/lua\.c$' -e '/luac\.c$')" ] || exit 1
    emar rcs "$build/lua/liblua.a.tmp" "$build/lua"/obj/*.o
    mv "$build/lua/liblua.a.tmp" "$build/lua/liblua.a"
    cp "$lua"/src/lua.h "$lua"/src/luaconf.h "$lua"/src/lualib.h "$lua"/src/lauxlib.h "$lua"/src/lua.hpp "$build/lua/include/"
fi
version="$(sed 's/-.*//' "$build/lua-src/VERSION")"
cat >"$build/lua/lua5.4.pc" <<PC
Name: Lua
Description: Lua $(cat "$build/lua-src/VERSION") (Debian's source package) for emscripten
Version: $version
Libs: -L$build/lua -llua
Cflags: -I$build/lua/include
PC
# only this Lua: the machine's own .pc files are for the machine, not wasm
cat >"$build/lua/pkg-config.ini" <<INI
[properties]
pkg_config_libdir = '$build/lua'
INI
if [ ! -f "$build/meson/build.ninja" ]; then
    meson setup "$build/meson" --cross-file tools/wasm32-emscripten.ini --cross-file "$build/lua/pkg-config.ini" \
        -Dbuildtype=release -Dtests=false -Dviewer=disabled >"$build/setup.log" 2>&1 || {
        tail -n 20 "$build/setup.log" >&2
        exit 1
    }
fi
ninja -C "$build/meson" web/steer-web.js >"$build/ninja.log" 2>&1 || {
    tail -n 40 "$build/ninja.log" >&2
    exit 1
}
# the site: the page and the module, nothing else
mkdir -p "$build/web"
cp web/index.html web/app.js web/style.css "$build/meson/web/steer-web.js" "$build/meson/web/steer-web.wasm" "$build/web/"
echo "web-build: $build/web (python3 -m http.server -d $build/web 8000)"
