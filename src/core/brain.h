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

#include "world.h"
#include "neighbors.h"
#include "vecmath.h"
#include "bytes.h"
#include <stddef.h>

#define STEERB_PARAMS 96 // bytes of parameters a node holds inline
#define STEERB_MAX_CHILDREN 64
#define STEERB_MAX_DEPTH 64    // levels of a behaviour tree (evaluation recurses per level)
#define STEERB_MAX_NODES 65535 // nodes of a flattened brain (child indices are 16-bit)

typedef enum steerB_FieldType {
    STEERB_NUMBER,   // float at offset; range [min, max] by steerB_number_ok
    STEERB_TARGET,   // steerB_Target at offset
    STEERB_CHOICE,   // uint8 index into choices at offset
    STEERB_TAG,      // uint16 tag id at offset (interned when the brain is compiled)
    STEERB_CALLBACK, // int host reference at offset (0 none)
    STEERB_EASE,     // a choice ("linear", "smooth") or a callback: steerB_Ease at offset
    STEERB_VECTOR,   // float[3] at offset (z = 0 in 2D)
    STEERB_BOOL,     // uint8 0/1 at offset
    STEERB_POINTS,   // steerB_Points at offset: a list of points the behaviour owns
    STEERB_CHILDREN, // a named list of child behaviours; children carry the field's role;
                     // max > 0 caps their number, choices (kind names) limits their kinds
    STEERB_RESOURCE  // a pointer at offset to an object of another module that the node holds a
                     // reference to (a flow field; a navigation mesh): steerB_field_resource says which;
                     // min > 0: scripts must give it
} steerB_FieldType;

// A kind of resource: reference-counted data that behaviours hold and
// share (a flow field, a navigation mesh). A node retains what a RESOURCE
// field points at and releases it when the field changes or the node dies.
typedef struct steerB_ResourceKind {
    const char *name; // what it is, for messages ("flow field")
    const char *type; // its type in the Lua API's annotations ("steer.FlowField")
    void (*retain)(void *obj);
    void (*release)(void *obj);
    // A resource that is plain data saves itself (a navigation mesh): a
    // snapshot writes each object once, in its trees section, through
    // encode, and a load makes it again through decode (a new object with
    // one reference, the caller's, allocated with alloc; NULL with the
    // reader's failure set when the bytes are not one, or with *oom set).
    // A kind without them (the flow field, which belongs to a grid the
    // host holds) is saved as a number the host gives, through steer_Hooks'
    // save_ref and load_ref. Adding a resource kind takes its own module
    // (this struct) and its binding's registration, nothing else.
    void (*encode)(const void *obj, steerS_Writer *out);
    void *(*decode)(steerS_Reader *in, steer_AllocFn alloc, void *alloc_ud, bool *oom);
} steerB_ResourceKind;

typedef struct steerB_Field {
    const char *name;
    steerB_FieldType type;
    uint16_t offset;
    float def;
    double min, max; // as written, so that messages quote them exactly
    // What a user must give, for error messages. A number field's names
    // what the number is ("a number of seconds"), optionally followed by a
    // note in parentheses; steerB_expect inserts the range before the note.
    const char *expect;
    // STEERB_CHOICE: NULL-terminated; CHILDREN: the kinds it takes; RESOURCE:
    // the steerB_ResourceKind it holds, given as STEERB_RESOURCE_KIND(&kind)
    // and read by steerB_field_resource (so every row stays positional)
    const char *const *choices;
} steerB_Field;

#define STEERB_RESOURCE_KIND(k) ((const char *const *)(const void *)(k))
static inline const steerB_ResourceKind *steerB_field_resource(const steerB_Field *f)
{
    return (const steerB_ResourceKind *)(const void *)f->choices;
}

typedef struct steerB_Target {
    uint8_t kind; // steer_TargetKind
    float p[3];
    steer_Agent agent;
} steerB_Target;

typedef struct steerB_Points {
    const float *p; // n points of 3 floats, owned by the steer_Behavior
    uint32_t n;
} steerB_Points;

typedef struct steerB_Ease {
    uint8_t curve; // 0 linear, 1 smooth, 2 callback
    int ref;
} steerB_Ease;

typedef struct steerB_Node steerB_Node;

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

typedef void (*steerB_EvalFn)(steerB_Ctx *c, const steerB_Node *n, float out[3]);

// A batch: up to STEERB_BATCH agents of one brain, evaluated node by node
// instead of agent by agent (see pass_steer in tick.c). It holds what a
// batched node may read: each agent's own state at tick t, its summary
// slots, and (through d) its memory and stream. Nothing of other agents,
// so a world whose brains all run batched may integrate each agent as soon
// as its force is known.
#define STEERB_BATCH 32
typedef float steerB_Lanes[3][STEERB_BATCH]; // one vector per agent, by component

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

// Evaluate a node for every agent of the batch into out. It must give, bit
// for bit, what eval gives one agent at a time: both call the same inline
// force function, so the path taken never changes a trajectory.
typedef void (*steerB_BatchFn)(steerB_Batch *bt, const steerB_Node *n, steerB_Lanes out);

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

// How a kind takes children: none, a list of {behaviour, weight}, a plain
// list, or only through its STEERB_CHILDREN fields.
typedef enum steerB_Children { STEERB_LEAF = 0, STEERB_WEIGHTED, STEERB_LIST, STEERB_NAMED } steerB_Children;

// What a combiner's recorded output says of its children, for a debug view
// (the viewer's inspector) that knows no kind by name.
typedef enum steerB_Explain {
    STEERB_EXPLAIN_NONE = 0, // nothing beyond the forces themselves
    STEERB_EXPLAIN_WINNER,   // it passes one child's force on unchanged (priority, dither): that child won
    STEERB_EXPLAIN_SUM       // it sums its children's forces times their weights, then truncates:
                             // the difference is what truncation cut
} steerB_Explain;

typedef struct steerB_Kind {
    const char *name;
    const steerB_Field *fields; // terminated by a NULL name
    steerB_EvalFn eval;
    steerB_Children children;
    uint16_t mem_floats; // per-agent memory this node needs
    // Initialise this node's memory for an agent (NULL: zeros).
    void (*init)(steerB_Ctx *c, const steerB_Node *n);
    // Radius of neighbours this node reads (NULL or 0: none).
    float (*sense)(const steerB_Node *n);
    // Cross-field checks after construction; writes a message, returns 0 if bad.
    int (*check)(const void *params, char *msg, size_t len);
    // The node reads its neighbours only through these parts of a
    // steerB_Summary within its sense radius (STEERB_SUM_*, 0: not at all):
    // the engine then computes them in a vectorised pass per radius,
    // without a neighbour list.
    uint8_t summary;
    // The node may set the agent's facing (ctx face/facing) instead of
    // letting the heading follow the velocity.
    bool faces;
    // A kind the host defined at run time (host.c): its definition.
    const void *host;
    // The node for a whole batch (NULL: not batchable). Only for kinds
    // that read nothing but the batch; a brain runs batched when all its
    // nodes have one.
    steerB_BatchFn eval_batch;
    // How a debug view reads the node's output against its children's.
    steerB_Explain explain;
    // A WEIGHTED or LIST kind that means something without children too
    // (reciprocal: avoidance alone); the others need at least one.
    bool children_optional;
} steerB_Kind;

struct steerB_Node {
    const steerB_Kind *kind;
    const char *name; // points into the brain's behaviour tree (kept alive)
    float weight;     // given by the parent: blend weight or probability
    uint32_t mem;     // offset of this node's memory in the agent's memory
    uint16_t nchild;
    uint16_t first; // index into brain->kids of the first child
    uint8_t sum;    // summary slot in the brain, or STEERB_NO_SUM
    _Alignas(double) unsigned char params[STEERB_PARAMS];
};

struct steerB_Brain {
    steer_Behavior *root; // retained (and with it every node's points)
    steerB_Node *nodes;
    uint16_t *kids;
    uint8_t *kid_roles; // per entry of kids: the role of the child (see steer_Behavior)
    uint32_t nnodes;
    uint32_t mem_floats;
    float sense;    // largest neighbour radius of any node
    uint32_t users; // agents using this brain
    bool list;      // some node reads the neighbour list itself
    bool faces;     // some node may set the facing
    bool batch;     // every node has eval_batch and reads summaries only: runs batched
    bool host;      // some node calls the host (a host kind, a callback, an ease function):
                    // its agents are evaluated on the calling thread, after the others
    uint8_t nsums;  // summary slots (distinct untagged summary radii)
    float sum_r2[STEERB_MAX_SUMS];
    uint8_t sum_need[STEERB_MAX_SUMS]; // the parts of each slot its nodes read
};

struct steer_Behavior {
    const steerB_Kind *kind;
    steer_AllocFn alloc; // what the node and everything it owns are allocated with (never NULL)
    void *alloc_ud;
    int refs;
    bool frozen; // in use as a brain: no more changes
    char *name;
    float weight;
    steer_Behavior **kids;
    float *kid_weights;
    uint8_t *kid_roles; // index of the STEERB_CHILDREN field a child came from (0: the plain list)
    uint16_t nkids;
    uint16_t height;                 // levels of the tree below and including this node, as of its children's adds
    bool seen;                       // a mark of the walk in add_child (clear between walks)
    steer_Behavior *next_dead;       // the list of nodes steer_behavior_release frees
    const steer_World *target_world; // the world of the agents in its target fields (set by the bindings)
    char *tags[4];                   // tag field values by field order (interned at compile)
    float *points;                   // the STEERB_POINTS field's points (3 floats each)
    char error[200];
    _Alignas(double) unsigned char params[STEERB_PARAMS];
};

// ---- trees (tree.c) ----

// Every kind, NULL-terminated: the one table through which the core
// reaches the behaviours and combiners (defined by src/behaviors/kinds.c).
extern const steerB_Kind *const steerB_kinds[];
const steerB_Kind *steerB_find_kind(const char *name);
const steerB_Field *steerB_find_field(const steerB_Kind *k, const char *name);
// A new behaviour of kind k (built-in or a host's), fields at their
// defaults, allocated with libc (steerB_new) or alloc (NULL: libc).
int steerB_new(const steerB_Kind *k, steer_Behavior **out);
int steerB_new_alloc(const steerB_Kind *k, steer_AllocFn alloc, void *alloc_ud, steer_Behavior **out);
// Point RESOURCE field `field` of b at obj (NULL: none), an object of
// `kind`: the node takes a reference to it and drops the one it held.
// STEER_EARG (with steer_behavior_error) for another field type or kind, or
// a frozen node.
int steerB_set_resource(steer_Behavior *b, const char *field, const steerB_ResourceKind *kind, void *obj);
// What RESOURCE field f of b points at, or NULL.
void *steerB_resource(const steer_Behavior *b, const steerB_Field *f);
// What a number in [min, max] under that rule is, for an error message:
// "[0 or ]WHAT >= LO and <= HI[ (NOTE)]" from what = "WHAT[ (NOTE)]", with
// the bounds written as the shortest text that reads back as them. Into
// buf (len bytes); returns buf.
const char *steerB_range_text(char *buf, size_t len, const char *what, double min, double max);
// A field's expectation: steerB_range_text for a number field, its expect
// otherwise. Into buf (for a number field); returns the text.
const char *steerB_expect(const steerB_Field *f, char *buf, size_t len);

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
// A node's error, into its steer_behavior_error() text; returns code.
int steerB_fail(steer_Behavior *b, int code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

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
