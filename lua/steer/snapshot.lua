-- SPDX-License-Identifier: MIT
-- steer/snapshot.lua — internal: the Lua half of w:save and steer.load
-- (src/lua/lsnapshot.c), which names the Lua functions and trees a world
-- holds so that a fresh Lua state finds them again. Not a module to
-- require: the build embeds this file in steer.so (tools/embed.py), so
-- that a save or load needs no package.path, and lsnapshot.c runs it once
-- per Lua state with its C helpers as arguments:
--   tree_fns(tree) -> the Lua functions of its callbacks, in node order
--   digest(tree)   -> a string of its structure and parameters, refs left out
-- It returns the table of functions below. It runs on every Lua the module
-- is built for (5.4, 5.3, 5.1, LuaJIT).
local tree_fns, digest = ...
local next, type, ipairs, rawget, sort, concat, fmt, mtype, unpack =
  next, type, ipairs, rawget, table.sort, table.concat, string.format, math.type, table.unpack or unpack

-- Lua 5.1 and LuaJIT: every number is a float; a whole one is an integer
mtype = mtype or function(x)
  if type(x) ~= 'number' then return nil end
  return x == x - x % 1 and 'integer' or 'float'
end
local M = {}

-- string and integer keys in one order, whatever the process's hashing
local function keys(t)
  local ks = {}
  for k in next, t do
    if type(k) == 'string' or mtype(k) == 'integer' then ks[#ks + 1] = k end
  end
  sort(ks, function(a, b)
    if type(a) ~= type(b) then return type(a) == 'number' end
    return a < b
  end)
  return ks
end

-- the name as a script would spell it, for errors
function M.show(name)
  if name[1] == 'archetype' then
    if name[3] == 'think' then return fmt("archetype '%s''s think", name[2]) end
    return fmt("function %s of archetype '%s''s brain", name[4], name[2])
  end
  local out = { name[1] == 'module' and 'module ' .. name[2] .. ' ' or name[2] }
  for i = 3, #name do
    local k = name[i]
    if type(k) == 'string' and k:match('^[%a_][%w_]*$') then out[#out + 1] = '.' .. k
    elseif type(k) == 'string' then out[#out + 1] = fmt('[%q]', k)
    else out[#out + 1] = '[' .. k .. ']' end
  end
  return concat(out)
end

-- wanted: k -> function (or, with trees, k -> tree); returns k -> name,
-- or nil and the first k without one (a tree may have none)
function M.names(wanted, archetypes, roots, loaded, trees)
  local index, names, left = {}, {}, #wanted
  local kind = trees and 'userdata' or 'function'
  for k, f in ipairs(wanted) do index[f] = k end
  local function found(f, name)
    local k = index[f]
    if k and not names[k] then names[k], left = name, left - 1 end
  end
  for _, an in ipairs(keys(archetypes)) do
    local a = archetypes[an]
    if trees then
      if a.brain then found(a.brain, { 'archetype', an, 'brain' }) end
    else
      if a.think then found(a.think, { 'archetype', an, 'think' }) end
      if a.brain then
        for i, f in ipairs(tree_fns(a.brain)) do found(f, { 'archetype', an, 'brain', i }) end
      end
    end
  end
  local seen = { [loaded] = true }
  local function walk(t, name, depth)
    if left == 0 or seen[t] then return end
    seen[t] = true
    for _, k in ipairs(keys(t)) do
      local v = rawget(t, k)
      name[#name + 1] = k
      if type(v) == kind then found(v, { unpack(name) })
      elseif type(v) == 'table' and depth < 4 then walk(v, name, depth + 1) end
      name[#name] = nil
    end
  end
  for _, rn in ipairs(keys(roots)) do
    if type(roots[rn]) == 'table' then walk(roots[rn], { 'root', rn }, 1) end
  end
  local mods = keys(loaded)
  for i, mn in ipairs(mods) do if mn == '_G' then table.remove(mods, i) mods[#mods + 1] = mn break end end
  for _, mn in ipairs(mods) do
    local m = rawget(loaded, mn)
    if type(m) == 'function' and not trees then found(m, { 'module', mn })
    elseif type(m) == 'table' then walk(m, { 'module', mn }, 1) end
  end
  if trees then return names end
  for k = 1, #wanted do if not names[k] then return nil, k end end
  return names
end

-- name (the k-th) -> what it names in this state (nil if nothing), or
-- nil and what is wrong with the name or its archetype, module or root
function M.lookup(name, archetypes, roots, loaded, k)
  if type(name) ~= 'table' or type(name[1]) ~= 'string' or type(name[2]) ~= 'string' then
    return nil, 'corrupt snapshot (function ' .. k .. ' has no name)'
  end
  if name[1] == 'archetype' then
    local a = archetypes[name[2]]
    if not a then
      return nil, fmt("archetype '%s' is not defined (define it, or require its module, before "
        .. 'steer.load)', name[2])
    end
    if name[3] == 'think' then return a.think end
    if name[3] == 'brain' and name[4] == nil then return a.brain end
    if a.brain and mtype(name[4]) == 'integer' then return tree_fns(a.brain)[name[4]] end
    return nil
  end
  local t
  if name[1] == 'module' then
    t = rawget(loaded, name[2])
    if t == nil then return nil, fmt("module '%s' is not loaded (require it before steer.load)", name[2]) end
  elseif name[1] == 'root' then
    t = roots[name[2]]
    if t == nil then
      return nil, fmt("the snapshot names functions in a table '%s': give it as "
        .. 'steer.load(s, { roots = { %s = t } })', name[2], name[2])
    end
  else
    return nil, 'corrupt snapshot (function ' .. k .. ' has no name)'
  end
  for i = 3, #name do t = type(t) == 'table' and rawget(t, name[i]) or nil end
  return t
end

-- names: k -> name; returns k -> function, or nil and what is wrong
function M.resolve(names, archetypes, roots, loaded)
  local fns = {}
  if type(names) ~= 'table' then return nil, 'corrupt snapshot (no function list)' end
  for k = 1, #names do
    local f, err = M.lookup(names[k], archetypes, roots, loaded, k)
    if err then return nil, err end
    if type(f) ~= 'function' then
      return nil, M.show(names[k]) .. ' is not a function in this Lua state (the snapshot calls it)'
    end
    fns[k] = f
  end
  return fns
end

-- what an agent of the archetype gets from it, as one string; numbers
-- by %.17g (exact for a double, and 5.1 has no %a), integer or float
-- alike, so the string is the same on every Lua
function M.definition(a)
  if not a then return '' end
  local v, out = a.vehicle, { a.brain and digest(a.brain) or '', tostring(a.tag), fmt('%.17g', a.think_hz or 0) }
  for _, k in ipairs(keys(v)) do out[#out + 1] = k .. '=' .. (type(v[k]) == 'number' and fmt('%.17g', v[k]) or
    tostring(v[k])) end
  return concat(out, '\n')
end

-- the archetypes the agents of arch (id -> name) name: the first missing one
function M.missing(arch, archetypes)
  if type(arch) ~= 'table' then return nil end
  local ids = keys(arch)
  for _, id in ipairs(ids) do
    local n = arch[id]
    if type(n) ~= 'string' then return id, '?' end
    if not archetypes[n] then return id, n end
  end
end
return M
