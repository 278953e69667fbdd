-- Issue 14, loose end: the largest list steer.patrol takes (a million
-- points), each point a table whose x and y sit behind a chain of 1990
-- __index tables. Looked up through the chain, every point would be 3 x 1990
-- steps of C that make no call, minutes within one call of the binding; the
-- bindings read lists and vectors raw, so the first point is refused.
local steer = require "steer"
local point = { x = 1, y = 1 }
for _ = 1, 1990 do point = setmetatable({}, { __index = point }) end
local points = {}
for i = 1, 1000000 do points[i] = point end
return { update = function() steer.patrol{ points = points } end }
