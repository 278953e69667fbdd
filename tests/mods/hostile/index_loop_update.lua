-- Issue 14, item 8: a callbacks table whose __index loops only for "update".
return setmetatable({}, { __index = function(_, k) if k == "update" then while true do end end end })
