-- Issue 14, item 7: a callbacks table whose __index raises only for
-- "update": setup is clean, the first tick's lookup raises.
return setmetatable({}, { __index = function(_, k) if k == "update" then error("gotcha") end end })
