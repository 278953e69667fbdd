-- Issue 14, item 8: a callbacks table whose __index loops for every key.
return setmetatable({}, { __index = function() while true do end end })
