package.path = arg[1] .. "/?.lua;tests/lua/?.lua;lua/?.lua;lua/?/init.lua;" .. package.path
local narrow = require "narrow"
local function p(name, s) print(("%-28s %s"):format(name, narrow.show(narrow.run(s)))) end
p("door 2x10 1/60", narrow.doorway(1/60))
p("door 2x10 0.25", narrow.doorway(0.25))
p("door 2x10 0.25 mo", narrow.with(narrow.doorway(0.25), { max_overlap = 0.35 }))
p("queue 4x5 1/60", narrow.bottleneck(1/60, 1.2))
p("queue 4x5 0.25", narrow.bottleneck(0.25, 1.2))
p("queue 4x5 0.25 mo", narrow.with(narrow.bottleneck(0.25, 1.2, 4, 5), { max_overlap = 0.35 }))
p("queue 5x6 1/60", narrow.bottleneck(1/60, 1.2, 5, 6))
p("queue 5x6 0.25", narrow.bottleneck(0.25, 1.2, 5, 6))
p("queue 5x6 0.25 mo", narrow.with(narrow.bottleneck(0.25, 1.2, 5, 6), { max_overlap = 0.35 }))
