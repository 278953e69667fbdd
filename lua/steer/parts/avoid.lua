-- SPDX-License-Identifier: MIT
-- LuaLS annotations for the obstacle and wall family (src/behaviors/avoid.c,
-- hide.c, contain.c): steer.avoid_obstacles, steer.avoid_walls, steer.hide,
-- steer.contain. A part of lua/steer/meta.lua, to be merged into it.
---@meta steer

---`steer.avoid_obstacles`: collision prediction against the world's static
---shapes (circles/spheres, boxes, walls, planes) by the time of closest
---approach, with the shapes grown by the agent's radius + `margin`. Steers
---laterally away from the most imminent threat and keeps the side it chose
---while that threat lasts; escalates (sidestep, then follow the surface)
---when the agent makes no progress.
---@class steer.AvoidObstaclesDesc: steer.BehaviorDesc
---@field lookahead? number seconds of straight-line motion tested, > 0 (at most 1e4); default 1
---@field margin? number metres of clearance wanted beyond touching, >= 0; default 0.25
---@field stuck_window? number seconds per progress check, >= 0 and 0 or >= lookahead / 4; 0 turns the escalation off; default 1
---@field stuck_progress? number metres the agent must gain along the way it meant to go per window while avoiding, >= 0; default 0 (= a quarter of what max_speed covers in the window)

---`steer.avoid_walls`: ray whiskers cast against the world's shapes; each
---hit pushes along the hit normal in proportion to the whisker's
---penetration. A wall met head-on or a concave corner makes the agent pick
---a hand and escape along the walls instead of dithering.
---@class steer.AvoidWallsDesc: steer.BehaviorDesc
---@field whiskers? integer number of rays, a whole number from 1 to 16; default 3 (with an odd count one runs along the heading)
---@field length? number metres each whisker reaches, > 0 (at most 1e4); default 3
---@field spread? number total angle of the fan in radians, 0 to 2 pi; default pi/2. In 3D with 3 or more whiskers: one along the heading, the rest on a cone of half this angle
---@field hold? number seconds the corner escape outlives the last whisker touch, >= 0; default 2

---`steer.hide`: go to the hiding spot behind the nearest obstacle (circle,
---sphere or box) as seen from the pursuer, braking there; evade the pursuer
---when no obstacle is within `radius`.
---@class steer.HideDesc: steer.BehaviorDesc
---@field target? steer.Target the pursuer: an agent (or a point); default nil (the agent's `target`)
---@field radius? number metres, > 0: obstacles whose surface is this close to the agent are considered; default 20
---@field margin? number metres of clearance between the obstacle's surface and the agent's body at the spot, >= 0; default 1
---@field slow_radius? number metres, > 0: the agent brakes linearly inside this distance of the spot; default 2
---@field max_prediction? number seconds, >= 0: when evading, the pursuer's position is predicted min(distance / max_speed, this) ahead; default 1

---`steer.contain`: stay inside the world's bounds (axes of size 0 are
---unbounded; a wrapped world gives zero), pushing inward when the agent's
---body, now or `lookahead` seconds ahead, comes within `margin` of a bound.
---@class steer.ContainDesc: steer.BehaviorDesc
---@field margin? number metres from a bound where the push starts, >= 0; default 2
---@field lookahead? number seconds of velocity used to predict the position, >= 0 (at most 1e4); default 0.5

---Avoid static shapes by collision prediction; keeps its side; escapes dead ends.
---@param desc? steer.AvoidObstaclesDesc
---@return steer.Behavior
function steer.avoid_obstacles(desc) end

---Ray-whisker wall avoidance with a corner-trap escape.
---@param desc? steer.AvoidWallsDesc
---@return steer.Behavior
function steer.avoid_walls(desc) end

---Hide behind the nearest obstacle from a pursuer; evade it when there is none.
---@param desc? steer.HideDesc
---@return steer.Behavior
function steer.hide(desc) end

---Stay inside the world's bounds.
---@param desc? steer.ContainDesc
---@return steer.Behavior
function steer.contain(desc) end
