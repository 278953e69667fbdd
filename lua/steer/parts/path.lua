-- SPDX-License-Identifier: MIT
-- parts/path.lua — LuaLS annotations for steer.follow_path and
-- steer.patrol (src/behaviors/path.c), to be merged into meta.lua. Never
-- executed. Units: metres, seconds.

---@meta steer

---@alias steer.PathJoin "start"|"nearest"

---@alias steer.PatrolMode "loop"|"pingpong"

---`steer.follow_path`: Reynolds' predictive path following. The agent's
---position `predict` s ahead is projected onto the path, searching forward
---from a per-agent cursor that never moves back. While that prediction is
---inside the corridor of half-width `radius`, only the speed is held.
---Otherwise the agent seeks a point `ahead` m further along the path. An
---open path ends with braking to its last point and one "arrive" event.
---@class steer.FollowPathDesc: steer.BehaviorDesc
---@field path steer.VecLike[] required: at least 2 finite points (repeats allowed); e.g. the result of `g:path(from, to)`
---@field loop? boolean after the last point comes the first (no end, no events); default false
---@field radius? number metres, >= 0: half-width of the corridor (a tube in 3D); 0 = always aim along the path; default 1
---@field predict? number seconds, >= 0: how far ahead the position is predicted; default 0.5
---@field ahead? number metres, >= 0: how far past the projection the agent aims when it corrects; default 1
---@field slow_radius? number metres, >= 0: braking distance before an open path's end, measured along the path; 0 = automatic (4 * cruise * max_speed * mass / max_force, no overshoot); default 0
---@field stop_radius? number metres, >= 0 (and < slow_radius when that is given): desired velocity zero and "arrive" inside this of the end; default 0.1
---@field speed? number cruise speed in m/s, >= 0; default 0 (= max_speed)
---@field join? steer.PathJoin where the cursor starts: "start" (the first point) or "nearest" (the nearest point of the whole path when the brain is assigned); default "start"

---`steer.patrol`: arrive at each point in turn, raising "arrive" at each
---one and holding still there for `pause` seconds. Order: "loop"
---(1..n, 1..n) or "pingpong" (1..n..1..n). With loop = false, a loop
---patrol stops at its last point and a ping-pong patrol after one round
---trip, back at its first point.
---@class steer.PatrolDesc: steer.BehaviorDesc
---@field points steer.VecLike[] required: at least 2 finite points (repeats allowed, each raises its own event)
---@field loop? boolean repeat forever; false: stop at the last point (loop mode) or after one round trip (ping-pong); default true
---@field pause? number seconds, >= 0: how long the agent holds still at each point; default 0
---@field mode? steer.PatrolMode visiting order; default "loop"
---@field slow_radius? number metres, >= 0: braking distance; 0 = automatic (the shortest without overshoot); default 0
---@field stop_radius? number metres, >= 0 (and < slow_radius when that is given): a point counts as reached inside this; default 0.2
---@field speed? number cruise speed in m/s, >= 0; default 0 (= max_speed)

---Follow a polyline inside a corridor (Reynolds). Each agent keeps its own
---place on the path, so one brain serves many agents. Raises, naming the
---field, on fewer than 2 points, a non-finite point, or a bad number or
---choice.
---@param desc steer.FollowPathDesc
---@return steer.Behavior
function steer.follow_path(desc) end

---Visit points in order, arriving and pausing at each. Raises, naming the
---field, on fewer than 2 points, a non-finite point, or a bad number or
---choice.
---@param desc steer.PatrolDesc
---@return steer.Behavior
function steer.patrol(desc) end
