-- SPDX-License-Identifier: MIT
-- parts/combine.lua — LuaLS annotations for the combiners truncated_sum,
-- dither, priority (with hysteresis) and pipeline, and the pipeline's parts
-- (src/combine/), to be merged into meta.lua. Never executed.
-- Units: metres, seconds, newtons.

---@meta steer

---An entry of `steer.truncated_sum`: `{behaviour, weight}` or a bare
---behaviour (weight 1). Weights are finite numbers (negative allowed).
---@alias steer.SumEntry {[1]: steer.Behavior, [2]: number}|steer.Behavior

---An entry of `steer.dither`: `{behaviour, p}` or a bare behaviour (p = 1).
---p is the probability the child is tried each tick: <= 0 never, >= 1 always.
---@alias steer.DitherEntry {[1]: steer.Behavior, [2]: number}|steer.Behavior

---`steer.truncated_sum{ {b1, w1}, ..., name = }`: at least one entry, at
---most 64.
---@class steer.TruncatedSumDesc: steer.BehaviorDesc
---@field [integer] steer.SumEntry

---`steer.dither{ {b1, p1}, ..., epsilon = , name = }`: at least one entry,
---at most 64.
---@class steer.DitherDesc: steer.BehaviorDesc
---@field [integer] steer.DitherEntry
---@field epsilon? number newtons, >= 0: a tried child wins when its force is longer than this; default 1e-3

---`steer.priority{ b1, b2, ..., epsilon = , margin = , hold = , name = }`:
---at least one child, at most 64. margin = 0 and hold = 0 is the plain
---priority.
---@class steer.PriorityDesc: steer.BehaviorDesc
---@field [integer] steer.Behavior
---@field epsilon? number newtons, >= 0: a child is a candidate when its force is longer than this; default 1e-3
---@field margin? number a factor, >= 0: a challenger takes over from a winner that still asks only when its force is longer than margin times the winner's; default 0
---@field hold? number seconds, >= 0: a new winner keeps winning at least this long (at most one switch per hold); default 0

---Targeters of a pipeline: they set the goal's channels.
---@alias steer.Targeter steer.Behavior a `steer.target_position` or `steer.target_velocity`

---Decomposers of a pipeline: they replace the goal position by a sub-goal.
---@alias steer.Decomposer steer.Behavior a `steer.decompose_path`

---Constraints of a pipeline: they bend the route round the world's shapes.
---@alias steer.Constraint steer.Behavior a `steer.avoid_obstacle_constraint` or `steer.wall_constraint`

---`steer.pipeline{ targeters = , decomposers = , constraints = , actuator = , fallback = , passes = , name = }`.
---Each list field also takes a single behaviour.
---@class steer.PipelineDesc: steer.BehaviorDesc
---@field targeters? steer.Targeter[]|steer.Targeter run in order; a channel set by an earlier one is kept; default none: the goal is the agent's own `a.target`
---@field decomposers? steer.Decomposer[]|steer.Decomposer run in order after the targeters; default none
---@field constraints? steer.Constraint[]|steer.Constraint checked in order every pass; default none (the straight route is accepted)
---@field actuator? steer.Behavior one behaviour; a nil target in it reads the route's first point; default: built-in (full speed to via points, braking within the stopping distance at the goal, or tracking a velocity goal)
---@field fallback? steer.Behavior one behaviour, run when the route is blocked or the passes run out; a nil target in it reads the goal before the constraints; default: brake
---@field passes? integer 1..16: constraint rounds (a route gains at most passes - 1 via points); default 4

---`steer.target_position`: the goal position.
---@class steer.TargetPositionDesc: steer.BehaviorDesc
---@field target? steer.Target a point, an agent (also its velocity, as the goal point's motion) or nil (the agent's own `a.target`, or an enclosing pipeline's route); default nil

---`steer.target_velocity`: the goal velocity.
---@class steer.TargetVelocityDesc: steer.BehaviorDesc
---@field velocity? steer.VecLike m/s; default {0, 0, 0} (stand still)

---`steer.decompose_path`: reach the goal by way of waypoints.
---@class steer.DecomposePathDesc: steer.BehaviorDesc
---@field path steer.VecLike[] required: at least 1 finite point, visited in order before the goal
---@field radius? number metres, > 0: a waypoint counts as reached inside this; default 1

---`steer.avoid_obstacle_constraint` / `steer.wall_constraint`.
---@class steer.ConstraintDesc: steer.BehaviorDesc
---@field margin? number metres, >= 0: clearance kept beyond the agent's radius; default 0.5

---The weighted truncated running sum: children in order spend the
---max_force budget; the one that overshoots is scaled so the sum lands on
---max_force, and the children after it are not evaluated. Never exceeds
---max_force.
---@param desc steer.TruncatedSumDesc
---@return steer.Behavior
function steer.truncated_sum(desc) end

---Prioritised dithering: each child in order is tried with its probability
---(drawn from the agent's own stream: deterministic per seed); the first
---tried child whose force exceeds epsilon wins; zero when none does.
---@param desc steer.DitherDesc
---@return steer.Behavior
function steer.dither(desc) end

---The first child (in order) whose force is longer than epsilon, unchanged;
---later children are not evaluated; zero when none wins. With margin or
---hold, a winner is replaced only after `hold` seconds, and only when it has
---gone quiet or the challenger is margin times stronger.
---@param desc steer.PriorityDesc
---@return steer.Behavior
function steer.priority(desc) end

---Millington's steering pipeline: targeters set a goal, decomposers a
---sub-goal, constraints bend the route round walls and obstacles (at most
---`passes` rounds), the actuator steers along it, and the fallback runs when
---no route is found. Raises, naming the field, on a part of the wrong kind,
---two actuators or fallbacks, or a bad `passes`.
---@param desc steer.PipelineDesc
---@return steer.Behavior
function steer.pipeline(desc) end

---Pipeline targeter: the goal position is the target.
---@param desc? steer.TargetPositionDesc
---@return steer.Behavior
function steer.target_position(desc) end

---Pipeline targeter: the goal velocity.
---@param desc? steer.TargetVelocityDesc
---@return steer.Behavior
function steer.target_velocity(desc) end

---Pipeline decomposer: the sub-goal is the first waypoint not yet reached
---(a per-agent cursor that only moves forward), then the goal.
---@param desc steer.DecomposePathDesc
---@return steer.Behavior
function steer.decompose_path(desc) end

---Pipeline constraint for circles (spheres in 3D): keeps the route
---`radius + margin` from them, adding via points round them.
---@param desc? steer.ConstraintDesc
---@return steer.Behavior
function steer.avoid_obstacle_constraint(desc) end

---Pipeline constraint for wall segments and boxes (and planes in 3D, which
---block a route that crosses them): keeps the route `radius + margin` from
---them, adding via points round their ends and corners.
---@param desc? steer.ConstraintDesc
---@return steer.Behavior
function steer.wall_constraint(desc) end
