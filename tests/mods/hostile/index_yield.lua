-- A callbacks table whose __index yields (outside any coroutine).
return setmetatable({}, { __index = function() return coroutine.yield() end })
