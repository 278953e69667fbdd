-- SPDX-License-Identifier: MIT
-- zombie.lua — a horde member (after seed 004's zombies): it follows a flow
-- field toward the player through the level; once it sees the player (in
-- range and in line of sight) it pursues directly. Separation and cohesion
-- at short range, all the time, make the horde spread round the player and
-- surround it instead of queuing behind each other in one line. One flow
-- field serves the whole horde; moving the player's goal a little each
-- think is a cheap repair of the field, not a rebuild.
--
--   local zombie = require "steer.archetypes.zombie"
--   local f = grid:flow_field{ goal = player.position }
--   w:add_grid(grid)                    -- walls for avoid_walls and sight
--   zombie.spawn(w, f, { position = {...}, data = { player = player } })
--   -- every frame or so: zombie.track(f, player.position)
local steer = require "steer"

local M = {}

M.params = {
  sight_range = 14,   -- metres: closer than this and in line of sight, pursue
  player_tag = "player",
  spacing = 1.2,      -- metres: separation radius
  huddle = 4,         -- metres: cohesion radius
}

M.vehicle = { max_speed = 2.2, max_force = 7, radius = 0.4, mass = 1 }

-- The two brains for one flow field, built once per field. A world loaded
-- from a snapshot already runs them (copies, bound to its own field, with
-- their behaviour memory): w:same_brain finds those, so its zombies keep
-- their brains; trees defined otherwise since (a hot reload) are new.
local cache = setmetatable({}, { __mode = "k" })

function M.brains(field, w)
  local b = cache[field]
  if b then return b end
  local p = M.params
  local function crowd(goal, name)
    return steer.priority{
      steer.avoid_walls{ whiskers = 3, length = 1.2, name = "walls" },
      steer.blend{
        { goal, 1 },
        { steer.separation{ radius = p.spacing, tag = "zombie", name = "spacing" }, 2 },
        { steer.cohesion{ radius = p.huddle, tag = "zombie", name = "huddle" }, 0.3 },
        name = name,
      },
      name = name,
    }
  end
  b = {
    follow = crowd(steer.follow_flow{ field = field, stop_radius = 1, name = "flow" }, "follow flow"),
    chase = crowd(steer.pursue{ max_prediction = 0.8, name = "pursue" }, "chase"),
  }
  if w then b.follow, b.chase = w:same_brain(b.follow), w:same_brain(b.chase) end
  cache[field] = b
  return b
end

-- The player if this zombie sees it (in range, and no blocked cell or
-- wall between), else nil. The player is a.data.player when the spawn
-- named one (cheap), else the nearest agent tagged player_tag in range.
function M.sees_player(a)
  local w = a.world
  local player = a.data.player
  if player and not player.alive then player = nil end
  if not player then player = w:neighbors(a.position, M.params.sight_range, M.params.player_tag)[1] end
  if not player then return nil end
  local x, y = a:xy()
  local px, py = player:xy()
  if (px - x) ^ 2 + (py - y) ^ 2 > M.params.sight_range ^ 2 then return nil end
  local field = a.data.field
  if field and not field.grid:line_of_sight({ x, y }, { px, py }) then return nil end
  local dx, dy = px - x, py - y
  local d = math.sqrt(dx * dx + dy * dy)
  if d > 1e-6 and w:raycast({ x, y }, { dx, dy }, d, { agents = false }) then return nil end
  return player
end

function M.think(a)
  local b = M.brains(a.data.field, a.world)
  local player = M.sees_player(a)
  if player then
    a.target = player
    a.brain = b.chase
  else
    a.target = nil
    a.brain = b.follow
  end
end

M.archetype = steer.archetype{ name = "zombie", vehicle = M.vehicle, think = M.think, think_hz = 4 }

-- Spawn a zombie that follows `field`; the other fields are w:spawn's
-- (data.player: the player to hunt, which spares a neighbour query per think).
function M.spawn(w, field, fields)
  local f = {}
  for k, v in pairs(fields or {}) do f[k] = v end
  local data = f.data or {}
  data.field = field
  f.data = data
  f.tag = f.tag or "zombie"
  f.brain = M.brains(field, w).follow
  return w:spawn(M.archetype, f)
end

-- Move the field's goal to the player's position, when that is an open
-- cell of the grid (a player pushed into a wall keeps the last goal).
-- Returns whether the goal moved.
function M.track(field, position)
  local g = field.grid
  if g:blocked(position) then return false end
  field:set_goal(position)
  return true
end

return M
