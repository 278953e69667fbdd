-- Issue 14, item 6: a callbacks table whose __index raises (at the lookup
-- of setup, before any callback runs).
return setmetatable({}, { __index = function() error("gotcha") end })
