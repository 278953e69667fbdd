-- SPDX-License-Identifier: MIT
-- luacheck's settings: `luacheck lua/ demos/ tests/` is clean (the test
-- luacheck, suite style, keeps it so). The engine embeds Lua 5.4, but the
-- module, its Lua files, the demos and the specs also run on Lua 5.1, 5.3
-- and LuaJIT (tests/luaversions.sh): what any of them has is known, and
-- code that uses a name only some have falls back (math.atan2 or math.atan).
std = "max"
-- The C keeps to 120 columns (.clang-format); Lua's spec lines, which spell
-- out an expected value or a whole agent table, run a little longer.
max_line_length = 160

-- LuaLS annotations, never executed: function stubs whose arguments exist
-- only to carry ---@param types, and classes filled in field by field.
files["lua/steer/meta.lua"] = {
    max_line_length = false,
    ignore = { "212", "241" },
}

-- The LÖVE demo runs in LÖVE 11, on LuaJIT, with LÖVE's `love` table.
files["demos/love"] = { std = "luajit+love" }
