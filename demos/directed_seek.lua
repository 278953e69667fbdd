-- SPDX-License-Identifier: MIT
-- directed_seek.lua — arriving at a waypoint in a given direction with a
-- turn-limited craft (steer.directed_seek, after M. Jakob).
--
-- A craft (10 m/s, 8 m turn radius) and a point mass (6 m/s, flying by the
-- behaviour's 6 m radius) each fly to their waypoint W and must cross it
-- heading along the arrow. The debug drawing shows the craft's plan as the
-- behaviour makes it every tick: its two turn circles k_A+ / k_A- (grey),
-- the waypoint circles k_W / k'_W (green, dim for the far one), the chosen
-- path's circles (yellow), the straight segment between the tangent
-- points (white), the steering direction (red), and the stage (I: turning
-- onto the tangent, II: flying along it, III: the final turn), the path
-- kind and its total turning.
--
-- The waypoints: when a flier arrives, its waypoint moves to the next pose
-- of a tour. In the viewer the craft's waypoint follows the mouse instead
-- (its direction stays that of the current tour pose).
--
-- Try: change RADIUS or SPEED and save; set `opposite = false` in brain()
-- to see the plans without the far waypoint circle k'_W.
--
-- Headless: steer run --headless --ticks 3600 demos/directed_seek.lua

local steer = require "steer"

local RADIUS, SPEED = 8, 10

-- waypoint poses: position and the direction to cross it in
local TOUR = {
  { { 40, 20 }, { 1, 0 } }, { { -30, 40 }, { 0, -1 } }, { { -40, -35 }, { 1, 1 } },
  { { 45, -30 }, { -1, 0 } }, { { 0, 0 }, { 0, 1 } }, { { 60, 45 }, { -1, -1 } },
}

-- The fliers (their agents, craft first) in steer.state, which hot
-- reloads, --load and the viewer's rewind keep; a flier's own state (its
-- leg of the tour, trail, arrivals, brain) is its agent's a.data, which
-- stays with the agent.
local S = steer.state

local function brain(pose, radius)
  return steer.directed_seek{ heading = pose[2], min_turn_radius = radius, name = "directed_seek" }
end

local function aim_at(f, k)
  f.leg, f.best = k, nil
  local pose = TOUR[(k - 1) % #TOUR + 1]
  f.pose = pose
  f.ds = brain(pose, f.radius)
  f.agent.brain = f.ds
  f.agent.target = pose[1]
end

local function spawn(w, fields, radius, colour, start)
  local a = w:spawn(fields)
  local f = { agent = a, radius = radius, colour = colour, trail = {}, arrivals = 0 }
  a.data = f
  S.fliers[#S.fliers + 1] = a
  aim_at(f, start)
  return f
end

-- Arrival is the closest pass within 3 m of W: true (and the miss distance
-- and heading error there) on the tick after it.
local function arrived(f)
  local a = f.agent
  local W, d = steer.vec(f.pose[1][1], f.pose[1][2]), steer.vec(f.pose[2][1], f.pose[2][2]):normalized()
  local dist = a.position:dist(W)
  if f.best and dist > f.best then return true, f.best, f.err end
  if dist < 3 then f.best, f.err = dist, math.deg(math.acos(math.min(1, a.heading:dot(d)))) end
  return false
end

return {
  world = { dim = 2, size = { 200, 160 }, origin = { -100, -80 }, seed = 3 },

  setup = function(w)
    S.fliers = {}
    spawn(w, { position = { -60, -20 }, velocity = { SPEED, 0 }, max_speed = SPEED, max_force = 40, model = "craft",
      min_turn_radius = RADIUS, min_speed = SPEED * 0.6, radius = 1, tag = "craft" }, nil, { 255, 210, 80 }, 1)
    spawn(w, { position = { 60, 60 }, velocity = { 0, -6 }, max_speed = 6, max_force = 20, radius = 0.6,
      tag = "point" }, 6, { 120, 200, 255 }, 4)
  end,

  update = function(w)
    local mouse = w.mouse -- in the viewer: the craft's waypoint follows the mouse
    for i, a in ipairs(S.fliers) do
      local f = a.data
      local x, y = a:xy()
      local trail = f.trail
      trail[#trail + 1] = { x, y }
      if #trail > 400 then table.remove(trail, 1) end
      if i == 1 and mouse then
        a.target = mouse
      else
        local ok, dist, err = arrived(f)
        if ok then
          f.arrivals = f.arrivals + 1
          print(("directed_seek: %s reached waypoint %d at t=%.1f s, %.2f m off, heading %.1f deg off")
            :format(a.tag, f.leg, w.time, dist, err))
          aim_at(f, f.leg + 1)
        end
      end
    end
  end,

  draw = function(d)
    local grey, green, dim, yellow, white, red = { 110, 110, 120 }, { 90, 220, 120 }, { 40, 100, 60 },
      { 255, 220, 60 }, { 240, 240, 240 }, { 255, 80, 60 }
    for _, a in ipairs(S.fliers) do
      local f = a.data
      -- the waypoint and its direction
      local W, dir = a.target, steer.vec(f.pose[2][1], f.pose[2][2]):normalized()
      d:circle(W.x, W.y, 0.8, f.colour)
      d:line(W.x, W.y, W.x + 6 * dir.x, W.y + 6 * dir.y, f.colour)
      for k = 2, #f.trail do
        local p, q = f.trail[k - 1], f.trail[k]
        d:line(p[1], p[2], q[1], q[2], f.colour)
      end
      local plan = steer.directed_seek_plan(a, f.ds)
      if plan then
        local r, c = plan.radius, plan.circles
        d:circle(c.agent_left.x, c.agent_left.y, r, grey)
        d:circle(c.agent_right.x, c.agent_right.y, r, grey)
        d:circle(c.waypoint.x, c.waypoint.y, r, green)
        d:circle(c.opposite.x, c.opposite.y, r, dim)
        d:circle(plan.agent_circle.center.x, plan.agent_circle.center.y, r, yellow)
        d:circle(plan.waypoint_circle.center.x, plan.waypoint_circle.center.y, r, yellow)
        d:line(plan.from.x, plan.from.y, plan.to.x, plan.to.y, white)
        local x, y = a:xy()
        d:line(x, y, x + 5 * plan.aim.x, y + 5 * plan.aim.y, red)
        d:text(x + 2, y + 2, ("%s  %s%s  phi %.0f deg"):format(({ "I", "II", "III" })[plan.stage], plan.path,
          plan.opposite and " k'W" or "", math.deg(plan.total_angle)), f.colour)
      end
    end
    d:text(-95, 74, ("craft: %d arrivals   point mass: %d arrivals"):format(S.fliers[1].data.arrivals, S.fliers[2].data.arrivals),
      white)
  end,

  -- (a snapshot saved before steer.state holds no list: the agents, craft first)
  load = function(w)
    if S.fliers == nil then S.fliers = { w:agents("craft")(), w:agents("point")() } end
  end,

  reload = function()
    -- this file ran again: the fliers fly on, on their legs, with brains of the new RADIUS
    for _, a in ipairs(S.fliers) do aim_at(a.data, a.data.leg) end
  end,
}
