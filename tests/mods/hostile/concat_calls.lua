-- Issue 14, item 9: an endless loop made only of C functions, which a count
-- hook never sees: table.concat reads t[1 .. 2^53] through __index, each
-- read a call of table.concat (of an empty table, by __len).
local t = setmetatable({}, { __index = table.concat, __len = rawlen })
return { update = function(w) if w.tick == 5 then return table.concat(t, "", 1, 2^53) end end }
