#!/bin/sh
# SPDX-License-Identifier: MIT
# `meson install` into a scratch directory, then use what it installed as a
# game, a modder and a player would, from a copy of the prefix moved away
# from where it was configured and from the checkout: build the embedding
# demo and a Lua host (install_host.c, steer_lua.h) against steer.pc alone,
# found with PKG_CONFIG_PATH at the prefix's pkgconfig dir, with
# libsteerlua.so and again with the archives; a core host
# (tests/c/test_shared.c) against steer-core.pc, with libsteer.so and
# libsteer.a, to the build's hash, and libsteer.so loaded with dlopen; run
# the demo with its two mods; run the installed `steer` on a demo copied
# out of the checkout and check it read the installed Lua files; load
# steer.so into the stock lua5.4.
set -eu
build=$1 src=$2
dest=$build/install-test
rm -rf "$dest"
meson install -C "$build" --destdir "$dest" --no-rebuild >/dev/null
pc=$(find "$dest" -name steer.pc | head -n 1)
prefix=$(sed -n 's/^prefix=//p' "$pc")
libdir=$(sed -n 's/^libdir=${prefix}//p' "$pc")
# steer.pc lands in <prefix>/<libdir>/pkgconfig, as the README says
[ "$pc" = "$dest$prefix$libdir/pkgconfig/steer.pc" ] || { echo "steer.pc installed at $pc"; exit 1; }
moved=$dest/moved
mv "$dest$prefix" "$moved"
# a moved prefix's .pc names the old one (meson's -Dpkgconfig.relocatable=true writes one that follows)
sed -i "s|^prefix=.*|prefix=$moved|" "$moved$libdir/pkgconfig/steer.pc" "$moved$libdir/pkgconfig/steer-core.pc"
export PKG_CONFIG_PATH="$moved$libdir/pkgconfig"
# NEEDED: what PROGRAM asks the loader for
needed() { readelf -d "$1" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | tr '\n' ' '; }
# steer.pc links libsteerlua.so (the core inside), found at run time here
# through LD_LIBRARY_PATH (a prefix the loader knows needs none); with the
# archives named first, `pkg-config --static` links them into the program
cflags=$(pkg-config --cflags steer)
libs=$(pkg-config --libs steer)
static_libs=$(pkg-config --static --libs steer | sed 's/-lsteerlua/-l:libsteerlua.a/; s/-lsteer /-l:libsteer.a /')
for host in "$src/demos/embed/embed.c" "$src/tests/install_host.c"; do
    name=$(basename "$host" .c)
    cc -std=c11 -Wall -Wextra -Werror $cflags "$host" $libs -o "$dest/$name"
    cc -std=c11 -Wall -Wextra -Werror $cflags "$host" $static_libs -o "$dest/$name-static"
    case " $(needed "$dest/$name") " in *" libsteerlua.so.0 "*) ;; *)
        echo "$name built with steer.pc needs $(needed "$dest/$name"), not libsteerlua.so.0"; exit 1;; esac
    case "$(needed "$dest/$name-static")" in *libsteer*) echo "$name-static needs $(needed "$dest/$name-static")"; exit 1;; esac
done
export LD_LIBRARY_PATH="$moved$libdir"
"$dest/embed" --ticks 120 --strict --mods "$src/demos/embed/mods" "$src/demos/embed/scenario.lua"
out=$("$dest/install_host")
case "$out" in "1	"*) echo "install_host: $out" ;; *) echo "install_host printed '$out', not 1 agent and a hash"; exit 1;; esac
out_static=$(env -u LD_LIBRARY_PATH "$dest/install_host-static")
[ "$out_static" = "$out" ] || { echo "install_host with the archives printed '$out_static', with libsteerlua.so '$out'"; exit 1; }
echo "install_host with the archives: $out_static"

# The core alone: steer-core.pc names no Lua; a host links libsteer.so
# (needing nothing of Lua) or libsteer.a, and steps the build's world
core_libs=$(pkg-config --libs steer-core)
case "$core_libs $(pkg-config --cflags steer-core)" in *lua*) echo "steer-core.pc names Lua: $core_libs"; exit 1;; esac
core_static=$(pkg-config --static --libs steer-core | sed 's/-lsteer /-l:libsteer.a /')
core_cflags=$(pkg-config --cflags steer-core)
cc -std=c11 -Wall -Wextra -Wpedantic -Werror $core_cflags "$src/tests/c/test_shared.c" $core_libs -ldl -o "$dest/core_host"
cc -std=c11 -Wall -Wextra -Wpedantic -Werror $core_cflags "$src/tests/c/test_shared.c" $core_static -ldl \
    -o "$dest/core_host-static"
case " $(needed "$dest/core_host")" in *lua*) echo "core_host needs Lua: $(needed "$dest/core_host")"; exit 1;; esac
case " $(needed "$dest/core_host")" in *" libsteer.so.0 "*) ;; *) echo "core_host needs $(needed "$dest/core_host"), not libsteer.so.0"; exit 1;; esac
want=$("$build/tests/test-shared")
for exe in core_host core_host-static; do
    got=$("$dest/$exe")
    [ "$got" = "$want" ] || { echo "$exe: hash '$got', the build's '$want'"; exit 1; }
done
echo "a core host built with steer-core.pc, with libsteer.so and with libsteer.a: hash $want, as the build's"
"$dest/core_host-static" "$moved$libdir/libsteer.so"
unset LD_LIBRARY_PATH

# The installed steer names no file of the checkout, and reads the Lua
# library beside its own bin/ before any other.
if grep -F -q "$src/lua" "$moved/bin/steer"; then echo "the installed steer names $src/lua"; exit 1; fi
mkdir "$dest/scenarios"
cat >"$dest/scenarios/where.lua" <<'EOF'
print("steer.random from " .. package.searchpath("steer.random", package.path))
return { world = {} }
EOF
where=$("$moved/bin/steer" run --headless --ticks 1 "$dest/scenarios/where.lua" | sed -n 's/^steer.random from //p')
case "$where" in "$moved/share/lua/5.4/steer/random.lua") ;; *)
    echo "the installed steer reads the Lua library elsewhere: $where"; exit 1;; esac
# arrive requires steer.random: the demo runs headless from its copy, to the build's hash
cp "$src/demos/arrive.lua" "$dest/scenarios/"
installed=$("$moved/bin/steer" run --headless --ticks 300 "$dest/scenarios/arrive.lua" 2>&1 | sed -n 's/.*hash //p')
built=$("$build/steer" run --headless --ticks 300 "$src/demos/arrive.lua" 2>&1 | sed -n 's/.*hash //p')
[ -n "$installed" ] && [ "$installed" = "$built" ] || { echo "installed arrive: '$installed', built: '$built'"; exit 1; }
echo "installed steer runs arrive.lua from $dest/scenarios: hash $installed"

so=$(find "$moved" -path '*/lib/lua/5.4/steer.so' | head -n 1)
[ -n "$so" ] || { echo "no steer.so installed under lib/lua/5.4"; exit 1; }
LUA_CPATH="$(dirname "$so")/?.so" lua5.4 -e 'local s = require "steer"; local w = s.world{}; w:spawn{}; w:step(10); assert(w.count == 1); print("lua5.4 loads steer " .. s.version)'

# The modules for Lua 5.3 and 5.1 (when built) beside it, with their Lua
# files under share/lua/V: lua5.3, lua5.1 and LuaJIT (which loads the 5.1
# one) each step the same world as lua5.4 to the same hash.
run_installed() { # INTERPRETER V
    env -u LUA_PATH -u LUA_CPATH -u LUA_PATH_5_4 -u LUA_CPATH_5_4 -u LUA_PATH_5_3 -u LUA_CPATH_5_3 "$1" -e "
        package.path = '$moved/share/lua/$2/?.lua'
        package.cpath = '$moved/lib/lua/$2/?.so'
        local steer = require 'steer'
        local random = require 'steer.random'
        local boid = require 'steer.archetypes.boid'
        local w, r = steer.world{ seed = 5, wrap = true, size = { 50, 50 } }, random.new(9)
        for _ = 1, 40 do w:spawn(boid.archetype, { position = { 50 * random.float(r), 50 * random.float(r) } }) end
        w:step(120)
        io.write(w:hash())"
}
ref=$(run_installed lua5.4 5.4)
for pair in lua5.3:5.3 lua5.1:5.1 luajit:5.1; do
    lua=${pair%:*} v=${pair#*:}
    [ -f "$moved/lib/lua/$v/steer.so" ] && command -v "$lua" >/dev/null || continue
    got=$(run_installed "$lua" "$v")
    [ "$got" = "$ref" ] || { echo "installed for $lua: hash '$got', lua5.4's '$ref'"; exit 1; }
    echo "$lua loads the installed lib/lua/$v/steer.so and its Lua files: hash $got, as lua5.4"
done
