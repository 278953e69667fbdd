-- SPDX-License-Identifier: MIT
-- parts/agents.lua — LuaLS annotations for the behaviours between moving
-- agents and the orientation behaviours (src/behaviors/avoid_agents.c,
-- group.c, face.c): steer.avoid_agents, steer.interpose,
-- steer.offset_pursuit, steer.match_velocity, steer.face,
-- steer.look_where_going. A part of lua/steer/meta.lua, to be merged into
-- it. Never executed. Units: metres, seconds, radians.
---@meta steer

---`steer.avoid_agents`: unaligned collision avoidance between moving
---agents. Neighbours are extrapolated at constant velocity; one whose
---closest approach within `horizon` comes nearer than the two radii plus
---`margin` is a threat. Every threat asks for a sidestep of
---2 * responsibility * gap / time-to-contact, away from its offset at
---closest approach; the sidesteps add up. The most imminent threat, if
---head-on and too close to dodge in time, also makes the agent brake. Two
---agents open (r_a + r_b) of each gap between them.
---@class steer.AvoidAgentsDesc: steer.BehaviorDesc
---@field horizon? number seconds of constant-velocity prediction, > 0 (at most 1e6); default 2
---@field responsibility? number share of each gap this agent opens, in [0, 1]: 0 never yields (zero force), 1 acts as if alone; default 1
---@field margin? number metres of clearance kept beyond touching, >= 0; default 0.3
---@field range? number metres, [0, 10000]: neighbours farther than this are not seen; default 0 (= horizon * 6 m/s + 2 m, at most 50 m)
---@field tag? string only agents with this tag are avoided; default nil (all)

---`steer.interpose`: get between `a` and `b`. Their midpoint is predicted
---distance / max_speed ahead (at most `max_prediction` when > 0), and the
---agent arrives there with the midpoint's velocity fed forward.
---@class steer.InterposeDesc: steer.BehaviorDesc
---@field a? steer.Target first side: an agent or a point; default nil (the agent's `target`)
---@field b? steer.Target second side: an agent or a point; default nil (the agent's `target`)
---@field slow_radius? number metres, > 0: inside it the arrive term slows linearly; default 5
---@field speed? number cruise speed in m/s, >= 0; default 0 (= max_speed)
---@field max_prediction? number seconds, >= 0: cap on the prediction time; default 0 (no cap)

---`steer.offset_pursuit`: hold a slot in the leader's frame (x forward,
---y left, z up; z ignored in 2D), predicted distance / max_speed ahead,
---arriving there with the leader's velocity fed forward. A point target
---uses the world's axes as its frame.
---@class steer.OffsetPursuitDesc: steer.BehaviorDesc
---@field target? steer.Target the leader: an agent (or a point); default nil (the agent's `target`)
---@field offset? steer.VecLike the slot in the leader's frame, metres: {forward, left [, up]}; default {0, 0, 0}
---@field slow_radius? number metres, > 0: inside it the arrive term slows linearly; default 5
---@field speed? number cruise speed in m/s, >= 0; default 0 (= max_speed)
---@field max_prediction? number seconds, >= 0: cap on the prediction time; default 0 (no cap)

---`steer.match_velocity`: track the target's velocity (capped at
---max_speed); a point target has velocity zero, so the agent stops.
---@class steer.MatchVelocityDesc: steer.BehaviorDesc
---@field target? steer.Target an agent (or a point); default nil (the agent's `target`)

---`steer.face`: orientation only, zero force. Turn the heading toward the
---target by at most `turn_rate * dt` per tick (in 3D in the plane of the
---two directions); a target exactly behind turns the agent left; standing
---on the target holds the heading.
---@class steer.FaceDesc: steer.BehaviorDesc
---@field target? steer.Target what to face: a vector or an agent; default nil (the agent's `target`)
---@field turn_rate? number radians per second, > 0; default 2 pi

---`steer.look_where_going`: orientation only, zero force. Turn the heading
---toward the velocity by at most `turn_rate * dt` per tick, more slowly
---below 5% of max_speed; at rest the heading is held.
---@class steer.LookWhereGoingDesc: steer.BehaviorDesc
---@field turn_rate? number radians per second, > 0; default 2 pi

---Avoid other moving agents by predicting their closest approach.
---@param desc? steer.AvoidAgentsDesc
---@return steer.Behavior
function steer.avoid_agents(desc) end

---Get between two agents (or points), predicting where they will be.
---@param desc? steer.InterposeDesc
---@return steer.Behavior
function steer.interpose(desc) end

---Hold a slot in a leader's frame (x forward, y left, z up).
---@param desc? steer.OffsetPursuitDesc
---@return steer.Behavior
function steer.offset_pursuit(desc) end

---Move with the target's velocity.
---@param desc? steer.MatchVelocityDesc
---@return steer.Behavior
function steer.match_velocity(desc) end

---Turn toward a target without moving (orientation only).
---@param desc? steer.FaceDesc
---@return steer.Behavior
function steer.face(desc) end

---Turn toward the direction of motion (orientation only).
---@param desc? steer.LookWhereGoingDesc
---@return steer.Behavior
function steer.look_where_going(desc) end
