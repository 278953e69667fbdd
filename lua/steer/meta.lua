-- SPDX-License-Identifier: MIT
-- meta.lua — LuaLS type annotations for `require "steer"` (the C module
-- steer.so). Never executed: it only tells the language server the names,
-- types, defaults and units of the Lua API as the bindings implement it
-- today (src/lua/*.c and the field tables in src/behaviors/, src/combine/).
-- Names of the contract (API.md) that are not implemented yet are not
-- annotated here; docs/api.md lists them as planned.
-- Units: metres, seconds, radians, kilograms, newtons.

---@meta steer

---A vector: a `steer.Vec`, or a table `{x, y [, z]}` (or `{x = , y = [, z = ]}`).
---Components must be finite; a missing z is 0.
---@alias steer.VecLike steer.Vec|number[]

---What a behaviour steers relative to: a point, a live agent, or nil for the
---agent's own `agent.target` slot (so one brain serves many agents).
---@alias steer.Target steer.VecLike|steer.Agent|nil

---The braking curve of `steer.arrive`: f(x) with x = distance / slow_radius
---in [0, 1) and the result clamped to [0, 1]. A function is the slow path:
---one Lua call per braking agent per tick.
---@alias steer.Ease "linear"|"smooth"|fun(f: number): number

---@alias steer.WanderVariant "circle"|"turn"

---Events `w:on` accepts. "lost_target" is accepted but not raised yet.
---@alias steer.Event "arrive"|"lost_target"

---An entry of `steer.blend`: `{behaviour, weight}` or a bare behaviour (weight 1).
---@alias steer.BlendEntry {[1]: steer.Behavior, [2]: number}|steer.Behavior

-- ---- steer.Vec ---------------------------------------------------------------

---An immutable 2D/3D vector value (userdata). Every operation allocates a
---new one (~a few hundred ns); hot script code should use `agent:xy()`.
---Either operand of `+ - dot cross dist` may be a table `{x, y [, z]}`.
---`==` compares two vectors component-wise (a table never equals a vector:
---Lua calls `__eq` only for two userdata). `tostring(v)` gives "vec(x, y)"
---or "vec(x, y, z)" when z ~= 0. `#v` is the length; `v / 0` raises.
---Assigning a field raises.
---@class steer.Vec
---@field x number read-only
---@field y number read-only
---@field z number read-only; 0 in 2D
---@operator add(steer.VecLike): steer.Vec
---@operator sub(steer.VecLike): steer.Vec
---@operator mul(number): steer.Vec
---@operator div(number): steer.Vec
---@operator unm: steer.Vec
---@operator len: number
local Vec = {}

---Length |v|.
---@return number
function Vec:len() end

---Squared length |v|² (no square root).
---@return number
function Vec:len2() end

---Unit vector in the same direction; the zero vector stays zero (never NaN).
---@return steer.Vec
function Vec:normalized() end

---Dot product.
---@param b steer.VecLike
---@return number
function Vec:dot(b) end

---Cross product (3D; for 2D vectors only z of the result is non-zero).
---@param b steer.VecLike
---@return steer.Vec
function Vec:cross(b) end

---Distance |v - b|.
---@param b steer.VecLike
---@return number
function Vec:dist(b) end

---The vector with its length limited to `max` (>= 0); shorter ones unchanged.
---@param max number
---@return steer.Vec
function Vec:truncated(max) end

---The three components as plain numbers (z is 0 in 2D).
---@return number x
---@return number y
---@return number z
function Vec:unpack() end

-- ---- steer.World -------------------------------------------------------------

---Arguments of `steer.world{...}`. Unknown fields raise.
---@class steer.WorldDesc
---@field dim? 2|3 dimensions; default 2
---@field size? steer.VecLike extent of the world in metres per axis, each >= 0 (0 = unbounded axis); default {0, 0, 0}. Without wrap, agents may leave it.
---@field origin? steer.VecLike lower corner of the world in metres; default {0, 0, 0}
---@field wrap? boolean toroidal world: positions wrap and distances use the nearest image; needs every size > 0; default false
---@field seed? integer seed of the world's random stream (agents' streams derive from it at spawn); default 0
---@field dt? number fixed tick length in seconds, 0 < dt <= 1; default 1/60 (stored as a 32-bit float)
---@field record? boolean record each brain node's output for `agent:contributions()`; default true

---A simulation world (userdata). Fields are read-only except `record`;
---assigning any other field raises.
---@class steer.World
---@field tick integer ticks stepped so far (read-only)
---@field time number simulated seconds, tick * dt (read-only)
---@field dt number tick length in seconds (read-only)
---@field dim integer 2 or 3 (read-only)
---@field seed integer the seed the world was made with (read-only; 0 reads as 1)
---@field count integer live agents (read-only)
---@field record boolean whether per-node outputs are recorded (writable; default true)
local World = {}

---Advance `n` fixed ticks (default 1; an integer >= 0). After each tick the
---tick's events go to the handlers set with `w:on`. A Lua `ease` or `think`
---function that fails makes step raise after the tick that failed has
---finished; an event handler's error propagates at once.
---@param n? integer
---@return steer.World self
function World:step(n) end

---Arguments of `w:spawn{...}`. Unknown fields raise; every field is checked
---before the world changes.
---@class steer.SpawnDesc
---@field position? steer.VecLike metres; default {0, 0[, 0]}
---@field velocity? steer.VecLike metres per second; default zero. The heading starts along it (+x when zero). Not clamped to max_speed until the first tick.
---@field mass? number kilograms, > 0; default 1
---@field max_speed? number metres per second, >= 0; default 1
---@field max_force? number newtons, >= 0; default 1
---@field radius? number body radius in metres, >= 0; default 0.5 (stored; nothing collides yet)
---@field brain? steer.Behavior behaviour or combiner tree that steers the agent; default nil (no force)
---@field tag? string group name for `w:agents(tag)`, `w:neighbors(..., tag)` and flocking `tag` fields; default nil
---@field model? "point" vehicle model; "point" is the only one so far
---@field target? steer.Target initial `agent.target` (a vector or a live agent); default nil
---@field data? table initial `agent.data`
---@field think? fun(agent: steer.Agent, dt: number) Lua called `think_hz` times per second after a tick (first call after a random fraction of the period); may spawn, remove and query. default nil
---@field think_hz? number calls per second of `think`, > 0 and <= 1e6; default 10 (ignored without `think`)

---Create an agent and return its handle.
---@param desc steer.SpawnDesc
---@return steer.Agent
function World:spawn(desc) end

---Iterator over the live agents (only those with `tag` when given), over a
---snapshot taken when the loop starts: agents removed during the loop are
---skipped, agents spawned during it are not visited. Order is unspecified
---but deterministic.
---@param tag? string
---@return fun(): steer.Agent?
function World:agents(tag) end

---Agents strictly within `radius` metres of `position` (only those with
---`tag` when given), nearest first; an agent standing at `position` is
---included. Allocates a new table per call.
---@param position steer.VecLike
---@param radius number metres, >= 0
---@param tag? string
---@return steer.Agent[]
function World:neighbors(position, radius, tag) end

---Digest of the whole simulation state as 16 hex digits: the same seed, the
---same build and the same calls give the same hash. `agent.data`, handlers
---and recorded outputs are not part of it.
---@return string
function World:hash() end

---Set (or with nil clear) the handler of an event. "arrive" is raised once
---per arrival when an arrive behaviour brings the agent inside its
---stop_radius; handlers run after the tick, inside `w:step`.
---@param event steer.Event
---@param handler fun(agent: steer.Agent, other?: steer.Agent)|nil
---@return steer.World self
function World:on(event, handler) end

---Heap memory of the world in bytes, and the part of it that is per-agent
---behaviour memory and recorded outputs.
---@return integer world_bytes
---@return integer brain_bytes
function World:bytes() end

-- ---- steer.Agent -------------------------------------------------------------

---An agent handle (userdata). One agent is always the same Lua value.
---Once the agent is removed every use raises ("stale handle"), except
---`a.alive` and `a.id`. Reading an unknown field gives nil; assigning an
---unknown or read-only field raises.
---@class steer.Agent
---@field id integer unique handle number (generation and slot); read-only, valid after removal
---@field position steer.Vec metres; writable (wrapped into the world when it wraps)
---@field velocity steer.Vec metres per second; writable (a non-zero velocity also turns the heading)
---@field heading steer.Vec unit forward direction; writable (normalized; zero raises)
---@field speed number |velocity| in metres per second; read-only
---@field tag string|nil group name; writable
---@field alive boolean false once removed; read-only, never raises
---@field brain steer.Behavior|nil the steering tree; writable (nil = no force)
---@field max_speed number metres per second, >= 0; writable
---@field max_force number newtons, >= 0; writable
---@field radius number metres, >= 0; writable
---@field mass number kilograms, > 0; writable
---@field target steer.Vec|steer.Agent|nil the slot behaviours read when their own target is nil; writable (a vector, a live agent other than itself, or nil)
---@field data table the script's own per-agent table: created on first read, writable, dropped on removal
---@field think fun(agent: steer.Agent, dt: number)|nil Lua function called think_hz times per second after a tick; writable (nil stops it)
---@field think_hz number calls per second of `think`, 0 when it has none; writable (> 0, <= 1e6)
local Agent = {}

---Position as plain numbers: x, y in 2D; x, y, z in 3D. The fast path: no
---userdata is allocated.
---@return number x
---@return number y
---@return number? z
function Agent:xy() end

---Velocity as plain numbers (m/s): x, y in 2D; x, y, z in 3D.
---@return number vx
---@return number vy
---@return number? vz
function Agent:vxy() end

---The brain's output of the last tick in newtons, before truncation to
---max_force.
---@return steer.Vec
function Agent:force() end

---Remove the agent. Its handle goes stale and its `data` is dropped.
function Agent:remove() end

---Each node's output of the last tick, by node name (the `name` given to
---the behaviour, else its kind; repeated names get "#2", "#3"). Empty when
---the world does not record.
---@return table<string, steer.Vec>
function Agent:contributions() end

-- ---- steer.Behavior ----------------------------------------------------------

---A behaviour or combiner (userdata). Immutable once built; one value may
---be the brain of any number of agents, and the child of any number of
---combiners. `tostring(b)` gives "steer.KIND(NAME)".
---@class steer.Behavior
---@field kind string the constructor's name: "seek", "arrive", "blend", ... (read-only)
---@field name string the `name` it was given, else its kind (read-only)

---Fields every behaviour and combiner takes.
---@class steer.BehaviorDesc
---@field name? string shown in `agent:contributions()`; default the kind ("seek", ...)

---`steer.seek`: desired velocity toward the target at full speed.
---@class steer.SeekDesc: steer.BehaviorDesc
---@field target? steer.Target point or agent to reach; default nil (the agent's `target`)
---@field speed? number desired speed in m/s, >= 0; default 0 (= the agent's max_speed; larger values are capped to it)

---`steer.flee`: desired velocity away from the target at full speed.
---@class steer.FleeDesc: steer.BehaviorDesc
---@field target? steer.Target point or agent to flee; default nil (the agent's `target`)
---@field panic_radius? number metres, >= 0: flee only while closer than this; default 0 (flee at any distance)
---@field speed? number desired speed in m/s, >= 0; default 0 (= max_speed)

---`steer.pursue`: seek where a moving target will be in
---T = min(distance / max_speed, max_prediction) seconds.
---@class steer.PursueDesc: steer.BehaviorDesc
---@field target? steer.Target agent (or point: then like seek) to chase; default nil (the agent's `target`)
---@field max_prediction? number seconds, >= 0: the longest look-ahead; default 1
---@field speed? number desired speed in m/s, >= 0; default 0 (= max_speed)

---`steer.evade`: flee from where a moving target will be in
---T = min(distance / max_speed, max_prediction) seconds.
---@class steer.EvadeDesc: steer.BehaviorDesc
---@field target? steer.Target agent (or point) to evade; default nil (the agent's `target`)
---@field max_prediction? number seconds, >= 0; default 1
---@field panic_radius? number metres, >= 0: evade only while the target is closer than this; default 0 (any distance)
---@field speed? number desired speed in m/s, >= 0; default 0 (= max_speed)

---`steer.arrive`: seek that brakes inside slow_radius and stands still
---inside stop_radius (raising the "arrive" event once per arrival).
---@class steer.ArriveDesc: steer.BehaviorDesc
---@field target? steer.Target point or agent to reach; default nil (the agent's `target`)
---@field slow_radius? number metres, > 0: braking starts here; default 5
---@field stop_radius? number metres, >= 0 and < slow_radius: desired velocity is zero inside; default 0.1
---@field speed? number cruise speed in m/s, >= 0; default 0 (= max_speed)
---@field ease? steer.Ease braking curve: speed = cruise * ease(distance / slow_radius); default "linear"

---`steer.wander`: random steering drawn from the agent's own random stream.
---@class steer.WanderDesc: steer.BehaviorDesc
---@field variant? steer.WanderVariant "circle" (Reynolds' jittered circle) or "turn" (random turn rate); default "circle"
---@field distance? number circle: metres ahead of the agent the circle sits, >= 0; default 5
---@field radius? number circle: circle radius in metres, > 0; default 1
---@field jitter? number circle: metres per second the point may move on each axis, >= 0; default 5
---@field max_turn_rate? number turn: radians per second, >= 0; default 1
---@field max_turn_change? number turn: radians per second per second, >= 0; default 2
---@field speed? number turn: cruise speed in m/s, >= 0; default 0 (= max_speed)

---Fields of `steer.separation`, `steer.alignment` and `steer.cohesion`.
---@class steer.FlockDesc: steer.BehaviorDesc
---@field radius? number metres, > 0: neighbours strictly closer count; default 5
---@field tag? string only neighbours with this tag count; default nil (all)

---`steer.separation`: push away from neighbours, -offset/distance² each.
---@class steer.SeparationDesc: steer.FlockDesc

---`steer.alignment`: mean neighbour heading minus own heading.
---@class steer.AlignmentDesc: steer.FlockDesc

---`steer.cohesion`: seek the centre of the neighbours.
---@class steer.CohesionDesc: steer.FlockDesc

---`steer.blend{ {b1, w1}, {b2, w2}, ..., name = }`: at least one entry, at
---most 64; weights are finite numbers (negative allowed).
---@class steer.BlendDesc: steer.BehaviorDesc
---@field [integer] steer.BlendEntry

---`steer.priority{ b1, b2, ..., epsilon = , name = }`: at least one child,
---at most 64.
---@class steer.PriorityDesc: steer.BehaviorDesc
---@field [integer] steer.Behavior
---@field epsilon? number newtons, >= 0: a child wins when its force is longer than this; default 1e-3

-- ---- the module --------------------------------------------------------------

---@class steer
local steer = {}

---The module's version, e.g. "0.1.0".
---@type string
steer.version = "0.1.0"

---A new vector. `steer.vec(v)` copies a vector or `{x, y [, z]}` table.
---@param x number
---@param y number
---@param z? number default 0
---@return steer.Vec
---@overload fun(v: steer.VecLike): steer.Vec
function steer.vec(x, y, z) end

---A new world; with no argument, every default (2D, unbounded, dt = 1/60).
---@param desc? steer.WorldDesc
---@return steer.World
function steer.world(desc) end

---Names of every behaviour and combiner constructor, in registration order.
---@return string[]
function steer.kinds() end

---Steer toward the target at full (or `speed`) speed.
---@param desc steer.SeekDesc
---@return steer.Behavior
function steer.seek(desc) end

---Steer away from the target, optionally only inside `panic_radius`.
---@param desc steer.FleeDesc
---@return steer.Behavior
function steer.flee(desc) end

---Seek the target's predicted position.
---@param desc steer.PursueDesc
---@return steer.Behavior
function steer.pursue(desc) end

---Flee the target's predicted position.
---@param desc steer.EvadeDesc
---@return steer.Behavior
function steer.evade(desc) end

---Seek, braking to a stop at the target.
---@param desc steer.ArriveDesc
---@return steer.Behavior
function steer.arrive(desc) end

---Random, smooth steering.
---@param desc steer.WanderDesc
---@return steer.Behavior
function steer.wander(desc) end

---Keep apart from neighbours.
---@param desc steer.SeparationDesc
---@return steer.Behavior
function steer.separation(desc) end

---Turn toward the neighbours' mean heading.
---@param desc steer.AlignmentDesc
---@return steer.Behavior
function steer.alignment(desc) end

---Move toward the neighbours' centre.
---@param desc steer.CohesionDesc
---@return steer.Behavior
function steer.cohesion(desc) end

---Weighted sum of the children's forces, truncated to the agent's max_force.
---@param desc steer.BlendDesc
---@return steer.Behavior
function steer.blend(desc) end

---The first child (in order) whose force is longer than epsilon, unchanged;
---later children are not evaluated; zero when none wins.
---@param desc steer.PriorityDesc
---@return steer.Behavior
function steer.priority(desc) end

return steer
