package.path = "tests/lua/?.lua;lua/?.lua;lua/?/init.lua;" .. package.path
local narrow = require "narrow"
local dt = load("return " .. arg[1])()
local cols, rows, n = tonumber(arg[2]), tonumber(arg[3]), tonumber(arg[4])
local m, runs = narrow.median_time(function() return narrow.doorway(dt, cols, rows) end, n)
local t = {}
for k, r in ipairs(runs) do t[k] = r.time and ("%.2f"):format(r.time) or ("n" .. r.through) end
print(("median %.2f | %s"):format(m, table.concat(t, " ")))
