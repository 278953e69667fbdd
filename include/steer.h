// SPDX-License-Identifier: MIT
// steer.h — the public C API of steer's core, for embedding it in a game:
// worlds, agents, static geometry, behaviours and combiners, host-written
// behaviours, craft and directed seek plans. No Lua here: the engine that
// runs scenarios, hot reload and mods is steer_engine.h, the Lua module
// steer_lua.h, the debug-draw list steer_draw.h, what a renderer reads to
// draw the debug view steer_debug.h.
//
// This header is the reference: one line per function says what it does.
// Every function returns a status (a steer_Status as an int: STEER_OK or a
// negative STEER_E*) or a value; none aborts, exits or longjmps. Agents are named by handles
// (index + generation): a removed agent's handle goes stale and every call
// with it fails with STEER_ESTALE, it never names another agent.
// Units: metres, seconds, radians. 2D worlds use x, y; 3D worlds x, y, z.
#ifndef STEER_H
#define STEER_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>

#ifdef __cplusplus
extern "C" { // a C++ host links the C symbols
#endif

// What a library exports: steer compiles with hidden visibility, so
// libsteer.so and libsteerlua.so export the STEER_API functions alone (the
// same objects make the static and the shared library). STEER_BUILD_SHARED
// is for a Windows DLL build, which would compile its own objects.
#if defined(_WIN32) && defined(STEER_BUILD_SHARED)
#define STEER_API __declspec(dllexport)
#elif defined(__GNUC__)
#define STEER_API __attribute__((visibility("default")))
#else
#define STEER_API
#endif

#define STEER_VERSION "0.1.0"
// The most relaxation passes steer_WorldDesc.collide_iterations may ask for
// (each is a neighbour query per agent).
#define STEER_MAX_COLLIDE_ITERATIONS 64
// Path search work per tick by default (steer_WorldDesc.path_budget).
#define STEER_DEFAULT_PATH_BUDGET 4096u

// The status every int-returning function returns (or a count, where its
// comment says so): STEER_OK or one of these negative codes.
typedef enum steer_Status {
    STEER_OK = 0,
    STEER_EARG = -1,      // an argument is out of range, NaN or infinite
    STEER_ESTALE = -2,    // the agent handle names a removed agent
    STEER_ENOMEM = -3,    // the allocator failed; nothing changed
    STEER_EFULL = -4,     // a fixed limit (agents, brains, tags) is reached
    STEER_ECALLBACK = -5, // a host callback failed during a tick
    STEER_EBUSY = -6,     // not allowed while a tick runs (from a custom behaviour or ease function)
    STEER_ESCRIPT = -7,   // the engine: a script failed (see steer_engine_error in steer_engine.h)
    STEER_EMOD = -8       // the engine: a mod failed or was stopped
} steer_Status;

typedef struct steer_World steer_World;
typedef struct steer_Behavior steer_Behavior;
typedef struct steer_HostKind steer_HostKind; // a behaviour kind the host defined (see below)

// An agent handle: generation in the high 32 bits of `id`, slot in the low
// 32. A struct, not an integer, so a shape handle (or any number) passed
// where an agent is expected does not compile. The zero value,
// STEER_NO_AGENT or (steer_Agent){ 0 }, is never a valid handle: it means
// "none" wherever the API takes or returns an optional agent. Compare
// handles by their ids (a.id == b.id); the Lua binding's agent.id is `id`.
typedef struct steer_Agent {
    uint64_t id;
} steer_Agent;
#ifdef __cplusplus
#define STEER_NO_AGENT (steer_Agent{ 0 }) // C++ has no compound literals
#else
#define STEER_NO_AGENT ((steer_Agent){ 0 })
#endif

// The callbacks a host gives steer (allocator, log, writer, host
// behaviours, event and path hooks) run inside steer's own frames, some on
// its worker threads: a C++ exception must not leave one. Catch it inside
// the callback and report failure the callback's way (a host behaviour
// leaves its force at zero, a writer returns non-zero). From C++17 on, the
// callback types are noexcept, so a function that may throw does not
// compile where steer expects a callback; declare yours noexcept (a lambda
// too: [](...) noexcept { ... }). Before C++17 this cannot be checked: an
// exception through a tick would leave the world inside it (every later
// call fails with STEER_EBUSY) or, on a worker thread, end the program.
#if defined(__cplusplus) && __cplusplus >= 201703L
#define STEER_NOEXCEPT noexcept
#else
#define STEER_NOEXCEPT
#endif

// Allocator hook: realloc semantics (size 0 frees). NULL means libc.
typedef void *(*steer_AllocFn)(void *ud, void *ptr, size_t size)STEER_NOEXCEPT;
// Log hook: level 0 info, 1 warning, 2 error.
typedef void (*steer_LogFn)(void *ud, int level, const char *msg) STEER_NOEXCEPT;

// A reference that a behaviour's field holds (snapshots, steer_Hooks'
// save_ref and load_ref): a callback (type "callback": the host's own
// reference, a number only the host can read) or a resource (type its
// kind, "flow field": an object of another module, held by reference).
typedef struct steer_Ref {
    const steer_Behavior *node; // the node that holds it, or (a load) the node being made
    const steer_Behavior *root; // a save: the tree it was found in first (a brain's, else an extra root's)
    const char *field;          // the field's name
    const char *type;           // "callback", or the resource's kind
    int ref;                    // a save: the callback's host reference
    void *obj;                  // a save: the resource
    // A load of a snapshot older than resource fields (version 2 and 1)
    // holds none: the loader asks for each resource field of each node it
    // makes, with `in` the node's place among the snapshot's nodes (from 1).
    bool by_node;
} steer_Ref;

// Host callbacks for behaviours written in the host language (the Lua
// binding fills these). `ref` is the host's reference to the function.
// Each returns 0 on success, nonzero on failure (the engine then uses a
// zero force and steer_world_error() tells what happened).
typedef struct steer_Hooks {
    void *ud;
    int (*ease)(void *ud, int ref, double x, double *out);
    int (*custom)(void *ud, int ref, steer_World *w, steer_Agent a, double dt, double out[3]);
    // The think pass: called after a tick for each agent whose think timer
    // elapsed, with the time since its last think. May spawn, remove and query.
    int (*think)(void *ud, int ref, steer_World *w, steer_Agent a, double dt);
    // steer_world_load: the host kind of this name (NULL: none), for
    // snapshots whose brains use kinds the host defined. NULL: built-ins only.
    const steer_HostKind *(*find_kind)(void *ud, const char *name);
    // Snapshots: a reference a behaviour's field holds (steer_Ref) is no
    // bytes. A save writes the number save_ref gives for it (NULL: a
    // callback's host reference as it is, a resource as none); a load hands
    // that number to load_ref, which gives the host's reference (*ref) or
    // the object (*obj: the node takes a reference of its own). 0 on
    // success; anything else fails the save (STEER_ECALLBACK) or the load.
    int (*save_ref)(void *ud, const steer_Ref *r, uint32_t *out);
    int (*load_ref)(void *ud, const steer_Ref *r, uint32_t in, int *ref, void **obj);
} steer_Hooks;

// ---- threads -------------------------------------------------------------
// The tick's passes split their agents into items and run them on worker
// threads: the built-in pool (pthreads), or the host's own job system
// through the two callbacks below, in the style of Box2D v3's
// enqueueTask/finishTask. Whatever the thread count and however the host
// splits the items, the world's state comes out with the same bits.

// The most worker threads a world may use (steer_WorldDesc.threads).
#define STEER_MAX_THREADS 64

// Run items [begin, end) of a pass as worker `worker`.
typedef void steer_TaskFn(int begin, int end, int worker, void *task_ctx);
// The host runs task over the items [0, count), each item once, in ranges
// of at least min_range items (the last may be shorter), on any of its
// threads and as many at a time as it likes. `worker` is passed through
// for the host's own use: steer keeps its per-range scratch itself (up to
// the world's thread count at a time; a range beyond that waits for one).
// Returns a handle for finish_task, or NULL when every item has already
// run (a host may simply call task(0, count, 0, task_ctx) and return NULL).
typedef void *steer_EnqueueTaskFn(steer_TaskFn *task, int count, int min_range, void *task_ctx, void *host_ctx);
// Wait until every item of the task has run.
typedef void steer_FinishTaskFn(void *task, void *host_ctx);

// World descriptor: zero means default for every field.
typedef struct steer_WorldDesc {
    int dim;          // 2 (default) or 3
    double size[3];   // extent of the bounds from origin; 0 = unbounded axis
    double origin[3]; // lower corner of the bounds
    bool wrap;        // periodic bounds (a torus); needs every size > 0
    uint64_t seed;    // world RNG seed (0 means 1)
    double dt;        // fixed tick, seconds (default 1/60)
    bool no_record;   // do not record per-node outputs (saves memory and time)
    // Stuck detection (off when window is 0): an agent that pushes (mean
    // force above a quarter of max_force) but gains less than `progress`
    // metres toward its target (or from where it was, without a target)
    // over `window` seconds raises STEER_EVENT_STUCK.
    double stuck_window, stuck_progress;
    // Hard non-penetration after locomotion: agents never end a tick inside
    // a shape, and overlaps between agents are resolved by `collide_iterations`
    // relaxation passes (default 2, at most STEER_MAX_COLLIDE_ITERATIONS).
    bool collide;
    int collide_iterations;
    int reorder_period; // ticks between spatial re-sorts of agent storage (default 16, <0 never)
    // Path search work per tick, shared by every agent that asks for a path
    // (navigate): triangles a search expands (default STEER_DEFAULT_PATH_BUDGET).
    // Requests wait their turn, oldest first, each search whole.
    uint32_t path_budget;
    steer_AllocFn alloc;
    void *alloc_ud;
    steer_LogFn log;
    void *log_ud;
    steer_Hooks hooks;
    // Worker threads for the tick (default 1, at most STEER_MAX_THREADS; a
    // count above the machine's cores is allowed). Not part of the world's
    // state: not hashed, not saved, kept by steer_world_restore.
    int threads;
    // The host's job system (both or neither; NULL: the built-in pool). See
    // steer_EnqueueTaskFn. task_ctx is handed to both as host_ctx.
    steer_EnqueueTaskFn *enqueue_task;
    steer_FinishTaskFn *finish_task;
    void *task_ctx;
} steer_WorldDesc;

// Agent descriptor for spawning: zero means default (see steer_spawn).
// Position and velocity components are finite, at most FLT_MAX in size; the
// four vehicle numbers, when not 0, are from 1e-6 to 1e30 (a float would make
// a tinier one 0 or a denormal, and two huger radii or speeds overflow).
typedef struct steer_AgentDesc {
    double position[3];
    double velocity[3];
    double mass;           // default 1; else 1e-6 to 1e30 kg
    double max_speed;      // default 1; else 1e-6 to 1e30 m/s
    double max_force;      // default 1; else 1e-6 to 1e30 N
    double radius;         // default 0.5; else 1e-6 to 1e30 m
    const char *tag;       // NULL = untagged
    steer_Behavior *brain; // NULL = no brain (drifts)
    bool kinematic;        // the host moves it (see steer_agent_set_kinematic); default false
} steer_AgentDesc;

// Events queued during a tick and handed out after it.
typedef enum steer_EventType {
    STEER_EVENT_ARRIVE = 1,      // an arrive behaviour brought the agent inside its stop radius (or to a free spot)
    STEER_EVENT_LOST_TARGET = 2, // the agent's target agent was removed
    STEER_EVENT_STUCK = 3,       // no progress toward its goal over the stuck window (see steer_WorldDesc)
    STEER_EVENT_COLLIDE =
        4, // the non-penetration pass pushed the agent out of a shape (other: STEER_NO_AGENT) or agent
    STEER_EVENT_PATH_FOUND = 5,  // navigate planned the agent's way to its target
    STEER_EVENT_UNREACHABLE = 6, // navigate found no way to the target: other.id is a steer_Unreachable, not an agent
    STEER_EVENT_LINK = 7 // navigate reached an off-mesh link's start: other.id is the link's index + 1 (steer_nav.h)
} steer_EventType;

// Why a target is unreachable (STEER_EVENT_UNREACHABLE's other.id).
typedef enum steer_Unreachable {
    STEER_UNREACHABLE_NARROW = 1,         // ways exist, but none wide enough for the agent
    STEER_UNREACHABLE_TARGET_OFF = 2,     // the target is off the mesh
    STEER_UNREACHABLE_START_OFF = 3,      // the agent is off the mesh
    STEER_UNREACHABLE_NONE = 4,           // no way at all (separate islands, excluded areas between)
    STEER_UNREACHABLE_NOMEM = 5,          // the search ran out of memory
    STEER_UNREACHABLE_START_EXCLUDED = 6, // the agent stands in an area its costs exclude
    STEER_UNREACHABLE_TARGET_EXCLUDED = 7 // the target is in an area the agent's costs exclude
} steer_Unreachable;
// Its words: "no way wide enough", "target off the mesh", "start off the mesh", "no way", "out of memory",
// "start in an excluded area", "target in an excluded area".
STEER_API const char *steer_unreachable_text(int reason);

typedef struct steer_Event {
    steer_EventType type;
    steer_Agent agent;
    steer_Agent other;
} steer_Event;

// ---- world -------------------------------------------------------------
STEER_API int steer_world_new(const steer_WorldDesc *desc, steer_World **out);
// Free the world, its agents and shapes, and release the brains it holds; NULL is ignored.
STEER_API void steer_world_free(steer_World *w);
STEER_API int steer_world_step(steer_World *w, int ticks); // advance n fixed ticks
// 2 or 3.
STEER_API int steer_world_dim(const steer_World *w);
// The fixed tick, seconds.
STEER_API double steer_world_dt(const steer_World *w);
// Ticks stepped since the world was made.
STEER_API uint64_t steer_world_tick(const steer_World *w);
STEER_API uint64_t steer_world_seed(const steer_World *w);     // the seed it was made with
STEER_API int steer_world_count(const steer_World *w);         // live agents
STEER_API uint64_t steer_world_hash(const steer_World *w);     // digest of the whole state
STEER_API const char *steer_world_error(const steer_World *w); // last callback failure or ""
// Why the last call on this thread refused an object at the boundary: a
// NULL world, behaviour or out pointer, or a world or behaviour another
// copy of libsteer made (a game linking libsteer.a that loads a plug-in
// built on libsteer.so holds two copies, whose objects cannot cross).
// Names the function, the argument and what was expected; "" before any.
// Such a call returns STEER_EARG, or its zero value (0, false, NULL, "",
// STEER_NO_AGENT) when it returns a value.
STEER_API const char *steer_last_error(void);
STEER_API int steer_world_set_record(steer_World *w, bool on); // record per-node outputs (allocates)
// Whether per-node outputs are recorded.
STEER_API bool steer_world_record(const steer_World *w);
// Set the path search work per tick (see steer_WorldDesc.path_budget): at
// least 1 (STEER_EARG otherwise); STEER_EBUSY during a tick.
STEER_API int steer_world_set_path_budget(steer_World *w, uint32_t units);
// The path search work per tick (0 for a bad world).
STEER_API uint32_t steer_world_path_budget(const steer_World *w);
// Count what each agent's brain costs in the steer pass (off by default;
// STEER_EBUSY during a tick), for a host that bounds what some agents may
// cost (the engine's mods). The units are deterministic, the same on every
// machine and thread count: one per brain evaluated, per neighbour
// candidate its sensing may scan (its cell's block: a brain reading only
// its nearest neighbours scans fewer, and is counted the same), and per
// cell, grid entry and search step of its shape queries (on the
// development machine about 2 to 20 ns each).
STEER_API int steer_world_set_metering(steer_World *w, bool on);
// The units agent a cost in the last tick's steer pass (0 when not
// metering, the agent is gone or joined after that pass).
STEER_API uint32_t steer_agent_work(const steer_World *w, steer_Agent a);
// Worker threads for the tick, 1 to STEER_MAX_THREADS (STEER_EARG otherwise;
// STEER_EBUSY during a tick). The trajectory is the same for every count.
STEER_API int steer_world_set_threads(steer_World *w, int threads);
// The worker threads the tick may use.
STEER_API int steer_world_threads(const steer_World *w);
// The bounds the world was made with (a size of 0: an unbounded axis) and whether they wrap.
STEER_API void steer_world_bounds(const steer_World *w, double origin[3], double size[3], bool *wrap);
// Whether an agent of the world still has this brain (brains no agent uses
// are freed at the next tick; a host may drop its reference then).
STEER_API bool steer_world_uses_brain(const steer_World *w, const steer_Behavior *b);
// How many brain ids the world has given out, id 0 (no brain) included:
// its brains are ids 1 to steer_world_brains(w) - 1, the ids snapshots keep.
STEER_API int steer_world_brains(const steer_World *w);
// The behaviour tree brain `id` was compiled from, or NULL for an id no
// agent uses any more (or out of range). Not retained for the caller.
STEER_API steer_Behavior *steer_world_brain(const steer_World *w, int id);
// Brain `id` runs `tree` from now on, in place of the tree it was compiled
// from, its agents keeping their memory: for a host holding a tree equal to
// one a load made (the Lua loader gives a script its own tree back). The
// two must flatten alike, kind for kind and name for name, with the same
// per-agent memory; STEER_EARG otherwise (and for an unused id),
// STEER_EBUSY during a step, STEER_ENOMEM.
STEER_API int steer_world_replace_brain(steer_World *w, int id, steer_Behavior *tree);
// Every resource field (a flow field, a navigation mesh) of the world's
// brains, in their trees and as compiled, that points at `from` points at
// `to` from now on: each such node takes a reference to `to` and drops its
// one to `from`. For a host that restored a snapshot and holds its own
// object of which the loaded one is a copy (the Lua binding gives a
// script's flow field back); `to` must be an object of the same kind. The
// count of fields changed, STEER_EARG for a NULL one, STEER_EBUSY during a
// step.
STEER_API int steer_world_replace_resource(steer_World *w, const void *from, void *to);
STEER_API size_t steer_world_bytes(const steer_World *w);       // heap bytes the world holds
STEER_API size_t steer_world_brain_bytes(const steer_World *w); // of those, per-agent brain memory
// Events of the last step; the array stays valid until the next step.
STEER_API const steer_Event *steer_world_events(const steer_World *w, int *count);
// The i-th live agent (0 <= i < count) in storage order; STEER_NO_AGENT when out of range.
STEER_API steer_Agent steer_world_agent_at(const steer_World *w, int i);
// The live agents' handles in agent_at order, up to cap of them, in one pass;
// returns how many agents there are.
STEER_API int steer_world_agents(const steer_World *w, steer_Agent *out, int cap);
// Agents within `radius` of `pos` (optionally only `tag`), nearest first when
// `sorted`. Writes up to `cap` handles, returns how many there are in all.
STEER_API int steer_world_neighbors(steer_World *w, const double pos[3], double radius, const char *tag, bool sorted,
                                    steer_Agent *out, int cap);

// ---- snapshots ---------------------------------------------------------
// A snapshot is the whole world in bytes: every option, the tick, the
// random streams, the handle table (a handle taken before the save names
// the same agent after the load, a stale one stays stale, the next spawn
// gets the handle it would have had), every agent's state and behaviour
// memory, tags, brains as behaviour trees (shared subtrees and brains stay
// shared), think timers, turn limits and the static geometry. Stepping a
// loaded world gives, bit for bit, what stepping the saved one would have.
// Not saved: the last step's events, the recorded node outputs (zero until
// the next tick), and any pointer a binding put into a behaviour (a
// follow_flow's field is unbound after a load: the host binds it again).
// Host references (callbacks, eases, think refs) are saved as the numbers
// they are: the host promises they mean the same after the load. Host kinds
// are saved by name and found again through hooks.find_kind. The format is
// versioned, little-endian and checksummed (docs/architecture.md,
// "Snapshots"). None of the three may run during a tick (STEER_EBUSY).
//
// A writer for steer_world_save: 0 when the bytes were taken, anything else aborts the save.
typedef int (*steer_WriteFn)(void *ud, const void *data, size_t len) STEER_NOEXCEPT;
// Save the world through `write`, in a few large pieces; STEER_ECALLBACK when the writer failed.
STEER_API int steer_world_save(const steer_World *w, steer_WriteFn write, void *ud);
// Save into buf (cap bytes), *len = the size; STEER_EFULL, *len = the size needed, when cap is short (buf may be NULL).
STEER_API int steer_world_save_buffer(const steer_World *w, void *buf, size_t cap, size_t *len);
// Save with extra trees (behaviours that may be no agent's brain), nodes shared with the brains kept shared.
STEER_API int steer_world_save_roots(const steer_World *w, steer_Behavior *const *roots, int nroots,
                                     steer_WriteFn write, void *ud);
// A new world from a snapshot. Of `hooks` only alloc, log and hooks are used (NULL: defaults); every
// other option comes from the snapshot. On failure (STEER_EARG: bad input; STEER_ENOMEM) nothing is
// allocated, *out is untouched and err (errlen bytes, may be NULL) says what is wrong.
STEER_API int steer_world_load(const steer_WorldDesc *hooks, const void *data, size_t len, steer_World **out, char *err,
                               size_t errlen);
// Load, handing back the extra trees in their order: up to cap in roots (each retained: release it), *nroots = all.
STEER_API int steer_world_load_roots(const steer_WorldDesc *hooks, const void *data, size_t len, steer_World **out,
                                     steer_Behavior **roots, int cap, int *nroots, char *err, size_t errlen);
// Replace w's whole state by a snapshot's, in place (w keeps its address, allocator, log and hooks): a
// rewind. On failure w is unchanged and err says why. The snapshot may have another dim or other options.
STEER_API int steer_world_restore(steer_World *w, const void *data, size_t len, char *err, size_t errlen);
// w takes the state of `from` (a world just loaded, with
// steer_world_load_roots): agents, shapes, brains, tick and all, while
// each keeps its address and its host parts (allocator, log, hooks); the
// trees `from` held that target its agents now target w's, and `from`
// holds w's old state, to be freed. steer_world_restore is a load and this.
STEER_API int steer_world_take_state(steer_World *w, steer_World *from);

// ---- static geometry ---------------------------------------------------
// Shapes are named by handles like agents. Circles are spheres in 3D; walls
// are 2D segments (in 3D, vertical panels: steer_add_wall_height); planes
// are 3D; boxes are axis-aligned in both.
// A shape handle: the same layout as steer_Agent (generation high, slot low)
// and a type of its own, so it cannot stand for an agent. The zero value,
// STEER_NO_SHAPE or (steer_Shape){ 0 }, is never a valid handle ("none").
typedef struct steer_Shape {
    uint64_t id;
} steer_Shape;
#ifdef __cplusplus
#define STEER_NO_SHAPE (steer_Shape{ 0 })
#else
#define STEER_NO_SHAPE ((steer_Shape){ 0 })
#endif
typedef enum steer_ShapeKind {
    STEER_SHAPE_CIRCLE = 1,
    STEER_SHAPE_SEGMENT,
    STEER_SHAPE_PLANE,
    STEER_SHAPE_BOX
} steer_ShapeKind;
// Add a circle (a sphere in 3D) of radius > 0; STEER_EBUSY during a tick.
STEER_API int steer_add_circle(steer_World *w, const double centre[3], double radius, steer_Shape *out);
// Add a wall: the 2D segment from..to.
STEER_API int steer_add_wall(steer_World *w, const double from[3], const double to[3], steer_Shape *out);
// Add a wall of a 3D world: the vertical panel over the segment from..to
// (its foot, at the ends' heights) up `height` (> 0) metres; it stands in
// the way of agents and rays at heights between its foot and its top
// (walls of one floor leave the floor below and above free). In a 2D
// world, steer_add_wall (height ignored).
STEER_API int steer_add_wall_height(steer_World *w, const double from[3], const double to[3], double height,
                                    steer_Shape *out);
// Add a plane through point with normal (3D).
STEER_API int steer_add_plane(steer_World *w, const double point[3], const double normal[3], steer_Shape *out);
// Add an axis-aligned box from its lower to its upper corner.
STEER_API int steer_add_box(steer_World *w, const double lo[3], const double hi[3], steer_Shape *out);
STEER_API int steer_remove_shape(steer_World *w, steer_Shape s); // not during a tick
// Whether the handle names a shape not removed.
STEER_API bool steer_shape_alive(const steer_World *w, steer_Shape s);
// Live shapes.
STEER_API int steer_world_shape_count(const steer_World *w);

// Ray casts: what to test, and what was hit first.
enum { STEER_RAY_SHAPES = 1, STEER_RAY_AGENTS = 2, STEER_RAY_ALL = 3 };
typedef struct steer_Hit {
    double point[3], normal[3], distance;
    steer_Agent agent; // the agent hit, or STEER_NO_AGENT
    steer_Shape shape; // the shape hit, or STEER_NO_SHAPE
} steer_Hit;
// Cast from origin along direction (any length > 0) up to `length`, skipping
// agent `ignore` (STEER_NO_AGENT: none). Returns 1 with *hit filled, 0 for no hit, or an error.
STEER_API int steer_raycast(steer_World *w, const double origin[3], const double direction[3], double length,
                            unsigned mask, steer_Agent ignore, steer_Hit *hit);

// ---- agents ------------------------------------------------------------
// STEER_EARG for a non-finite position or velocity or a vehicle number out of
// its range (see steer_AgentDesc), STEER_EFULL, STEER_ENOMEM, or STEER_EBUSY
// inside a pass; the world is unchanged then.
STEER_API int steer_spawn(steer_World *w, const steer_AgentDesc *desc, steer_Agent *out);
STEER_API int steer_remove(steer_World *w, steer_Agent a); // the handle goes stale at once
// Whether the handle names a live agent (false once it is removed).
STEER_API bool steer_alive(const steer_World *w, steer_Agent a);
// Handle slot `slot`'s current generation (0 beyond the table), to widen a handle kept with fewer bits.
STEER_API uint32_t steer_agent_slot_generation(const steer_World *w, uint32_t slot);

// STEER_PROP_UP is read-only: the agent's up vector, perpendicular to its
// heading (forward, up and side = forward x up make its frame). For a
// point-mass agent it is the world's up (+z) made perpendicular to the
// heading; a craft that banks rolls it into its turns.
typedef enum steer_Prop {
    STEER_PROP_POSITION,
    STEER_PROP_VELOCITY,
    STEER_PROP_HEADING,
    STEER_PROP_FORCE,
    STEER_PROP_UP
} steer_Prop;
typedef enum steer_Param {
    STEER_PARAM_MASS,
    STEER_PARAM_MAX_SPEED,
    STEER_PARAM_MAX_FORCE,
    STEER_PARAM_RADIUS
} steer_Param;
// Read a vector property into out; STEER_ESTALE for a removed agent.
STEER_API int steer_agent_vec(const steer_World *w, steer_Agent a, steer_Prop p, double out[3]);
// Set position, velocity or heading (force and up are read-only: STEER_EARG).
STEER_API int steer_agent_set_vec(steer_World *w, steer_Agent a, steer_Prop p, const double v[3]);
// Kinematic: the host moves the agent itself, setting its position and
// velocity (and heading) between steps; a step neither runs its brain (its
// force stays 0) nor integrates it, the collide pass does not push it (an
// agent it overlaps takes the whole push) and no stuck watch runs for it.
// Every other agent sees it where the host put it, at the velocity the host
// gave: neighbours, avoidance, pursuit and separation read both. Off by
// default; turning it off again resumes steering from the state the host
// left. Kept in snapshots and the world's hash. STEER_EBUSY during a tick.
STEER_API int steer_agent_set_kinematic(steer_World *w, steer_Agent a, bool on);
// Whether the agent is kinematic (false for a stale handle, with STEER_ESTALE).
STEER_API int steer_agent_kinematic(const steer_World *w, steer_Agent a, bool *out);
// Read a vehicle number (mass, max_speed, max_force, radius).
STEER_API int steer_agent_param(const steer_World *w, steer_Agent a, steer_Param p, double *out);
// mass from 1e-6 to 1e30; max_speed, max_force and radius 0 (no speed, force
// or body) or from 1e-6 to 1e30; else STEER_EARG and nothing changes.
STEER_API int steer_agent_set_param(steer_World *w, steer_Agent a, steer_Param p, double v);
// The agent's tag (NULL when untagged), valid while the world lives.
STEER_API int steer_agent_tag(const steer_World *w, steer_Agent a, const char **out);
// Tag the agent (NULL: untagged); STEER_EFULL past the world's limit of tags.
STEER_API int steer_agent_set_tag(steer_World *w, steer_Agent a, const char *tag);
// The agent's brain (NULL: none), not retained for the caller.
STEER_API int steer_agent_brain(const steer_World *w, steer_Agent a, steer_Behavior **out);
// Give the agent a brain (NULL: none); the world keeps it alive while an agent uses it.
STEER_API int steer_agent_set_brain(steer_World *w, steer_Agent a, steer_Behavior *brain);
// The agent's own target slot: a point, an agent, or none (NULL / STEER_NO_AGENT).
STEER_API int steer_agent_set_target(steer_World *w, steer_Agent a, const double *point, steer_Agent other);
// Read the target slot: *kind is a steer_TargetKind (STEER_TARGET_SLOT: none set).
STEER_API int steer_agent_target(const steer_World *w, steer_Agent a, double point[3], steer_Agent *other, int *kind);
// Think at `hz` times per second through hooks.think with host reference
// `ref` (ref 0 or hz 0 stops thinking). The first think comes after a random
// fraction of the period (world RNG), so thinkers spread over ticks.
STEER_API int steer_agent_set_think(steer_World *w, steer_Agent a, int ref, double hz);
// The agent's think reference and rate (both 0 when it does not think).
STEER_API int steer_agent_think(const steer_World *w, steer_Agent a, int *ref, double *hz);
// Make room for `agents` agents in all, so spawning them allocates nothing.
STEER_API int steer_world_reserve(steer_World *w, int agents);
// The agent's private random stream (xorshift32 state, 0 is replaced).
STEER_API int steer_agent_set_rng(steer_World *w, steer_Agent a, uint32_t state);
// Last tick's output of each node of the agent's brain (needs recording on).
// Calls fn once per node in brain order with its name and force.
STEER_API int steer_agent_contributions(const steer_World *w, steer_Agent a,
                                        void (*fn)(void *ud, const char *name, const double f[3]) STEER_NOEXCEPT,
                                        void *ud);

// ---- behaviours and combiners -----------------------------------------
// A behaviour is built from a kind name ("seek", "blend", ...) and fields
// set by name; combiners take children. Behaviours are reference counted;
// a world keeps the brains its agents use alive.
typedef enum steer_TargetKind { STEER_TARGET_SLOT = 0, STEER_TARGET_POINT, STEER_TARGET_AGENT } steer_TargetKind;

// A new behaviour of a kind (steer_kinds() lists them) with one reference; STEER_EARG for an unknown kind.
STEER_API int steer_behavior_new(const char *kind, steer_Behavior **out);
// The same, allocating the node and all it owns (children's slots, name,
// tags, points) with alloc (realloc semantics, as steer_WorldDesc's; NULL:
// libc). The node frees with it when its last reference goes.
STEER_API int steer_behavior_new_alloc(const char *kind, steer_AllocFn alloc, void *alloc_ud, steer_Behavior **out);
// Take a reference.
STEER_API void steer_behavior_retain(steer_Behavior *b);
// Drop a reference; the last one frees it and releases its children. NULL is ignored.
STEER_API void steer_behavior_release(steer_Behavior *b);
// Its kind name.
STEER_API const char *steer_behavior_kind(const steer_Behavior *b);
// Name the node (the inspector and contributions show it); not once it is a brain.
STEER_API int steer_behavior_set_name(steer_Behavior *b, const char *name);
// Its name, or its kind's when it has none.
STEER_API const char *steer_behavior_name(const steer_Behavior *b);
// STEER_EARG outside the field's range, which steer_behavior_error() states;
// a field whose minimum is 0 takes 0 (often "the default") or from 1e-6 up.
STEER_API int steer_behavior_set_number(steer_Behavior *b, const char *field, double v);
// Set a field that takes one of named choices (a path's join, an ease mode).
STEER_API int steer_behavior_set_choice(steer_Behavior *b, const char *field, const char *choice);
// Set a tag field (flocking's `tag`: only neighbours with it count; NULL: any).
STEER_API int steer_behavior_set_tag(steer_Behavior *b, const char *field, const char *tag);
// Set a callback field to the host reference ref (hooks.custom and hooks.ease call it).
STEER_API int steer_behavior_set_callback(steer_Behavior *b, const char *field, int ref);
// Set a target field to a fixed point.
STEER_API int steer_behavior_set_target_point(steer_Behavior *b, const char *field, const double p[3]);
// Set a target field to follow an agent.
STEER_API int steer_behavior_set_target_agent(steer_Behavior *b, const char *field, steer_Agent a);
// Set a vector field.
STEER_API int steer_behavior_set_vector(steer_Behavior *b, const char *field, const double v[3]);
// Set a boolean field.
STEER_API int steer_behavior_set_bool(steer_Behavior *b, const char *field, bool v);
// A list of n points (x, y, z each) for a path or patrol; copied.
STEER_API int steer_behavior_set_points(steer_Behavior *b, const char *field, const double *xyz, int n);
// Adds a child with a weight (blend) or probability; combiners only.
STEER_API int steer_behavior_add_child(steer_Behavior *parent, steer_Behavior *child, double weight);
// Adds a child to a named child list of a combiner (e.g. a pipeline's "constraints").
STEER_API int steer_behavior_add_child_to(steer_Behavior *parent, const char *field, steer_Behavior *child);
// Why the last steer_behavior_* call failed, or "".
STEER_API const char *steer_behavior_error(const steer_Behavior *b);

// Names of all behaviour and combiner kinds, NULL-terminated.
STEER_API const char *const *steer_kinds(void);

// ---- behaviours written by the host ------------------------------------
// A game defines a behaviour kind in C: number parameters, optionally a
// `target` (a point, an agent or the agent's own target slot, like seek),
// and per-agent memory. Scripts build it like a built-in one
// (`steer.NAME{ param = 1, target = ..., name = "..." }`) once it is
// registered with a Lua state (steer_lua_register_host in steer_lua.h, or
// steer_engine_register_behavior in steer_engine.h); combiners nest it and the inspector shows
// its output. The function runs during the steer pass, once per agent per
// tick: it may read agents (steer_agent_vec) but must not query neighbours,
// change the world or block.
#define STEER_HOST_MAX_PARAMS 16
#define STEER_HOST_MAX_MEMORY 64
typedef struct steer_HostCtx {
    steer_World *world;
    steer_Agent agent;
    double position[3], velocity[3], heading[3];
    double mass, max_speed, max_force, radius, dt;
    bool has_target; // the target resolved (a live agent, a point, a set slot)
    double target[3], target_velocity[3];
    const double *params; // this node's parameters, in the descriptor's order
    float *memory;        // this agent's `memory` floats (zero at first), or NULL
} steer_HostCtx;
// Write the steering force into `force` (left at zero: no force). A
// non-finite force is dropped.
typedef void (*steer_HostFn)(void *ud, const steer_HostCtx *ctx, double force[3]) STEER_NOEXCEPT;
typedef struct steer_HostBehaviorDesc {
    const char *name;          // the kind name: an identifier, not a built-in kind's
    const char *const *params; // NULL-terminated parameter names (at most 16; not "target" or "name")
    const double *defaults;    // one default per parameter, or NULL for zeros
    bool target;               // takes a `target` field
    int memory;                // per-agent floats, 0..STEER_HOST_MAX_MEMORY
    steer_HostFn fn;
    void *ud;
} steer_HostBehaviorDesc;
// Both copy what they need of desc. Free a kind only when no behaviour of it is left.
STEER_API int steer_host_kind_new(const steer_HostBehaviorDesc *desc, steer_HostKind **out);
// Free a host kind; NULL is ignored.
STEER_API void steer_host_kind_free(steer_HostKind *k);
// The kind's name.
STEER_API const char *steer_host_kind_name(const steer_HostKind *k);
// A new behaviour of a host kind, its parameters at their defaults, with one reference.
STEER_API int steer_behavior_new_host(const steer_HostKind *k, steer_Behavior **out);

// ---- turn-limited craft ------------------------------------------------
// A craft flies forward only, between min_speed and max_speed, and turns no
// sharper than its turn radius: the force asks for a velocity, the heading
// turns toward it (at most speed / radius rad/s) and the speed follows its
// length (so within max_force). In 3D it banks into its turns
// (STEER_PROP_UP rolls). A point
// mass may carry a turn radius too: it flies as before, and directed seek
// plans with the radius.
typedef enum steer_Model { STEER_MODEL_POINT = 0, STEER_MODEL_CRAFT = 1 } steer_Model;
// The numbers follow steer_spawn's rule for vehicle numbers: from 1e-6 to
// 1e30, or 0 where 0 is allowed (nothing in between).
typedef struct steer_CraftDesc {
    steer_Model model;
    double min_speed;       // 0 or 1e-6 to 1e30, m/s (crafts only; a point's is 0)
    double min_turn_radius; // 1e-6 to 1e30, metres
    double max_turn_accel;  // 0 or 1e-6 to 1e30, m/s^2; > 0: the radius at speed v is max(min_turn_radius, v^2 /
                            // max_turn_accel)
} steer_CraftDesc;
// Give the agent turn limits (NULL: a plain point mass again, no turn radius).
// STEER_EARG for a number out of its range, an unknown model or a point
// with a min_speed; the agent is unchanged then.
STEER_API int steer_agent_set_craft(steer_World *w, steer_Agent a, const steer_CraftDesc *desc);
// 1 and *out filled when the agent has turn limits, 0 when it has none, or an error.
STEER_API int steer_agent_craft(const steer_World *w, steer_Agent a, steer_CraftDesc *out);
// The agent's turn radius at its current speed (0 when it has no turn limits).
STEER_API int steer_agent_turn_radius(const steer_World *w, steer_Agent a, double *out);

// ---- directed seek plans -------------------------------------------------
// What steer.directed_seek (Jakob) decides for one pose, for tests and
// debug drawing. Points and directions are in world coordinates; the plan
// lies in the steering plane through the agent, the target and the target
// heading (the XY plane in 2D), whose normal is axis_x x axis_y, and turns
// are +1 counter-clockwise about that normal, -1 clockwise.
typedef struct steer_SeekPlan {
    int stage;                                  // 1: turning onto the tangent, 2: on it, 3: the final turn
    int cross;                                  // 0: a direct tangent (both turns alike), 1: a cross tangent
    int opposite;                               // 1: the waypoint circle in the half-plane away from the agent (k'_W)
    double radius;                              // the turn radius planned with
    double total_angle;                         // the path's total turning, radians
    double aim[3];                              // the steering direction d_s
    double agent_center[3], waypoint_center[3]; // the path's two circles
    int agent_turn, waypoint_turn;
    double from[3], to[3];       // the straight segment (tangent points)
    double circles[4][3];        // centres of k_A+ (turn +1), k_A- (turn -1), k_W and k'_W
    double axis_x[3], axis_y[3]; // the plane: axis_x = target heading, axis_y toward the agent
} steer_SeekPlan;
// The plan for an agent at `position` with unit `direction` and `speed`,
// seeking `target` with unit `heading`, turn `radius` > 0, tick dt (the
// tolerances scale with speed * dt), `opposite`: consider k'_W.
STEER_API int steer_directed_seek_plan(const double position[3], const double direction[3], double speed,
                                       const double target[3], const double heading[3], double radius, double dt,
                                       bool opposite, steer_SeekPlan *out);
// The plan a directed_seek behaviour makes for the agent's current state
// (its radius rule, target and heading resolved as in a tick). Returns 1 with
// *out filled, 0 when the behaviour has no target or cannot turn, or an error.
STEER_API int steer_agent_directed_seek_plan(steer_World *w, steer_Agent a, const steer_Behavior *b,
                                             steer_SeekPlan *out);

#ifdef __cplusplus
}
#endif

#endif
