-- Issue 14, item 5: a scenario whose table's __index raises: the engine's
-- look at its fields must report a load error, not abort.
return setmetatable({}, { __index = function() error("x") end })
