// SPDX-License-Identifier: MIT
// brain.h — the contract between the tick and the brains it runs.
//
// A kind (seek, arrive, blend, ... or a host's) is one static steerB_Kind:
// its name, its fields as data (so the C setters and the Lua constructors
// parse them with one generic routine), its evaluation function, and how
// much per-agent memory it keeps. The kinds themselves live outside the
// core, with the behaviours and combiners; the core knows only this contract.
//
// A steer_Behavior is the tree a script builds (tree.c: its life, its
// fields by name, its children). When an agent is given one
// as its brain, the world flattens it into a steerB_Brain (steerB_compile):
// nodes in depth-first order, each with its parameters copied, its offset
// into the agent's memory, and its children's node indices. The steer pass
// evaluates a brain per agent (steerB_Ctx, steerB_eval) or, when every node
// allows it, per batch of agents (steerB_Batch, steerB_eval_batch).
//
// steerB_ is the prefix of this contract and of the behaviours built on it.
#ifndef STEER_BRAIN_H
#define STEER_BRAIN_H

#include "tree.h"
#include "world.h"
#include "neighbors.h"
#include "vecmath.h"
#include <stddef.h>

// Everything one agent's evaluation may read: its own state at tick t, its
// memory and stream, and its neighbours gathered once for the whole brain.
//
// The worker-copy rule in the types (par.h): the world is const, so a node
// writes only what is its own: its agent's rows through the columns'
// pointers (force, memory, stream, record, target slot: row d) and its
// worker's scratch through loc (neighbour and shape queries, events:
// steerT_event_to(c->loc, ...)). A write to the world's own fields, which
// on a worker would land in a copy and vanish, fails to compile.
typedef struct steerB_Ctx {
    const steer_World *w;
    steerW_Local *loc; // the worker's scratch (the calling thread's: &world->loc)
    // The world itself, writable, for the nodes that call the host (a host
    // kind, a callback, an ease function; steerB_Brain.host): such brains
    // run on the calling thread only, where this is set. NULL on workers.
    steer_World *host;
    const steerB_Brain *brain;
    uint32_t d;
    float p[3], v[3], h[3];
    float mass, max_speed, max_force, radius;
    float dt;
    float *mem;
    uint32_t *rng;
    float *rec;
    const steerB_Neighbor *nb;
    int nn;
    steerB_Summary sums[STEERB_MAX_SUMS]; // the brain's summary slots for this agent
    // Orientation-only behaviours (face, look_where_going) write the
    // heading the agent should have after this tick; locomotion applies it
    // instead of deriving the heading from the velocity.
    float face[3];
    bool facing;
    // While a steer.pipeline runs its parts: its goal, a steerB_Goal
    // (the behaviours' goal.h) the parts read and write; a behaviour whose
    // target is the agent's own slot steers to the goal instead (see
    // steerB_target). NULL outside a pipeline; the pipeline restores it.
    void *goal;
} steerB_Ctx;

// A batch: up to STEERB_BATCH agents of one brain, evaluated node by node
// instead of agent by agent (see pass_steer in tick.c). It holds what a
// batched node may read: each agent's own state at tick t, its summary
// slots, and (through d) its memory and stream. Nothing of other agents,
// so a world whose brains all run batched may integrate each agent as soon
// as its force is known.

typedef struct steerB_Batch {
    const steer_World *w; // read-only, as in steerB_Ctx
    steerW_Local *loc;    // the worker's scratch
    const steerB_Brain *brain;
    int n;
    float dt;
    uint32_t d[STEERB_BATCH];
    steerB_Lanes p, v, h;
    float mass[STEERB_BATCH], max_speed[STEERB_BATCH], max_force[STEERB_BATCH];
    steerB_Summary sums[STEERB_BATCH][STEERB_MAX_SUMS];
} steerB_Batch;

static inline void steerB_lane(steerB_Lanes l, int k, float o[3]) // not const: C17 would warn at every call
{
    o[0] = l[0][k];
    o[1] = l[1][k];
    o[2] = l[2][k];
}
static inline void steerB_set_lane(steerB_Lanes l, int k, const float a[3])
{
    l[0][k] = a[0];
    l[1][k] = a[1];
    l[2][k] = a[2];
}

struct steerB_Node {
    const steerB_Kind *kind;
    const char *name; // points into the brain's behaviour tree (kept alive)
    float weight;     // given by the parent: blend weight or probability
    uint32_t mem;     // offset of this node's memory in the agent's memory
    uint16_t nchild;
    uint16_t first; // index into brain->kids of the first child
    uint8_t sum;    // summary slot in the brain, or STEERB_NO_SUM
    uint16_t rec;   // where the kind's rec_of floats start in the agent's record row (0: none)
    _Alignas(double) unsigned char params[STEERB_PARAMS];
};

struct steerB_Brain {
    steer_Behavior *root; // retained (and with it every node's points)
    steerB_Node *nodes;
    uint16_t *kids;
    uint8_t *kid_roles; // per entry of kids: the role of the child (see steer_Behavior)
    uint32_t nnodes;
    uint32_t mem_floats;
    uint32_t rec_floats; // an agent's record row: 3 per node, then the nodes' rec_of floats
    float sense;         // largest neighbour radius of any node
    uint32_t users;      // agents using this brain
    bool list;           // some node reads the neighbour list itself
    uint8_t nearest;     // every node reading the list reads only its nearest, at most this many (0: not so)
    bool faces;          // some node may set the facing
    bool batch;          // every node has eval_batch and reads summaries only: runs batched
    bool host;           // some node calls the host (a host kind, a callback, an ease function):
                         // its agents are evaluated on the calling thread, after the others
    uint8_t nsums;       // summary slots (distinct untagged summary radii)
    float sum_r2[STEERB_MAX_SUMS];
    uint8_t sum_need[STEERB_MAX_SUMS]; // the parts of each slot its nodes read
};

// Evaluate node `i` of the context's brain, recording its output when the
// world records. Nodes guard their own divisions; the steer pass checks the
// brain's final force once and drops a non-finite one, so NaN or infinity
// from a host callback never reaches the world.
static inline void steerB_eval(steerB_Ctx *c, uint32_t i, float out[3]);

// Flatten a behaviour tree into a brain for world w; NULL on failure with
// *status STEER_ENOMEM, or STEER_EARG when a node fails its cross-field
// check (the node's steer_behavior_error() says why).
steerB_Brain *steerB_compile(steer_World *w, steer_Behavior *root, int *status);
void steerB_brain_free(steer_World *w, steerB_Brain *b);
// Initialise an agent's memory for its brain.
void steerB_init_agent(steer_World *w, uint32_t d);
// The world's brains (brain.c), between ticks: the brain id of a behaviour
// tree, compiling it on first use (0 for NULL), or a negative status;
// giving dense agent d that brain; freeing the brains no agent uses (and
// shrinking the sensing radius and record size to the rest); freeing all.
int steerB_brain_id(steer_World *w, steer_Behavior *b);
void steerB_set_brain(steer_World *w, uint32_t d, int id);
void steerB_collect_brains(steer_World *w);
void steerB_brains_free(steer_World *w);
// The kinds that serve requests (steerB_Kind.serve), once a tick after
// the passes: each kind of steerB_kinds that a brain in use has, in the
// table's order, sharing the tick's budget (w->path_budget). STEER_ENOMEM
// when a kind's scratch slot could not be made (it is skipped this tick).
int steerB_serve(steer_World *w);
// Free every serving kind's scratch (the world's end).
void steerB_served_free(steer_World *w);
// The requests a serving kind's nodes wrote, as serve finds them. The
// protocol: a node's memory holds its state in its first float and, while
// the state is `requested`, the tick of the request in its second
// (steerB_request_tick: the tick modulo 2^24, a float that holds it
// exactly: memory must stay finite numbers, which a snapshot checks).
// Requests are served oldest first (by the ticks since the request, modulo
// 2^24: right for any request younger than 2^24 ticks, 77 hours at 60 Hz),
// then by the agent's handle slot (then by node in the brain): an order
// that depends on neither storage order nor threads, and survives a
// snapshot (memory is saved) and a rewind.
#define STEERB_TICK_MASK 0xFFFFFFu
typedef struct steerB_Request {
    uint32_t tick, slot; // the order: tick is 2^24 - 1 minus the request's age
    uint32_t d, node;    // the agent (dense, this tick) and its brain's node
} steerB_Request;
// Every request of kind k's nodes, sorted, into *out (grown with the
// world's allocator, *cap items); their number, or -1 out of memory.
int64_t steerB_requests(steer_World *w, const steerB_Kind *k, float requested, steerB_Request **out, uint32_t *cap);
// Write the tick of a request into a node's memory (mem: the node's).
void steerB_request_tick(const steer_World *w, float *mem);

// The neighbour summary of a summary node: its precomputed slot, or (when
// the node is tagged or the brain ran out of slots) computed from the
// neighbour list into *tmp.
const steerB_Summary *steerB_summary(const steerB_Ctx *c, const steerB_Node *n, float radius, uint16_t tag,
                                     steerB_Summary *tmp);
static inline void steerB_eval(steerB_Ctx *c, uint32_t i, float out[3])
{
    const steerB_Node *n = &c->brain->nodes[i];
    n->kind->eval(c, n, out);
    if (c->rec) v3_copy(c->rec + 3 * i, out);
}

// Evaluate node i for the whole batch, recording each agent's output when
// the world records.
static inline void steerB_eval_batch(steerB_Batch *bt, uint32_t i, steerB_Lanes out)
{
    const steerB_Node *n = &bt->brain->nodes[i];
    n->kind->eval_batch(bt, n, out);
    const steer_World *w = bt->w;
    if (w->record && w->rec_stride)
        for (int k = 0; k < bt->n; k++) {
            float *r = w->rec + (size_t)bt->d[k] * w->rec_stride + 3 * i;
            r[0] = out[0][k];
            r[1] = out[1][k];
            r[2] = out[2][k];
        }
}

#define STEERB_PARAMS_OF(n, T) ((const T *)(const void *)(n)->params)
#define STEERB_CHECK_SIZE(T) _Static_assert(sizeof(T) <= STEERB_PARAMS, #T " too large")

#endif
