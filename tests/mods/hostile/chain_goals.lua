-- Issue 14, loose end: the largest goal list g:flow_field takes (a million
-- goals), each behind a chain of 1990 __index tables, as chain_points.lua
-- does with a patrol's points.
local steer = require "steer"
local goal = { x = 1.5, y = 1.5 }
for _ = 1, 1990 do goal = setmetatable({}, { __index = goal }) end
local goals = {}
for i = 1, 1000000 do goals[i] = goal end
local grid = steer.grid{ map = { "....", "...." } }
return { update = function() grid:flow_field{ goals = goals } end }
