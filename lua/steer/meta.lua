-- SPDX-License-Identifier: MIT
-- meta.lua — LuaLS type annotations for `require "steer"` (the C module
-- steer.so). Never executed: it only tells the language server the names,
-- types, defaults and units of the Lua API as the bindings implement it
-- today (src/lua/*.c and the field tables in src/behaviors/, src/combine/);
-- docs/api.md is the reference they follow. Only built names are annotated.
-- Units: metres, seconds, radians, kilograms, newtons.
-- Number ranges (docs/api.md, "Number ranges"): "> 0" means 1e-6 to 1e30;
-- ">= 0" means 0, or 1e-6 to 1e30 (nothing in between: a float would make
-- 1e-300 into 0, which often means "the default"); another upper bound
-- replaces 1e30. Anything else raises, and the message states the range.
-- The ---@field lines of the constructor tables (steer.<Kind>Desc) are
-- written from the kinds' field tables by tools/gen_meta.c: run
-- `ninja -C build meta` after changing a field; only a note after " -- " on
-- such a line is hand-written (the test meta_annotations checks the rest).

---@meta steer

---A vector: a `steer.Vec`, or a table `{x, y [, z]}` (or `{x = , y = [, z = ]}`).
---Components must be finite; a missing z is 0.
---@alias steer.VecLike steer.Vec|number[]

---What a behaviour steers relative to: a point, a live agent, or nil for the
---agent's own `agent.target` slot (so one brain serves many agents).
---@alias steer.Target steer.VecLike|steer.Agent|nil

---Events `w:on` accepts. "lost_target": the agent's own `a.target` agent was
---removed; raised once, when the agent's brain next reads the slot (a
---behaviour with no `target` of its own), so never for an agent whose brain
---does not read it.
---"path_found" (agent) and "unreachable" (agent, reason): `steer.navigate`'s plans.
---"link" (agent, link): `steer.navigate` reached an off-mesh link's start (call `agent:hold_link()` to move it yourself).
---@alias steer.Event "arrive"|"lost_target"|"collide"|"stuck"|"path_found"|"unreachable"|"link"

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
---@field size? steer.VecLike extent of the world in metres per axis, each 0 (unbounded axis) or at least 1e-6; default {0, 0, 0}. Without wrap, agents may leave it.
---@field origin? steer.VecLike lower corner of the world in metres; default {0, 0, 0}
---@field wrap? boolean toroidal world: positions wrap and distances use the nearest image; needs every size > 0; default false
---@field seed? integer seed of the world's random stream (agents' streams derive from it at spawn); default 1 (0 is taken as 1)
---@field dt? number fixed tick length in seconds, 1e-6 <= dt <= 1; default 1/60 (stored as a 32-bit float)
---@field record? boolean record each brain node's output for `agent:contributions()`; default true
---@field collide? boolean|{iterations?: integer} hard non-penetration after locomotion: agents are pushed out of shapes and apart, in `iterations` (1-64, default 2) relaxation passes; "collide" events mark each new contact; default false
---@field stuck? {window?: number, progress?: number} emit "stuck" when an agent that pushes gains less than `progress` metres (default 0.5) toward its goal over `window` seconds (default 2); default off
---@field path_budget? integer path search work per tick shared by every `steer.navigate` agent (triangles expanded, >= 1); default 4096
---@field threads? integer worker threads for the tick, 1-64 (more than the machine's cores is allowed); the trajectory is the same bits for any count; default 1 (or the STEER_THREADS environment variable, or the host's choice: `steer run --threads N`)

---A simulation world (userdata). Fields are read-only except `record`,
---`threads` and `path_budget`; assigning any other field raises.
---@class steer.World
---@field tick integer ticks stepped so far (read-only)
---@field time number simulated seconds, tick * dt (read-only)
---@field dt number tick length in seconds (read-only)
---@field dim integer 2 or 3 (read-only)
---@field seed integer the seed the world was made with (read-only; 0 reads as 1)
---@field count integer live agents (read-only)
---@field record boolean whether per-node outputs are recorded (writable; default true)
---@field threads integer worker threads for the tick, 1-64 (writable between ticks, not from a custom behaviour or ease function; the trajectory is the same for any count; not saved: w:restore keeps it)
---@field path_budget integer path search work per tick shared by every `steer.navigate` agent (writable between ticks, an integer >= 1; saved in snapshots)
---@field mouse steer.Vec? in the viewer: the world point under the pointer (3D: on the ground z = 0); nil when none (read-only)
local World = {}

---Advance `n` fixed ticks (default 1; an integer >= 0). After each tick the
---tick's events go to the handlers set with `w:on`. A Lua `ease` or `think`
---function that fails makes step raise after the tick that failed has
---finished; an event handler's error propagates at once.
---@param n? integer
---@return steer.World self
function World:step(n) end

---The spawn fields that describe the body rather than one agent's state:
---`w:spawn` takes them, and an archetype's `vehicle` holds them.
---@class steer.VehicleDesc
---@field mass? number kilograms, 1e-6 to 1e30; default 1
---@field max_speed? number metres per second, 0 or 1e-6 to 1e30; default 1
---@field max_force? number newtons, 0 or 1e-6 to 1e30; default 1
---@field radius? number body radius in metres, 0 or 1e-6 to 1e30; default 0.5 (used by avoidance, ray casts and the collide pass)
---@field model? "point"|"craft" vehicle model; default "point". "craft": forward-only, turn-limited (needs min_turn_radius)
---@field min_turn_radius? number metres, 1e-6 to 1e30: the tightest turn (a craft flies by it; directed_seek plans with it); default nil
---@field min_speed? number metres per second, 0 or 1e-6 to max_speed; crafts only; default 0
---@field max_turn_accel? number m/s^2, 0 or 1e-6 to 1e30: the radius grows with speed, max(min_turn_radius, v^2 / max_turn_accel); default 0 (constant)

---Arguments of `w:spawn{...}`. Unknown fields raise; every field is checked
---before the world changes. Vehicle numbers have closed ranges (docs/api.md,
---"Number ranges"): the same for spawn, an archetype's vehicle and agent fields.
---@class steer.SpawnDesc: steer.VehicleDesc
---@field position? steer.VecLike metres; default {0, 0[, 0]}
---@field velocity? steer.VecLike metres per second; default zero. The heading starts along it (+x when zero). Not clamped to max_speed until the first tick.
---@field brain? steer.Behavior behaviour or combiner tree that steers the agent; default nil (no force)
---@field tag? string group name for `w:agents(tag)`, `w:neighbors(..., tag)` and flocking `tag` fields; default nil
---@field target? steer.Target initial `agent.target` (a vector or a live agent); default nil
---@field data? table initial `agent.data`
---@field think? fun(agent: steer.Agent, dt: number) Lua called `think_hz` times per second after a tick (first call after a random fraction of the period); may spawn, remove and query. default nil
---@field think_hz? number calls per second of `think`, 1e-6 to 1e6; default 10 (raises without `think`)
---@field kinematic? boolean the game moves it: it sets position and velocity, steer runs no brain and integrates nothing for it, the collide pass does not push it; the others see it (neighbours, avoidance, pursuit). default false

---Create an agent and return its handle. With an archetype first, spawn
---from the newest definition of its name; `fields` override the
---archetype's and stay the agent's own when the archetype is redefined.
---@param desc steer.SpawnDesc
---@return steer.Agent
---@overload fun(self: steer.World, archetype: steer.Archetype, fields?: steer.SpawnDesc): steer.Agent
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
---same build and the same calls give the same hash. Agents, shapes and think
---timers are part of it; `agent.data`, handlers and recorded outputs are not.
---@return string
function World:hash() end

---Set (or with nil clear) the handler of an event. "arrive" is raised once
---per arrival when an arrive behaviour brings the agent inside its
---stop_radius; handlers run after the tick, inside `w:step`.
---@param event steer.Event
---@param handler fun(agent: steer.Agent, other?: steer.Agent)|nil
---@return steer.World self
function World:on(event, handler) end

---A static circle (a sphere in 3D) that avoid_obstacles, hide, ray casts
---and the collide pass see.
---@param desc {position: steer.VecLike, radius: number} radius > 0
---@return integer id
function World:add_obstacle(desc) end

---A static wall segment (2D only; the two ends must differ).
---@param desc {from: steer.VecLike, to: steer.VecLike}
---@return integer id
function World:add_wall(desc) end

---A static plane (3D only; the normal must not be zero).
---@param desc {point: steer.VecLike, normal: steer.VecLike}
---@return integer id
function World:add_plane(desc) end

---A static axis-aligned box (a rectangle in 2D); max above min on every axis.
---@param desc {min: steer.VecLike, max: steer.VecLike}
---@return integer id
function World:add_box(desc) end

---Remove a shape by id (not from inside a custom behaviour); a removed id raises.
---@param id integer
function World:remove_shape(id) end

---@class steer.RayHit
---@field point steer.Vec where the ray hits
---@field normal steer.Vec surface normal facing the ray
---@field distance number metres from the origin
---@field agent? steer.Agent the agent hit, if it was an agent
---@field shape? integer the shape id hit, if it was a shape

---The first shape or agent on the ray within `length` metres, or nil.
---Shapes and agents are found through their grids, not by a scan.
---@param origin steer.VecLike
---@param direction steer.VecLike non-zero
---@param length number metres, >= 0
---@param opts? {agents?: boolean, shapes?: boolean, ignore?: steer.Agent}
---@return steer.RayHit|nil
function World:raycast(origin, direction, length, opts) end

---Heap memory of the world in bytes, and the part of it that is per-agent
---behaviour memory and recorded outputs.
---@return integer world_bytes
---@return integer brain_bytes
function World:bytes() end

---The whole world as one string (a snapshot): the core's state bit for bit,
---each agent's `a.data` (plain data, shared tables and cycles kept, and
---references to the world's agents, behaviour trees, grids and flow fields,
---which load as the loaded world's), which archetype it came from, and its
---think, custom and ease functions by name (an archetype's, or a key path in
---a module table or in `opts.roots`). Event handlers (w:on) and recorded
---outputs are not saved. Raises, naming the agent and the key path, for
---a.data holding a function, thread, other userdata or another world's
---agent, or a function that has no name. See docs/api.md, "Snapshots".
---@param opts? { roots: table<string, table> } tables that name functions, e.g. `{ scenario = t }`
---@return string snapshot
function World:save(opts) end

---The world becomes the snapshot's, in place: a rewind. The same Lua value
---and world (handles taken before the save work again), the snapshot's
---agents, a.data, brains and grids; the event handlers w had stay. A
---snapshot that does not load raises and leaves w as it was; w keeps its
---`threads` (a host setting, not in the snapshot). See docs/api.md, "Snapshots".
---@param snapshot string from w:save
---@param opts? { roots: table<string, table> } as for steer.load
---@return steer.World self
function World:restore(snapshot, opts) end

---The tree of a brain w runs that `tree` is the same as (structure,
---parameters, functions, flow fields), else `tree`: a loaded world's brains
---are copies, and a cache of trees finds them with it. See docs/api.md, "Snapshots".
---@param tree steer.Behavior
---@return steer.Behavior
function World:same_brain(tree) end

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
---@field up steer.Vec unit up direction, perpendicular to heading; read-only (point-mass agents derive it from the world's +z)
---@field speed number |velocity| in metres per second; read-only
---@field world steer.World the world the agent lives in; read-only
---@field tag string|nil group name; writable
---@field alive boolean false once removed; read-only, never raises
---@field brain steer.Behavior|nil the steering tree; writable (nil = no force)
---@field max_speed number metres per second, 0 or 1e-6 to 1e30; writable
---@field max_force number newtons, 0 or 1e-6 to 1e30; writable
---@field radius number metres, 0 or 1e-6 to 1e30; writable
---@field mass number kilograms, 1e-6 to 1e30; writable
---@field kinematic boolean the game moves it (sets position and velocity each tick); steer runs no brain, integrates nothing and pushes nothing for it, the others still see it; writable
---@field target steer.Vec|steer.Agent|nil the slot behaviours read when their own target is nil; writable (a vector, a live agent other than itself, or nil)
---@field data table the script's own per-agent table: created on first read, writable, dropped on removal
---@field think fun(agent: steer.Agent, dt: number)|nil Lua function called think_hz times per second after a tick; writable (nil stops it)
---@field think_hz number calls per second of `think`, 0 when it has none; writable (1e-6 to 1e6)
---@field model "point"|"craft" vehicle model; writable ("craft" needs min_turn_radius first)
---@field min_turn_radius number|nil metres, 1e-6 to 1e30, or nil (no turn limit); writable (a craft cannot drop it)
---@field min_speed number metres per second a craft never goes below, 0 or 1e-6 to max_speed (0 for a point mass); writable (crafts only)
---@field max_turn_accel number m/s^2, 0 or 1e-6 to 1e30; > 0 makes the radius grow with speed; writable (needs min_turn_radius)
---@field turn_radius number|nil the turn radius at the current speed, nil without turn limits; read-only
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

---The corridor of the agent's `steer.navigate`, for drawing: its position,
---the corners kept ahead and, when those stop short of the goal, a plan on
---from the last one. nil without a `navigate` or a plan.
---@return steer.Vec[]?
function Agent:path() end

---Inside a "link" event: the script takes over the crossing. The agent stops and stands until the script puts it
---within its radius of the link's far end (`a.position = link.to`). Raises anywhere else.
function Agent:hold_link() end

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
---@field target? steer.Target a vector, an agent or nil (the agent's own target); default nil -- point or agent to reach
---@field speed? number 0 or a number >= 1e-6 and <= 1e30 (0 = the agent's max_speed); default 0 -- desired speed in m/s; larger values are capped to max_speed

---`steer.flee`: desired velocity away from the target at full speed.
---@class steer.FleeDesc: steer.BehaviorDesc
---@field target? steer.Target a vector, an agent or nil (the agent's own target); default nil -- point or agent to flee
---@field panic_radius? number 0 or a number >= 1e-6 and <= 1e30 (0 = flee at any distance); default 0 -- metres: flee only while closer than this
---@field speed? number 0 or a number >= 1e-6 and <= 1e30 (0 = the agent's max_speed); default 0 -- desired speed in m/s

---`steer.pursue`: seek where a moving target will be in
---T = min(distance / max_speed, max_prediction) seconds.
---@class steer.PursueDesc: steer.BehaviorDesc
---@field target? steer.Target a vector, an agent or nil (the agent's own target); default nil -- agent (or point: then like seek) to chase
---@field max_prediction? number 0 or a number of seconds >= 1e-6 and <= 1e30; default 1 -- the longest look-ahead
---@field speed? number 0 or a number >= 1e-6 and <= 1e30 (0 = the agent's max_speed); default 0 -- desired speed in m/s

---`steer.evade`: flee from where a moving target will be in
---T = min(distance / max_speed, max_prediction) seconds.
---@class steer.EvadeDesc: steer.BehaviorDesc
---@field target? steer.Target a vector, an agent or nil (the agent's own target); default nil -- agent (or point) to evade
---@field max_prediction? number 0 or a number of seconds >= 1e-6 and <= 1e30; default 1
---@field panic_radius? number 0 or a number >= 1e-6 and <= 1e30 (0 = flee at any distance); default 0 -- metres: evade only while the target is closer than this
---@field speed? number 0 or a number >= 1e-6 and <= 1e30 (0 = the agent's max_speed); default 0 -- desired speed in m/s

---`steer.arrive`: seek that brakes inside slow_radius and stands still
---inside stop_radius (raising the "arrive" event once per arrival).
---@class steer.ArriveDesc: steer.BehaviorDesc
---@field target? steer.Target a vector, an agent or nil (the agent's own target); default nil -- point or agent to reach
---@field slow_radius? number a number of metres >= 1e-6 and <= 1e30; default 5 -- metres: braking starts here
---@field stop_radius? number 0 or a number >= 1e-6 and <= 1e30 (metres); default 0.1 -- metres, < slow_radius: desired velocity is zero inside
---@field speed? number 0 or a number >= 1e-6 and <= 1e30 (0 = the agent's max_speed); default 0 -- cruise speed in m/s
---@field ease? "linear"|"smooth"|fun(x: number): number default "linear" -- braking curve: speed = cruise * ease(x), x = distance / slow_radius in [0, 1), the result clamped to [0, 1]; a function is the slow path (one Lua call per braking agent per tick)
---@field free_spot? boolean a boolean; default false -- where still agents nearer the goal hold it, arrive where it touches them (a crowd sharing a goal stands still round it)

---`steer.wander`: random steering drawn from the agent's own random stream.
---@class steer.WanderDesc: steer.BehaviorDesc
---@field variant? "circle"|"turn" default "circle" -- "circle" (Reynolds' jittered circle) or "turn" (random turn rate)
---@field distance? number 0 or a number >= 1e-6 and <= 1e30; default 5 -- circle: metres ahead of the agent the circle sits
---@field radius? number a number >= 1e-6 and <= 1e30; default 1 -- circle: circle radius in metres
---@field jitter? number 0 or a number >= 1e-6 and <= 1e30 (metres per second); default 5 -- circle: how far the point may move on each axis
---@field max_turn_rate? number 0 or a number >= 1e-6 and <= 1e30 (radians per second); default 1 -- turn
---@field max_turn_change? number 0 or a number >= 1e-6 and <= 1e30 (radians per second, per second); default 2 -- turn
---@field speed? number 0 or a number >= 1e-6 and <= 1e30 (0 = the agent's max_speed); default 0 -- turn: cruise speed in m/s

---`steer.separation`: push away from neighbours, -offset/distance² each.
---@class steer.SeparationDesc: steer.BehaviorDesc
---@field radius? number a number >= 1e-6 and <= 1e30; default 5 -- metres: neighbours strictly closer count
---@field tag? string a string (only neighbours with this tag) or nil; default nil

---`steer.alignment`: mean neighbour heading minus own heading.
---@class steer.AlignmentDesc: steer.BehaviorDesc
---@field radius? number a number >= 1e-6 and <= 1e30; default 5 -- metres: neighbours strictly closer count
---@field tag? string a string (only neighbours with this tag) or nil; default nil

---`steer.cohesion`: seek the centre of the neighbours.
---@class steer.CohesionDesc: steer.BehaviorDesc
---@field radius? number a number >= 1e-6 and <= 1e30; default 5 -- metres: neighbours strictly closer count
---@field tag? string a string (only neighbours with this tag) or nil; default nil

---`steer.blend{ {b1, w1}, {b2, w2}, ..., name = }`: at least one entry, at
---most 64; weights are finite numbers (negative allowed).
---@class steer.BlendDesc: steer.BehaviorDesc
---@field [integer] steer.BlendEntry

---`steer.priority{ b1, b2, ..., epsilon = , name = }`: at least one child,
---at most 64.
-- ---- the module --------------------------------------------------------------

---@class steer
local steer = {}

---The module's version, e.g. "0.1.0".
---@type string
steer.version = "0.1.0"

---A scenario's own state: `local S = steer.state` at the top of the file,
---filled by setup. The engine (`steer run`, steer_engine_*) keeps this table
---across hot reloads and carries its contents in snapshots (plain data, the
---world's agents by id, vectors), restored in place by --load and rewinds.
---Elsewhere a plain table.
---@type table
steer.state = {}

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

---A new world from a snapshot of w:save. The archetypes and modules whose
---functions the snapshot names must be defined or required first (and the
---same `opts.roots` given); anything that is not an intact snapshot is
---refused with a message saying what is wrong, and no world is made.
---`opts.threads` is the new world's thread count (1-64; snapshots do not
---hold one: default 1, or STEER_THREADS, or the host's choice).
---@param snapshot string
---@param opts? { roots?: table<string, table>, threads?: integer }
---@return steer.World
function steer.load(snapshot, opts) end

---Names of every behaviour and combiner constructor, in registration order.
---@return string[]
function steer.kinds() end

---The next state of the xorshift32 stream (13, 17, 5) that `steer.random`
---draws from, in C so that every Lua (5.1 has no bitwise operators) gives
---the same numbers.
---@param state integer 1 to 2^32 - 1
---@return integer
function steer.xorshift32(state) end

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



---A behaviour written in Lua, called once per agent per tick inside the
---steer pass: the slow path (about 0.3 us per call). `fn(agent, dt)`
---returns the force as plain numbers fx, fy[, fz]. It may read agents but
---not change or query the world.
---@param fn fun(agent: steer.Agent, dt: number): number, number, number?
---@return steer.Behavior
---@overload fun(desc: {[1]: fun(agent: steer.Agent, dt: number): number, number, number?, name?: string}): steer.Behavior
function steer.custom(fn) end

-- ---- paths and patrols ----------------------------------------

---`steer.follow_path`: Reynolds' predictive path following. The agent's
---position `predict` s ahead is projected onto the path, searching forward
---from a per-agent cursor that never moves back. While that prediction is
---inside the corridor of half-width `radius`, only the speed is held.
---Otherwise the agent seeks a point `ahead` m further along the path. An
---open path ends with braking to its last point and one "arrive" event.
---@class steer.FollowPathDesc: steer.BehaviorDesc
---@field path steer.VecLike[] required: a list of at least 2 points -- finite points, repeats allowed; e.g. the result of `g:path(from, to)`
---@field loop? boolean a boolean; default false -- after the last point comes the first (no end, no events)
---@field radius? number 0 or a number >= 1e-6 and <= 1e30 (metres); default 1 -- half-width of the corridor (a tube in 3D); 0 = always aim along the path
---@field predict? number 0 or a number of seconds >= 1e-6 and <= 1e30; default 0.5 -- how far ahead the position is predicted
---@field ahead? number 0 or a number >= 1e-6 and <= 1e30 (metres); default 1 -- how far past the projection the agent aims when it corrects
---@field slow_radius? number 0 or a number >= 1e-6 and <= 1e30 (metres; 0 = automatic); default 0 -- braking distance before an open path's end, measured along the path; automatic: 4 * cruise * max_speed * mass / max_force, no overshoot
---@field stop_radius? number 0 or a number >= 1e-6 and <= 1e30 (metres); default 0.1 -- < slow_radius when that is given: desired velocity zero and "arrive" inside this of the end
---@field speed? number 0 or a number >= 1e-6 and <= 1e30 (0 = the agent's max_speed); default 0 -- cruise speed in m/s
---@field join? "start"|"nearest" default "start" -- where the cursor starts: "start" (the first point) or "nearest" (the nearest point of the whole path when the brain is assigned)

---`steer.patrol`: arrive at each point in turn, raising "arrive" at each
---one and holding still there for `pause` seconds. Order: "loop"
---(1..n, 1..n) or "pingpong" (1..n..1..n). With loop = false, a loop
---patrol stops at its last point and a ping-pong patrol after one round
---trip, back at its first point.
---@class steer.PatrolDesc: steer.BehaviorDesc
---@field points steer.VecLike[] required: a list of at least 2 points -- finite points, repeats allowed (each raises its own event)
---@field loop? boolean a boolean; default true -- repeat forever; false: stop at the last point (loop mode) or after one round trip (ping-pong)
---@field pause? number 0 or a number of seconds >= 1e-6 and <= 1e30; default 0 -- how long the agent holds still at each point
---@field mode? "loop"|"pingpong" default "loop" -- visiting order
---@field slow_radius? number 0 or a number >= 1e-6 and <= 1e30 (metres; 0 = automatic); default 0 -- braking distance; automatic: the shortest without overshoot
---@field stop_radius? number 0 or a number >= 1e-6 and <= 1e30 (metres); default 0.2 -- < slow_radius when that is given: a point counts as reached inside this
---@field speed? number 0 or a number >= 1e-6 and <= 1e30 (0 = the agent's max_speed); default 0 -- cruise speed in m/s

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

-- ---- obstacles, walls, hiding and bounds ----------------------------------------

---`steer.avoid_obstacles`: collision prediction against the world's static
---shapes (circles/spheres, boxes, walls, planes) by the time of closest
---approach, with the shapes grown by the agent's radius + `margin`. Steers
---laterally away from the most imminent threat and keeps the side it chose
---while that threat lasts; escalates (sidestep, then follow the surface)
---when the agent makes no progress.
---@class steer.AvoidObstaclesDesc: steer.BehaviorDesc
---@field lookahead? number a number of seconds >= 1e-6 and <= 1e4; default 1 -- straight-line motion tested
---@field margin? number 0 or a number of metres >= 1e-6 and <= 1e30; default 0.25 -- clearance wanted beyond touching
---@field stuck_window? number 0 or a number of seconds >= 1e-6 and <= 1e4 (0 = never escalate); default 1 -- per progress check; 0 or >= lookahead / 4
---@field stuck_progress? number 0 or a number of metres >= 1e-6 and <= 1e30 (0 = a quarter of what max_speed covers in the window); default 0 -- the agent must gain along the way it meant to go per window while avoiding

---`steer.avoid_walls`: ray whiskers cast against the world's shapes; each
---hit pushes along the hit normal in proportion to the whisker's
---penetration. A wall met head-on or a concave corner makes the agent pick
---a hand and escape along the walls instead of dithering.
---@class steer.AvoidWallsDesc: steer.BehaviorDesc
---@field whiskers? integer a whole number >= 1 and <= 16; default 3 -- number of rays (with an odd count one runs along the heading)
---@field length? number a number of metres >= 1e-6 and <= 1e4; default 3 -- each whisker reaches
---@field spread? number 0 or an angle in radians >= 1e-6 and <= 6.2831853 (2 pi); default 1.5707964 -- the fan's total angle (the default is pi/2); in 3D with 3 or more whiskers: one along the heading, the rest on a cone of half this angle
---@field hold? number 0 or a number of seconds >= 1e-6 and <= 1e4; default 2 -- the corner escape outlives the last whisker touch
---@field escape? boolean a boolean; default true -- the corner trap's escape along the walls; false: the whiskers only push (a formation's members: their slot gives the way)

---`steer.hide`: go to the hiding spot behind the nearest obstacle (circle,
---sphere or box) as seen from the pursuer, braking there; evade the pursuer
---when no obstacle is within `radius`.
---@class steer.HideDesc: steer.BehaviorDesc
---@field target? steer.Target a vector, an agent or nil (the agent's own target); default nil -- the pursuer: an agent (or a point)
---@field radius? number a number of metres >= 1e-6 and <= 1e30; default 20 -- obstacles whose surface is this close to the agent are considered
---@field margin? number 0 or a number of metres >= 1e-6 and <= 1e30; default 1 -- clearance between the obstacle's surface and the agent's body at the spot
---@field slow_radius? number a number of metres >= 1e-6 and <= 1e30; default 2 -- the agent brakes linearly inside this distance of the spot
---@field max_prediction? number 0 or a number of seconds >= 1e-6 and <= 1e30; default 1 -- when evading, the pursuer's position is predicted min(distance / max_speed, this) ahead

---`steer.contain`: stay inside the world's bounds (axes of size 0 are
---unbounded; a wrapped world gives zero), pushing inward when the agent's
---body, now or `lookahead` seconds ahead, comes within `margin` of a bound.
---@class steer.ContainDesc: steer.BehaviorDesc
---@field margin? number 0 or a number of metres >= 1e-6 and <= 1e30; default 2 -- from a bound where the push starts
---@field lookahead? number 0 or a number of seconds >= 1e-6 and <= 1e4; default 0.5 -- of velocity used to predict the position

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

-- ---- other agents and orientation ----------------------------------------

---`steer.avoid_agents`: unaligned collision avoidance between moving
---agents. Neighbours are extrapolated at constant velocity; one whose
---closest approach within `horizon` comes nearer than the two radii plus
---`margin` is a threat. Every threat asks for a sidestep of
---2 * responsibility * gap / time-to-contact, away from its offset at
---closest approach; the sidesteps add up. The most imminent threat, if
---head-on and too close to dodge in time, also makes the agent brake. Two
---agents open (r_a + r_b) of each gap between them.
---@class steer.AvoidAgentsDesc: steer.BehaviorDesc
---@field horizon? number a number of seconds >= 1e-6 and <= 1e6; default 2 -- of constant-velocity prediction
---@field responsibility? number 0 or a number >= 1e-6 and <= 1; default 1 -- share of each gap this agent opens: 0 never yields (zero force), 1 acts as if alone
---@field margin? number 0 or a number of metres >= 1e-6 and <= 1e4; default 0.3 -- clearance kept beyond touching
---@field range? number 0 or a number of metres >= 1e-6 and <= 1e4 (0 = horizon * 6 m/s + 2 m, at most 50 m); default 0 -- neighbours farther than this are not seen
---@field tag? string a string (only agents with this tag) or nil; default nil

---`steer.reciprocal`: optimal reciprocal collision avoidance (ORCA, van
---den Berg et al. 2011) around the agent's goal. The children's weighted
---sum (truncated to max_force) is read through the tracking law as the
---preferred velocity; without children it is the agent's own velocity.
---Each of the nearest `neighbors` within `range` forbids a half-plane of
---velocities (this agent taking `responsibility` of the avoidance), each
---shape within reach in `obstacle_horizon` forbids another that is never
---given up, and a small linear program picks the permitted velocity
---nearest the preferred one. The force reaches it within the step when
---max_force allows. When a neighbour closing in is in the way, the
---preferred velocity first turns `bias` radians right, so crowds swirl
---instead of deadlocking; a still neighbour in the way vetoes the turn.
---With `max_overlap` > 0 (by default 0.2 wherever one step could press a
---pair deeper than that: large steps; 0.3 for such a pair facing each
---other off, 0.45 for one already in contact, deeper than 0.1), two agents that both use it do not step deeper
---into each other than that fraction of the smaller radius (when max_force
---lets them take the velocity chosen); two facing each other off get a cap
---that leans toward sliding past.
---@class steer.ReciprocalDesc: steer.BehaviorDesc
---@field [integer] {[1]: steer.Behavior, [2]: number}|steer.Behavior
---@field horizon? number a number of seconds >= 0.001 and <= 1e4; default 2 -- of constant-velocity prediction against agents
---@field obstacle_horizon? number a number of seconds >= 0.001 and <= 1e4; default 1 -- against shapes (at least one step)
---@field responsibility? number 0 or a number >= 1e-6 and <= 1; default 0.5 -- share of each avoidance this agent takes
---@field margin? number 0 or a number of metres >= 1e-6 and <= 1e4; default 0 -- clearance kept between two agents beyond touching (personal space)
---@field range? number 0 or a number of metres >= 1e-6 and <= 1e4 (0 = horizon * 6 m/s + 2 m, at most 50 m); default 0 -- neighbours farther than this are not seen
---@field neighbors? number 0 or a number of agents >= 1e-6 and <= 48; default 10 -- the nearest this many enter the solve
---@field bias? number 0 or a number of radians >= 1e-6 and <= 1.5 (how far the agent turns right when someone is in its way); default 0.3 -- 0 turns the convention off
---@field tag? string a string (only agents with this tag) or nil; default nil
---@field obstacles? boolean a boolean; default true -- shapes (circles, walls, boxes, planes) enter the solve
---@field max_overlap? number 0 or a number >= 1e-6 and <= 1 (of the smaller radius: how deep two agents may overlap from one step); default -1 -- -1 (the default): 0.2 for the pairs one step can close deeper than that ((max_speed_i + max_speed_j) dt > 0.2 r_min), 0.3 for such a pair facing each other off, 0.45 for such a pair already overlapping by more than 0.1 r_min (whose half-plane the fallback also relaxes more), off for the others, so every run at 60 Hz keeps its bits; 0 is off; a value keeps pressing crowds apart at large steps (hard one-step caps, leaning toward sliding past between agents facing each other off), slower through queues and counter-flows

---`steer.interpose`: get between `a` and `b`. Their midpoint is predicted
---distance / max_speed ahead (at most `max_prediction` when > 0), and the
---agent arrives there with the midpoint's velocity fed forward.
---@class steer.InterposeDesc: steer.BehaviorDesc
---@field a? steer.Target a vector, an agent or nil (the agent's own target); default nil -- first side: an agent or a point
---@field b? steer.Target a vector, an agent or nil (the agent's own target); default nil -- second side: an agent or a point
---@field slow_radius? number a number of metres >= 1e-6 and <= 1e30; default 5 -- metres: inside it the arrive term slows linearly
---@field speed? number 0 or a number >= 1e-6 and <= 1e30 (0 = the agent's max_speed); default 0 -- cruise speed in m/s
---@field max_prediction? number 0 or a number of seconds >= 1e-6 and <= 1e30 (0 = no limit); default 0 -- cap on the prediction time

---`steer.offset_pursuit`: hold a slot in the leader's frame (x forward,
---y left, z up; z ignored in 2D), predicted distance / max_speed ahead,
---arriving there with the leader's velocity fed forward. A point target
---uses the world's axes as its frame.
---@class steer.OffsetPursuitDesc: steer.BehaviorDesc
---@field target? steer.Target a vector, an agent or nil (the agent's own target); default nil -- the leader: an agent (or a point)
---@field offset? steer.VecLike a vector {x, y [, z]} in the leader's frame (x forward, y left, z up); default {0, 0, 0} -- metres
---@field slow_radius? number a number of metres >= 1e-6 and <= 1e30; default 5 -- metres: inside it the arrive term slows linearly
---@field speed? number 0 or a number >= 1e-6 and <= 1e30 (0 = the agent's max_speed); default 0 -- cruise speed in m/s
---@field max_prediction? number 0 or a number of seconds >= 1e-6 and <= 1e30 (0 = no limit); default 0 -- cap on the prediction time

---`steer.match_velocity`: track the target's velocity (capped at
---max_speed); a point target has velocity zero, so the agent stops.
---@class steer.MatchVelocityDesc: steer.BehaviorDesc
---@field target? steer.Target a vector, an agent or nil (the agent's own target); default nil -- an agent (a point has velocity zero: the agent stops)

---`steer.face`: orientation only, zero force. Turn the heading toward the
---target by at most `turn_rate * dt` per tick (in 3D in the plane of the
---two directions); a target exactly behind turns the agent left; standing
---on the target holds the heading.
---@class steer.FaceDesc: steer.BehaviorDesc
---@field target? steer.Target a vector, an agent or nil (the agent's own target); default nil -- what to face
---@field turn_rate? number a number of radians per second >= 1e-6 and <= 1e30; default 6.2831855 -- 2 pi by default

---`steer.look_where_going`: orientation only, zero force. Turn the heading
---toward the velocity by at most `turn_rate * dt` per tick, more slowly
---below 5% of max_speed; at rest the heading is held.
---@class steer.LookWhereGoingDesc: steer.BehaviorDesc
---@field turn_rate? number a number of radians per second >= 1e-6 and <= 1e30; default 6.2831855 -- 2 pi by default

---Avoid other moving agents by predicting their closest approach.
---@param desc? steer.AvoidAgentsDesc
---@return steer.Behavior
function steer.avoid_agents(desc) end

---Avoid other agents and shapes by velocity obstacles (ORCA), around the goal its children steer to.
---@param desc? steer.ReciprocalDesc
---@return steer.Behavior
function steer.reciprocal(desc) end

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

-- ---- more combiners ----------------------------------------

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
---@field epsilon? number 0 or a number >= 1e-6 and <= 1e30; default 0.001 -- newtons: a tried child wins when its force is longer than this

---`steer.priority{ b1, b2, ..., epsilon = , margin = , hold = , name = }`:
---at least one child, at most 64. margin = 0 and hold = 0 is the plain
---priority.
---@class steer.PriorityDesc: steer.BehaviorDesc
---@field [integer] steer.Behavior
---@field epsilon? number 0 or a number >= 1e-6 and <= 1e30; default 0.001 -- newtons: a child is a candidate when its force is longer than this
---@field margin? number 0 or a number >= 1e-6 and <= 1e30 (a challenger must be this many times as strong as the winner); default 0 -- a factor: a challenger takes over from a winner that still asks only when its force is longer than margin times the winner's
---@field hold? number 0 or a number of seconds >= 1e-6 and <= 1e30; default 0 -- a new winner keeps winning at least this long (at most one switch per hold)

---`steer.pipeline{ targeters = , decomposers = , constraints = , actuator = , fallback = , passes = , name = }`.
---Each list field also takes a single behaviour. Targeters set the goal's
---channels; decomposers replace the goal position by a sub-goal; constraints
---bend the route round the world's shapes.
---@class steer.PipelineDesc: steer.BehaviorDesc
---@field targeters? steer.Behavior[]|steer.Behavior a list of targeters (steer.target_position, steer.target_velocity); default none -- run in order; a channel set by an earlier one is kept; none: the goal is the agent's own `a.target`
---@field decomposers? steer.Behavior[]|steer.Behavior a list of decomposers (steer.decompose_path, steer.decompose_flow); default none -- run in order after the targeters
---@field constraints? steer.Behavior[]|steer.Behavior a list of constraints (steer.avoid_obstacle_constraint, steer.wall_constraint); default none -- checked in order every pass; none: the straight route is accepted
---@field actuator? steer.Behavior one behaviour; default none -- a nil target in it reads the route's first point; none: built-in (full speed to via points, braking within the stopping distance at the goal, or tracking a velocity goal)
---@field fallback? steer.Behavior one behaviour; default none -- run when the route is blocked or the passes run out; a nil target in it reads the goal before the constraints; none: brake
---@field passes? integer a whole number >= 1 and <= 16; default 4 -- constraint rounds (a route gains at most passes - 1 via points)

---`steer.context{ interest = , danger = , slots = , threshold = , smoothing = , name = }`.
---Context steering (Fray): each list field also takes a single behaviour,
---and each entry may be {behaviour, weight} (a weight >= 0 scales what the
---child writes into its map).
---@class steer.ContextDesc: steer.BehaviorDesc
---@field interest steer.BlendEntry[]|steer.Behavior required: kinds that write interest (seek, arrive, pursue, flee, evade, wander, follow_flow, navigate, reciprocal), each alone or as {behaviour, weight} -- at least one; each writes its wish over the ring, strongest toward the velocity it asks for
---@field danger? steer.BlendEntry[]|steer.Behavior kinds that write danger (flee, evade, separation, avoid_agents, avoid_walls, avoid_obstacles), each alone or as {behaviour, weight}; default none -- each writes its fear per direction: the threat's cone, or how near a ray meets a shape or agent
---@field slots? integer a whole number of directions >= 4 and <= 64; default 16 -- the ring's directions, slot 0 along +x
---@field threshold? number 0 or a number >= 1e-6 and <= 1 (danger above the lowest that still passes the mask); default 0.05
---@field smoothing? number 0 or a number >= 1e-6 and <= 0.999 (the share of last tick's maps kept, 0 = none); default 0 -- per agent: map = s old + (1 - s) new

---`steer.target_position`: the goal position.
---@class steer.TargetPositionDesc: steer.BehaviorDesc
---@field target? steer.Target a vector, an agent or nil (the agent's own target); default nil -- an agent also gives its velocity, as the goal point's motion; nil: the agent's own `a.target`, or an enclosing pipeline's route

---`steer.target_velocity`: the goal velocity.
---@class steer.TargetVelocityDesc: steer.BehaviorDesc
---@field velocity? steer.VecLike a vector (m/s); default {0, 0, 0} -- the default stands still

---`steer.decompose_path`: reach the goal by way of waypoints.
---@class steer.DecomposePathDesc: steer.BehaviorDesc
---@field path steer.VecLike[] required: a list of at least one point -- finite points, visited in order before the goal
---@field radius? number a number >= 1e-6 and <= 1e30 (metres); default 1 -- a waypoint counts as reached inside this

---`steer.avoid_obstacle_constraint`: keep the route clear of circles and spheres.
---@class steer.AvoidObstacleConstraintDesc: steer.BehaviorDesc
---@field margin? number 0 or a number >= 1e-6 and <= 1e30 (metres of clearance beyond the agent's radius); default 0.5

---`steer.wall_constraint`: keep the route clear of walls, boxes and planes.
---@class steer.WallConstraintDesc: steer.BehaviorDesc
---@field margin? number 0 or a number >= 1e-6 and <= 1e30 (metres of clearance beyond the agent's radius); default 0.5

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

---Context steering (Fray, Game AI Pro 2 ch. 18): the interest children write
---what they want and the danger children what they fear into two maps over
---a ring of `slots` directions; the slots whose danger is within `threshold`
---of the lowest are kept, the kept slot of most interest wins, refined
---between its neighbours; the speed follows the strongest interest, lowered
---by the danger that way. Raises, naming the entry, on a child of a kind
---that cannot write its map.
---@param desc steer.ContextDesc
---@return steer.Behavior
function steer.context(desc) end

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
---@param desc? steer.AvoidObstacleConstraintDesc
---@return steer.Behavior
function steer.avoid_obstacle_constraint(desc) end

---Pipeline constraint for wall segments and boxes (and planes in 3D, which
---block a route that crosses them): keeps the route `radius + margin` from
---them, adding via points round their ends and corners.
---@param desc? steer.WallConstraintDesc
---@return steer.Behavior
function steer.wall_constraint(desc) end

-- ---- archetypes ------------------------------------------------------------

---@class steer.ArchetypeDesc
---@field name string required, non-empty: agents bind to this name
---@field vehicle? steer.VehicleDesc spawn fields of the vehicle, checked as `w:spawn` checks them
---@field brain? steer.Behavior the brain of its agents
---@field think? fun(agent: steer.Agent, dt: number) action selection, called think_hz times per second
---@field think_hz? number calls per second of think, 1e-6 to 1e6 (needs think); default 10
---@field tag? string the tag of its agents; default the name

---A named kind of agent (read-only userdata). Defining the name again
---rebinds every agent of it on the next `w:step`.
---@class steer.Archetype
---@field name string
---@field vehicle table a copy of the vehicle fields
---@field brain steer.Behavior|nil
---@field think fun(agent: steer.Agent, dt: number)|nil
---@field think_hz number|nil
---@field tag string
---@field version integer increases with every definition

---Define (or define again) an archetype; its agents rebind by name.
---@param desc steer.ArchetypeDesc
---@return steer.Archetype
function steer.archetype(desc) end

-- ---- the archetype library (lua/steer/archetypes) -----------------------------

---`require "steer.archetypes.guard"`
---@class steer.archetypes.guard
---@field params {view_range: number, view_angle: number, search_time: number, catch_distance: number, intruder_tag: string, pause: number}
---@field vehicle table
---@field brains table<string, steer.Behavior> pursue, investigate, search
---@field archetype steer.Archetype
local guard = {}
---Spawn a guard on a route; other fields are w:spawn's (position defaults to the first point).
---@param w steer.World
---@param fields steer.SpawnDesc|{route: steer.VecLike[]}
---@return steer.Agent
function guard.spawn(w, fields) end
---Whether `other` is in a's view cone, in range and in line of sight.
---@param w steer.World
---@param a steer.Agent
---@param other steer.Agent
---@return boolean
function guard.sees(w, a, other) end
---The guard's action selection (patrol, pursue, investigate, search).
---@param a steer.Agent
---@param dt number
function guard.think(a, dt) end

---`require "steer.archetypes.boid"`
---@class steer.archetypes.boid
---@field params table
---@field vehicle table
---@field brain steer.Behavior
---@field archetype steer.Archetype

---`require "steer.archetypes.prey"`
---@class steer.archetypes.prey
---@field params {flee_range: number, predator_tag: string, neighbour_radius: number}
---@field vehicle table
---@field brains {herd: steer.Behavior, flee: steer.Behavior}
---@field archetype steer.Archetype
local prey = {}
---Evade the nearest predator in range, else herd.
---@param a steer.Agent
function prey.think(a) end

---`require "steer.archetypes.predator"`
---@class steer.archetypes.predator
---@field params {hunt_range: number, catch_distance: number, chase_time: number, rest_time: number, prey_tag: string}
---@field vehicle table
---@field brains {roam: steer.Behavior, hunt: steer.Behavior}
---@field archetype steer.Archetype
local predator = {}
---Hunt the nearest prey in range, catch it, tire and rest.
---@param a steer.Agent
---@param dt number
function predator.think(a, dt) end

---`require "steer.archetypes.pedestrian"`
---@class steer.archetypes.pedestrian
---@field params {responsibility: number, horizon: number, personal_space: number}
---@field vehicle table
---@field brain steer.Behavior to a.target
---@field archetype steer.Archetype
local pedestrian = {}
---Spawn a pedestrian that walks along a path; other fields are w:spawn's.
---@param w steer.World
---@param fields steer.SpawnDesc|{path: steer.VecLike[]}
---@return steer.Agent
function pedestrian.spawn(w, fields) end

-- ---- debug drawing ------------------------------------------------------------

---A debug-draw list: what a scenario's `draw(d, w)` records, in world
---coordinates, for the viewer to render. A position is `x, y` (2D) or one
---vector (`{x, y [, z]}`, steer.Vec or an agent); `colour` is an optional
---`{r, g, b [, a]}` of 0..255 (light grey when omitted).
---@class steer.Draw
local Draw = {}
---A line from `a` to `b`: `d:line(x1, y1, x2, y2 [, colour])` or `d:line(a, b [, colour])`.
function Draw:line(...) end
---An arrow from `a` to `b`, same arguments as `d:line`.
function Draw:arrow(...) end
---A circle: `d:circle(x, y, r [, colour])` or `d:circle(centre, r [, colour])`.
function Draw:circle(...) end
---A dot: `d:point(x, y [, colour])` or `d:point(p [, colour])`.
function Draw:point(...) end
---Text standing on the point (its lower left corner there): `d:text(x, y, str [, colour])` or `d:text(p, str [, colour])`.
function Draw:text(...) end
---Forget every command.
function Draw:clear() end
---The recorded commands: `{ kind = "line"|"arrow"|"circle"|"point"|"text", a = Vec, b = Vec?, r = number?, text = string?, colour = {r, g, b, a} }`.
---@return table[]
function Draw:commands() end

---A draw list of its own (the viewer hands scenarios one; this one is for
---tests and for hosts that render the commands themselves). `#d` is its length.
---@return steer.Draw
function steer.debug_draw() end

-- ---- navigation ---------------------------------------------------------------

---@class steer.GridDesc
---@field cell? number metres, > 0: the side of a cell; default 1
---@field origin? steer.VecLike the lower left corner; default {0, 0}
---@field map string[] required: equally long lines, '.' open, '#' blocked, '1'-'9' costs; the first line is the top row
---@field costs? number[][]|fun(i: integer, j: integer, char: string): number|false costs per cell (1e-6 to 1e30; math.huge or false blocks), the map's shape

---A navigation grid. Cells are (i, j): column i of line j of the map.
---@class steer.Grid
---@field width integer cells per line (read-only)
---@field height integer lines (read-only)
---@field cell number cell side in metres (read-only)
---@field origin steer.Vec lower left corner (read-only)
local Grid = {}
---Whether the cell at pos is blocked (outside the grid counts as blocked).
---@param pos steer.VecLike
---@return boolean
function Grid:blocked(pos) end
---The cost of cell (i, j); math.huge when blocked.
---@param i integer
---@param j integer
---@return number
function Grid:cost(i, j) end
---Set the cost of cell (i, j) (1e-6 to 1e30; math.huge or false blocks it); rebuilds the grid's fields and walls.
---@param i integer
---@param j integer
---@param cost number|false
function Grid:set(i, j, cost) end
---Block (or with false, open) the cell at a world position: g:block(pos [, blocked]) or g:block(x, y [, blocked]).
---@param pos steer.VecLike|number
---@param blocked? boolean|number
---@param flag? boolean
function Grid:block(pos, blocked, flag) end
---The cell (i, j) at a world position, or nothing outside the grid.
---@param pos steer.VecLike
---@return integer? i
---@return integer? j
function Grid:cell_at(pos) end
---The centre of cell (i, j).
---@param i integer
---@param j integer
---@return steer.Vec
function Grid:center(i, j) end
---Whether the segment a-b touches only open cells.
---@param a steer.VecLike
---@param b steer.VecLike
---@return boolean
function Grid:line_of_sight(a, b) end
---A*, 8-connected, no corner cutting, string-pulled: the route from `from` to `to` and its grid cost, or nil when unreachable.
---@param from steer.VecLike
---@param to steer.VecLike
---@return steer.Vec[]? route
---@return number? cost
function Grid:path(from, to) end
---Run fn; its edits rebuild the grid's fields and walls once, at its end.
---@param fn fun()
function Grid:batch(fn) end
---The boundaries of the blocked cells as merged segments { {a, b}, ... }.
---@return steer.Vec[][]
function Grid:walls() end
---A flow field to `goal` (or the nearest of `goals`).
---@param desc {goal?: steer.VecLike, goals?: steer.VecLike[]}
---@return steer.FlowField
function Grid:flow_field(desc) end

---A flow field: distances to the nearest goal and a direction per cell.
---@class steer.FlowField
---@field grid steer.Grid
---@field goal steer.Vec the first goal (read-only)
---@field touched integer cells the last build or set_goal computed
---@field repaired boolean the last set_goal was a repair, not a rebuild
local FlowField = {}
---Move to a single goal: a small move repairs a window around it, a long one rebuilds.
---@param goal steer.VecLike
function FlowField:set_goal(goal) end
---Several goals (a rebuild).
---@param goals steer.VecLike[]
function FlowField:set_goals(goals) end
---The interpolated unit direction at pos; zero where no goal can be reached.
---@param pos steer.VecLike
---@return steer.Vec
function FlowField:direction(pos) end
---The distance left along the field (cost-weighted metres), or nil where no goal can be reached.
---@param pos steer.VecLike
---@return number?
function FlowField:distance(pos) end

---Build a navigation grid. Raises naming the argument on an empty or ragged map, an unknown character, cell <= 0 or a bad cost.
---@param desc steer.GridDesc
---@return steer.Grid
function steer.grid(desc) end

---`steer.follow_flow`: steer along a flow field, interpolated between cells, braking along it, arriving at the goal point, keeping clear of blocked cells.
---@class steer.FollowFlowDesc: steer.BehaviorDesc
---@field field steer.FlowField required: a flow field (g:flow_field{goal = pos})
---@field speed? number 0 or a number >= 1e-6 and <= 1e30 (0 = the agent's max_speed); default 0 -- cruise speed in m/s
---@field slow_radius? number 0 or a number >= 1e-6 and <= 1e30 (metres; 0 = automatic); default 0 -- braking distance along the field
---@field stop_radius? number 0 or a number >= 1e-6 and <= 1e30 (metres); default 0.2 -- arrival radius around the goal point
---@field clearance? number 0 or a number >= 1e-6 and <= 1e30 (metres kept from blocked cells beyond the agent's radius); default 0

---Follow a flow field; one brain serves any number of agents.
---@param desc steer.FollowFlowDesc
---@return steer.Behavior
function steer.follow_flow(desc) end

---`steer.decompose_flow`: a pipeline decomposer; a goal out of sight becomes the furthest visible point along the field.
---@class steer.DecomposeFlowDesc: steer.BehaviorDesc
---@field field steer.FlowField required: a flow field (g:flow_field{goal = pos})
---@field lookahead? number a number of cells >= 1 and <= 1024; default 8 -- walked along the field

---A pipeline decomposer planning on a flow field (string-pulled sub-goals).
---@param desc steer.DecomposeFlowDesc
---@return steer.Behavior
function steer.decompose_flow(desc) end

---@class steer.NavMeshArea
---@field polygon steer.VecLike[] a ring: the walkable ground inside it gets the area
---@field area string the area's name (1 to 31 bytes); later rings win where they overlap

---@class steer.NavMeshDesc
---@field outline? steer.VecLike[]|steer.VecLike[][] the walkable ground: one ring, or a list of rings (even-odd: a ring inside another is a hole, either winding)
---@field obstacles? steer.VecLike[][] rings carved out (their union, either winding; they may touch, overlap and cross the outline)
---@field areas? steer.NavMeshArea[] regions tagged with an area name
---@field costs? table<string, number> cost multiplier per area name (1e-3 .. math.huge; math.huge: never entered); default 1; "default" names the untagged ground
---@field grid? steer.Grid instead of outline: the grid's open cells, any-angle paths on them (cells of cost c become area "cost<c>")
---@field vertices? steer.VecLike[] instead of outline, baked (Recast): the level's points {x, y, z}, z up
---@field triangles? integer[]|integer[][] with vertices: 1-based vertex indices, 3 a triangle (flat, or {a, b, c} each); ground faces up (counter-clockwise seen from above)
---@field obj? string instead of vertices and triangles: the path of a Wavefront OBJ file to bake
---@field up? "y"|"z" the OBJ's up axis; default "y" (as editors export)
---@field agent? steer.NavBakeAgent what the bake lets walk: height, climb, slope
---@field cell? number the bake's cell, metres; default agent.height / 10
---@field tile? number the bake's tile side, metres (at least 32 cells); default automatic: one tile up to 512 x 512 cells, else 256-cell tiles

---@class steer.NavBakeAgent
---@field height? number ground under a lower ceiling is not walkable, metres; default 2
---@field climb? number the step an agent goes up or down, metres; default 0.4
---@field slope? number the steepest walkable slope, degrees (below 90); default 45

---@class steer.NavMeshFilter
---@field radius? number the agent's radius, metres (>= 0); default 0
---@field exclude? string[] area names never entered
---@field costs? table<string, number> cost multipliers replacing the mesh's for this query
---@field layer? integer nm:path and nm:raycast: the layer (1 .. nm.layer_count) the start is on; default: the ground under it nearest below its z
---@field to_layer? integer nm:path only: the layer the goal is on; default `layer`

---A navigation mesh: a level of any shape as triangles, for agents of every size (each query takes the radius).
---@class steer.NavMesh
---@field triangle_count integer (read-only)
---@field vertex_count integer (read-only)
---@field area number walkable area, m^2 (read-only)
---@field hash string the mesh's hash, 16 hex digits: the same input gives the same on every machine (read-only)
---@field areas table<string, number> area name -> cost (read-only copy)
---@field layer_count integer its layers: 1, or more for a baked mesh whose ground lies over itself (read-only)
local NavMesh = {}
---The way from `from` to `to` for an agent of `radius`: points (start, corners rounded by the radius, end) and the length; nil and the reason ("start off the mesh", "target off the mesh", "no way wide enough", "no way") when there is none.
---@param from steer.VecLike
---@param to steer.VecLike
---@param opts? steer.NavMeshFilter
---@return steer.Vec[]? points
---@return number|string length_or_reason
---@return steer.NavPathLink[]? links the off-mesh links taken: points[at] and points[at + 1] are a link's ends
function NavMesh:path(from, to, opts) end

---@class steer.NavPathLink
---@field at integer the index in the path's points of the link's start (the next point is its far end)
---@field link steer.NavLink

---An off-mesh link: a straight way from one point of the mesh to another (a jump, a ladder, a door).
---@class steer.NavLink
---@field enabled boolean read and write: a disabled link is never taken (a door that locks)
---@field from steer.Vec (read-only)
---@field to steer.Vec (read-only)
---@field bidirectional boolean (read-only)
---@field cost number multiplier on its length (read-only)
---@field area string its area's name (read-only)
---@field name string? (read-only)
---@field index integer its place in nm:links() (read-only)

---@class steer.NavLinkDesc
---@field from steer.VecLike one end, on the mesh
---@field to steer.VecLike the other end, on the mesh
---@field bidirectional? boolean default true
---@field cost? number multiplier on its length (>= 0); default 1. Taking it costs length x cost x its area's cost
---@field area? string one of the mesh's areas; default "default" (a filter excluding it excludes the link)
---@field name? string at most 31 bytes
---@field enabled? boolean default true

---Add an off-mesh link. Raises when an end is off the mesh (naming the field).
---@param desc steer.NavLinkDesc
---@return steer.NavLink
function NavMesh:add_link(desc) end

---@class steer.NavJumpDesc
---@field reach number the widest gap jumped, metres
---@field spacing? number metres between links along an edge; default 1
---@field inset? number how far into the mesh each end lies, metres; default 0.5
---@field cost? number default 1
---@field area? string default "default"
---@field bidirectional? boolean default true
---@field same_island? boolean also jump thin obstacles inside one island; default false (only between islands)
---@field name? string default "jump"

---Automatic jump links between wall edges facing each other across a gap no wider than `reach`, in a fixed order.
---@param desc steer.NavJumpDesc
---@return steer.NavLink[]
function NavMesh:add_jump_links(desc) end

---@class steer.NavDropDesc
---@field drop number the highest fall, metres
---@field min_drop? number the lowest fall, metres (ground less far below is level ground); default 1
---@field reach? number how far out from the ledge (in plan) the lower ground may start, metres; default 1.5
---@field spacing? number metres between links along an edge; default 1
---@field inset? number how far into the ground each end lies, metres; default 0.5
---@field radius? number each end at least this far from its floor's walls, metres; default 0.5
---@field cost? number default 1
---@field area? string default "default"
---@field name? string default "drop"

---Automatic one-way drop links from ledges down to the ground beside and below them (a baked mesh, with heights;
---any other raises), in a fixed order.
---@param desc steer.NavDropDesc
---@return steer.NavLink[]
function NavMesh:add_drop_links(desc) end

---The mesh's links in the order added.
---@return steer.NavLink[]
function NavMesh:links() end
---The point of the mesh nearest p where a disc of `radius` fits (z: the ground's height there), and its distance from p. On a mesh of several layers, on the ground under p nearest below p.z, or on `layer`, counting that floor's walls.
---@param p steer.VecLike
---@param radius? number|{ radius?: number, layer?: integer }
---@return steer.Vec point
---@return number distance
function NavMesh:nearest(p, radius) end
---The height of the ground under p and its layer: the ground nearest below p.z (up to 0.5 m above counts), or on `opts.layer`; nil when no ground is under p.
---@param p steer.VecLike
---@param opts? { layer?: integer }
---@return number? z
---@return integer? layer
function NavMesh:height(p, opts) end
---Walk the segment on the mesh: nil when clear, else the wall point hit (z: the ground's height there), the wall's normal (into the mesh) and the fraction walked. Raises when `from` is off the mesh. On a mesh of several layers the walk starts on the ground under `from` nearest below from.z, or on `opts.layer`.
---@param from steer.VecLike
---@param to steer.VecLike
---@param opts? steer.NavMeshFilter excluded areas count as walls
---@return steer.Vec? hit
---@return steer.Vec? normal
---@return number? fraction
function NavMesh:raycast(from, to, opts) end
---Move from `from` toward `to` along the surface, sliding along the walls met, keeping `radius` from them where the mesh allows; z: the ground's height at the point reached. `from`'s floor as for nearest.
---@param from steer.VecLike
---@param to steer.VecLike
---@param radius? number|{ radius?: number, layer?: integer }
---@return steer.Vec
function NavMesh:move_along(from, to, radius) end
---The distance from p to the nearest wall (of p's floor, on a mesh of several layers: as for nearest).
---@param p steer.VecLike
---@param opts? { layer?: integer }
---@return number
function NavMesh:distance_to_wall(p, opts) end
---Whether p is on the mesh, at least `radius` from every wall (on p's floor: as for nearest).
---@param p steer.VecLike
---@param radius? number|{ radius?: number, layer?: integer }
---@return boolean
function NavMesh:contains(p, radius) end
---A point uniformly distributed over the mesh, drawn from a steer.random stream (three draws); z: the ground's height there.
---@param stream table a steer.random stream (require("steer.random").new(seed))
---@return steer.Vec
function NavMesh:random_point(stream) end
---The mesh as bytes, for steer.navmesh_load on any machine.
---@return string
function NavMesh:save() end
---The triangles, for drawing: { {a, b, c, area = name}, ... }.
---@return table[]
function NavMesh:triangles() end
---The boundary's edges, for drawing: { {a, b}, ... }.
---@return steer.Vec[][]
function NavMesh:walls() end
---Put an obstacle on the mesh: exactly one footprint (a polygon of 3 to 4096 points, either winding; a circle, as the 16-sided polygon round it; a box), carved out (area "blocked", the default) or re-labelling the ground under it (an area name of the mesh other than "default"). The mesh is rebuilt under it at once.
---@param desc steer.ObstacleDesc
---@return steer.Obstacle
function NavMesh:add_obstacle(desc) end
---The mesh's obstacles, in the order they were added.
---@return steer.Obstacle[]
function NavMesh:obstacles() end

---@class steer.ObstacleDesc
---@field polygon? steer.VecLike[] the footprint's points
---@field circle? { center: steer.VecLike, radius: number } a circle (radius 0.001 .. 1e9 m)
---@field box? { min: steer.VecLike, max: steer.VecLike } a box, max above and right of min
---@field area? string "blocked" (default) or the name of one of the mesh's areas
---@field layer? integer on a baked mesh of several floors, the layer it stands on and changes alone (1 .. nm.layer_count); default: the lowest ground under its centre
---@field z? number instead of layer: the ground under its centre nearest below this height

---An obstacle on a navigation mesh (nm:add_obstacle). A removed one's handle stays stale: move and remove raise.
---@class steer.Obstacle
---@field id integer 1, 2, ... in the order added, never reused (read-only)
---@field alive boolean false once removed (read-only)
---@field area string "blocked" or the area it gives the ground (read-only; nil once removed)
---@field polygon steer.Vec[] its points where it is now (read-only; nil once removed)
---@field layer integer the layer it stands on, 1 on a mesh of one (read-only; nil once removed)
local Obstacle = {}
---Move it by (dx, dy) metres, in plan on its layer; dz is checked and ignored. The mesh is rebuilt under the old and the new footprint at once. Raises (the mesh as it was) when the footprint would cut a seam between two layers (a stair's foot).
---@param dx number
---@param dy number
---@param dz? number
function Obstacle:move(dx, dy, dz) end
---Take it off the mesh. Raises when it was removed already.
function Obstacle:remove() end

---Build a navigation mesh from 2D polygons (or a grid). Exact: the same input gives the same mesh, bit for bit, on every machine.
---Or bake one from level geometry (vertices and triangles, or an OBJ file) with Recast: several floors as layers (stairs, bridges, rooms over rooms; heights kept), not eroded (queries take the radius); the bake may differ between machines, its saved mesh loads the same everywhere. Raises in a build without Recast, and in mods.
---@param desc steer.NavMeshDesc
---@return steer.NavMesh
function steer.navmesh(desc) end

---Add the mesh's walls to the world as wall segments (raycasts, avoid_walls, reciprocal, collide see them); the world holds the mesh (snapshots carry it) and the viewer draws it (N). Again, or a mesh of the same hash: nothing.
---In a 3D world each wall is a panel from the ground's height up `opts.height` (default 2 m): a floor's walls stand in the way on that floor only. In a 2D world every layer's walls are in one plan, or `opts.layer`'s only.
---The walls follow the mesh's obstacles: made again at the start of the first tick after an add, move or remove.
---@param nm steer.NavMesh
---@param opts? { layer?: integer, height?: number }
function World:add_navmesh(nm, opts) end

---A mesh from the bytes nm:save() gave; raises on damaged bytes.
---@param bytes string
---@return steer.NavMesh
function steer.navmesh_load(bytes) end

---`steer.navigate{...}`: an agent that finds its own way on a navigation mesh.
---`costs` and `exclude` are the agent's own, read as nm:path reads them
---(area names of `navmesh`; an unknown one raises naming the mesh's areas).
---@class steer.NavigateDesc: steer.BehaviorDesc
---@field exclude? string[] area names this agent never enters (an excluded area is a wall to its looks too); a start or target in one raises "unreachable"
---@field navmesh steer.NavMesh required: a navigation mesh (steer.navmesh{...})
---@field target? steer.Target a vector, an agent or nil (the agent's own target); default nil
---@field slow_radius? number a number of metres >= 1e-6 and <= 1e30; default 2
---@field stop_radius? number 0 or a number >= 1e-6 and <= 1e30 (metres); default 0.2
---@field speed? number 0 or a number >= 1e-6 and <= 1e30 (0 = the agent's max_speed); default 0
---@field layer? number 0 or the goal's layer of the navmesh, an integer >= 1e-6 and <= 65535 (0: the ground under the target, nearest below its height); default 0
---@field costs? table<string, number> a table of area name -> cost multiplier (>= 0.001; math.huge: never entered); default nil

---An agent that goes to its target through a path corridor it keeps valid
---on the mesh, for its own radius and area costs; events "path_found",
---"unreachable" (with the reason) and "stuck"; a:path() gives the corridor.
---@param desc steer.NavigateDesc
---@return steer.Behavior
function steer.navigate(desc) end

-- ---- formations (issue 35) ----

---@alias steer.FormationPattern "line"|"column"|"wedge"|"circle"|"box"|"vee"|fun(i: integer, n: integer): number, number

---@class steer.FormationDesc
---@field pattern? steer.FormationPattern the shape, in the formation's frame (x forward, y left, metres); a function gives slot i of n members' offset dx, dy, called when the shape changes (f:add, f:remove, f.pattern =), never per tick; default "line"
---@field spacing? number metres between neighbouring slots (> 0, <= 1e6); default 2 (a custom shape's offsets are its own)
---@field assign? "sum"|"max" slots by the least total distance, or the least longest (then the least total); default "sum"
---@field leader? steer.Agent the anchor follows it, one spacing behind, with its heading and velocity (not a member)
---@field target? steer.VecLike the anchor goes there, at 0.8 of its slowest member's max_speed, slowing when members fall behind
---@field position? steer.VecLike the anchor's position; default the first member's position
---@field heading? steer.VecLike the anchor's heading (a direction); default +x
---@field navmesh? steer.NavMesh the anchor finds its way to its target on it (for half the narrow shape's width plus the largest member's radius, else that radius), again when the target changes; walls of the mesh count for narrowing
---@field narrow? "files"|"line"|"column"|"wedge"|"circle"|"box"|"vee"|false the shape it narrows to where the way ahead (the world's walls and obstacles, the mesh's walls) is narrower than its own shape, forming up again past it; "files": as many files side by side as the way's free width allows; false: never; default "column"

---A formation: members that steer to their slots (steer.formation_slot) round a moving anchor.
---The world of its first member (or leader) keeps it, and snapshots carry it.
---@class steer.Formation
---@field pattern steer.FormationPattern reassigns every slot when set (a function is called for the members there are)
---@field spacing number
---@field assign "sum"|"max"
---@field leader steer.Agent? nil: none (or it was removed)
---@field target steer.Vec? nil: none
---@field position steer.Vec the anchor
---@field heading steer.Vec the anchor's heading (a unit vector)
---@field velocity steer.Vec the anchor's velocity (read-only)
---@field narrow "files"|"line"|"column"|"wedge"|"circle"|"box"|"vee"|false the shape it narrows to in narrow places (false: never); setting it forms a narrowed formation up again
---@field narrowed boolean its slots are the narrow shape's now (read-only)
---@field navmesh steer.NavMesh? the mesh the anchor finds its way on (nil: straight to the target; a loaded formation's is its own copy, not given back here)
local Formation = {}
---Add agent a (of the formation's world, not a member yet, not its leader); every slot is assigned again.
---@param a steer.Agent
function Formation:add(a) end
---Remove member a; every slot is assigned again (a custom shape's function gives the shape for one fewer).
---@param a steer.Agent
function Formation:remove(a) end
---The members, by id (those removed since the last tick are left out; they leave at the next).
---@return steer.Agent[]
function Formation:members() end

---@param desc? steer.FormationDesc
---@return steer.Formation
function steer.formation(desc) end

---`steer.formation_slot{...}`: arrive at the agent's slot of `formation` with the anchor's velocity added; no force for an agent that is no member.
---@class steer.FormationSlotDesc: steer.BehaviorDesc
---@field formation steer.Formation required: a formation (steer.formation)
---@field slow_radius? number a number of metres >= 1e-6 and <= 1e30; default 1.5

---Arrive at the agent's formation slot and move with the formation; sits in any brain (reciprocal wraps it, blend it with avoid_walls{ escape = false }).
---@param desc steer.FormationSlotDesc
---@return steer.Behavior
function steer.formation_slot(desc) end

---The point of the agent's slot (in its brain's first formation_slot's formation, else the first of the world's formations that has it), or nil.
---@return steer.Vec?
function Agent:slot() end

---The world's formations, in the order they joined it (a loaded or restored world's are its own values).
---@return steer.Formation[]
function World:formations() end

-- ---- end of formations ----

---Add the walls of the grid's blocked cells (and its outer edge) to the world; edits of the grid replace them.
---The world holds the grid from then on, and the viewer draws it (G) and its flow fields (L).
---@param g steer.Grid
function World:add_grid(g) end

---`require "steer.archetypes.zombie"`
---@class steer.archetypes.zombie
---@field params {sight_range: number, player_tag: string, spacing: number, huddle: number}
---@field vehicle table
---@field archetype steer.Archetype
local zombie = {}
---The follow and chase brains for one flow field (built once per field).
---@param field steer.FlowField
---@return {follow: steer.Behavior, chase: steer.Behavior}
function zombie.brains(field) end
---Spawn a zombie that follows `field`; other fields are w:spawn's (data.player: the player to hunt).
---@param w steer.World
---@param field steer.FlowField
---@param fields? steer.SpawnDesc
---@return steer.Agent
function zombie.spawn(w, field, fields) end
---The player if the zombie sees it (in range and in line of sight), else nil.
---@param a steer.Agent
---@return steer.Agent?
function zombie.sees_player(a) end
---Pursue the player when seen, else follow the field.
---@param a steer.Agent
function zombie.think(a) end
---Move the field's goal to `position` unless that is blocked; returns whether it moved.
---@param field steer.FlowField
---@param position steer.VecLike
---@return boolean
function zombie.track(field, position) end

-- ---- inside a mod only -----------------------------------------------------------

---Inside a mod only: copy plain data (nil, booleans, numbers, strings and
---tables of them; at most 64 KiB and 16 levels) to the mod named `mod`; it
---gets it next tick in `on_message(from, data)`. False when that mod is not
---running or its inbox is full.
---@param mod string
---@param data any
---@return boolean
function steer.send(mod, data) end

---Inside a mod only: the mod's name.
---@type string
steer.mod_name = nil
-- ---- turn-limited craft and directed seek (Jakob) ----------------------

---`steer.directed_seek`: arrive at `target` travelling along `heading`,
---turning no tighter than the turn radius (Jakob's stateless 3-segment
---paths: turn, tangent, turn; the path with the least total turning wins).
---@class steer.DirectedSeekDesc: steer.BehaviorDesc
---@field target? steer.Target a vector, an agent or nil (the agent's own target); default nil -- the waypoint W
---@field heading? steer.VecLike a vector (the direction to arrive in); default {0, 0, 0} -- d_W (required with a point target); when zero: the target agent's direction of travel
---@field min_turn_radius? number 0 or a number of metres >= 1e-6 and <= 1e30 (0 = the agent's own); default 0 -- the agent's own: min_turn_radius at the larger of its speed and `speed`, never tighter than m v^2 / max_force
---@field speed? number 0 or a number >= 1e-6 and <= 1e30 (0 = the agent's max_speed); default 0 -- the speed to fly and arrive at; 0: max_speed, and after a moving agent its speed plus the gap to W over 2 s, so it closes in and holds station
---@field behind? number 0 or a number of metres >= 1e-6 and <= 1e30 (the waypoint is that far back from the target along heading); default 0 -- onto a tail
---@field opposite? boolean a boolean (consider the opposite waypoint circle); default true -- also the waypoint circle on the far side of W (k'_W)

---Arrive at a point travelling in a given direction, within a turn radius.
---@param desc steer.DirectedSeekDesc
---@return steer.Behavior
function steer.directed_seek(desc) end

---A circle of a directed seek plan.
---@class steer.PlanCircle
---@field center steer.Vec
---@field turn integer +1 counter-clockwise about the plan's normal, -1 clockwise

---What directed seek decides for one pose (world coordinates).
---@class steer.SeekPlan
---@field stage integer 1 turning onto the tangent, 2 flying along it, 3 the final turn onto W
---@field path "direct"|"cross" the tangent joining the circles (alike turns: direct)
---@field opposite boolean the waypoint circle lies on the far side of W (k'_W)
---@field radius number turn radius planned with, metres
---@field total_angle number the path's total turning, radians
---@field aim steer.Vec the steering direction d_s
---@field from steer.Vec start of the straight segment (on the agent circle)
---@field to steer.Vec end of the straight segment (on the waypoint circle)
---@field agent_circle steer.PlanCircle the path's first circle
---@field waypoint_circle steer.PlanCircle the path's last circle
---@field circles {agent_left: steer.Vec, agent_right: steer.Vec, waypoint: steer.Vec, opposite: steer.Vec} centres of k_A+, k_A-, k_W, k'_W
---@field axis_x steer.Vec the steering plane's x (= heading at W)
---@field axis_y steer.Vec the plane's y, toward the agent
---@field normal steer.Vec axis_x x axis_y (+-z in 2D)

---The plan `ds` (a steer.directed_seek) makes for `agent` now; or, given a
---table, for a pose: `{ position, direction, target, heading,
---min_turn_radius [, speed = 0, dt = 1/60, opposite = true] }` (speed and
---dt >= 0: they only set the tolerances). Nil when
---the behaviour has no target or cannot turn.
---@param agent_or_pose steer.Agent|{position: steer.VecLike, direction: steer.VecLike, target: steer.VecLike, heading: steer.VecLike, min_turn_radius: number, speed?: number, dt?: number, opposite?: boolean}
---@param ds? steer.Behavior
---@return steer.SeekPlan|nil
function steer.directed_seek_plan(agent_or_pose, ds) end

---`require "steer.archetypes.fighter"`
---@class steer.archetypes.fighter
---@field params {tail_distance: number, gun_range: number, gun_angle: number, threat_range: number, threat_angle: number, sight_range: number, min_altitude: number, spacing: number, stalemate: number, extend_time: number}
---@field vehicle table
---@field brains {patrol: steer.Behavior, attack: steer.Behavior, guns: steer.Behavior, extend: steer.Behavior, evade: steer.Behavior}
---@field context_brains {patrol: steer.Behavior, attack: steer.Behavior, guns: steer.Behavior, extend: steer.Behavior, evade: steer.Behavior} the context-steered variant's, flown by fighters whose `a.data.context` is true
---@field archetype steer.Archetype
local fighter = {}
---Pick an enemy; attack (directed seek onto its tail), guns, evade or extend.
---@param a steer.Agent
---@param dt number
function fighter.think(a, dt) end
---Spawn a fighter of `team` (its tag) hunting agents tagged `enemy`; other fields are w:spawn's.
---@param w steer.World
---@param fields steer.SpawnDesc|{team: string, enemy: string}
---@return steer.Agent
function fighter.spawn(w, fields) end

-- ---- kinds not described above (written by tools/gen_meta.c; describe them above) ----
-- ---- end of the kinds written by tools/gen_meta.c ----

return steer
