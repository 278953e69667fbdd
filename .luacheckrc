-- SPDX-License-Identifier: MIT
-- luacheck's settings: `luacheck lua/ demos/ tests/` is clean (the test
-- luacheck, suite style, keeps it so). The engine embeds Lua 5.4.
std = "lua54"
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
