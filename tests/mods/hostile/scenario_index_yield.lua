-- Issue 14, item 5: a scenario whose table's __index yields.
return setmetatable({}, { __index = function() return coroutine.yield() end })
