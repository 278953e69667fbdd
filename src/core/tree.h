// SPDX-License-Identifier: MIT
// tree.h — behaviour trees as data: the kinds' contract as far as a tree
// needs it (field types and fields, resources, how a kind takes children),
// the tree node itself (struct steer_Behavior) and its life (tree.c).
// Nothing here reads a world: the bindings build and read trees through
// this header, and brain.h adds what running them needs (the evaluation
// context, compiled brains, the world's table of them).
#ifndef STEER_TREE_H
#define STEER_TREE_H

#include "steer.h"
#include "base.h"
#include "bytes.h"
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

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
                     // max > 0 caps their number, min > 0 asks for at least that many (checked
                     // when the brain is compiled), choices (kind names) limits their kinds;
                     // def != 0: entries may carry a weight, {behaviour, weight} (finite, >= 0)
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
    // The memory obj holds, when a node is all that holds it (navigate's
    // costs): a binding charges it to the script that made the node (a
    // mod's cap). NULL: the resource is charged where it was made (a mesh).
    size_t (*bytes)(const void *obj);
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
typedef struct steerB_Ctx steerB_Ctx;     // brain.h: one agent's evaluation
typedef struct steerB_Batch steerB_Batch; // brain.h: a batch of agents
typedef void (*steerB_EvalFn)(steerB_Ctx *c, const steerB_Node *n, float out[3]);

#define STEERB_BATCH 32
typedef float steerB_Lanes[3][STEERB_BATCH]; // one vector per agent, by component

// Evaluate a node for every agent of the batch into out. It must give, bit
// for bit, what eval gives one agent at a time: both call the same inline
// force function, so the path taken never changes a trajectory.
typedef void (*steerB_BatchFn)(steerB_Batch *bt, const steerB_Node *n, steerB_Lanes out);

// How a kind takes children: none, a list of {behaviour, weight}, a plain
// list, or only through its STEERB_CHILDREN fields.
typedef enum steerB_Children { STEERB_LEAF = 0, STEERB_WEIGHTED, STEERB_LIST, STEERB_NAMED } steerB_Children;

// What a combiner's recorded output says of its children, for a debug view
// (the viewer's inspector) that knows no kind by name.
typedef enum steerB_Explain {
    STEERB_EXPLAIN_NONE = 0, // nothing beyond the forces themselves
    STEERB_EXPLAIN_WINNER,   // it passes one child's force on unchanged (priority, dither): that child won
    STEERB_EXPLAIN_SUM,      // it sums its children's forces times their weights, then truncates:
                             // the difference is what truncation cut
    STEERB_EXPLAIN_MAPS      // it records interest and danger maps (a context: rec_of, steer_debug_context)
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
    // The node reads of its neighbour list only its k nearest within its
    // sense radius (by squared distance, ties to the lower handle id,
    // whatever the list's order): returns k, or 0 when it reads more
    // (NULL: more). When every node that reads the list says so, the steer
    // pass gathers it nearest first and stops early (steerG_nearest): the
    // list then holds the largest k's nearest, ties included, and maybe a
    // few more, never all the others.
    int (*nearest)(const steerB_Node *n);
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
    // A kind whose agents ask for work too big for the steer pass (a path
    // search: navigate) writes the request in the agent's memory; serve
    // does the work once a tick after the passes, on the calling thread,
    // when a brain in use has the kind (tick.c), in an order of its own
    // that depends on nothing but the world. *budget is the work left this
    // tick (the world's path_budget at the start, shared by every serving
    // kind): serve lowers it by what it used, and starts nothing once it is
    // spent. *state is the kind's scratch in this world (NULL at first);
    // serve_free frees it with the world. Serve keeps nothing between ticks
    // but in the agents' memory, so a snapshot holds every request.
    void (*serve)(steer_World *w, void **state, uint32_t *budget);
    void (*serve_free)(steer_World *w, void *state);
    // For a debug view: the way ahead that an agent's memory (mem: this
    // node's) holds, up to cap points of 3 floats into xyz, and what state
    // it is in, in words, into note (note_cap bytes); the points' number.
    // NULL: the kind keeps no way (steer_debug.h's route, steer_debug_routes).
    int (*route)(const float *mem, float *xyz, int cap, char *note, size_t note_cap);
    // Works out, once, what eval would otherwise work out from the node's
    // fields every tick (navigate: whether its area costs exclude an area,
    // whether they are all one), into params: the compiled node's, at
    // compile and whenever steer_world_replace_resource swaps one of its
    // resources. NULL: nothing to work out.
    void (*derive)(void *params);
    // Per-agent memory that depends on the node's fields (params: the
    // compiled node's), instead of mem_floats. NULL: mem_floats.
    uint16_t (*mem_of)(const void *params);
    // Floats the node records per agent beyond its output, when the world
    // records (steer_world_set_record), at steerB_Node.rec of the agent's
    // record row; NULL: none. An explain of STEERB_EXPLAIN_MAPS lays them
    // out as STEERB_MAPS_* says.
    uint16_t (*rec_of)(const void *params);
} steerB_Kind;

// The record of a kind that explains by maps: the chosen slot (-1: none),
// the chosen direction's angle in radians (counter-clockwise from +x, the
// sub-slot refinement included), the speed asked for, the danger above
// which a slot is masked, then `slots` interest values and `slots` danger
// values (slot 0 along +x, counter-clockwise; before the mask).
enum { STEERB_MAPS_CHOSEN = 0, STEERB_MAPS_ANGLE, STEERB_MAPS_SPEED, STEERB_MAPS_CUTOFF, STEERB_MAPS_HEAD };

struct steer_Behavior {
    const void *lib; // &steerA_lib: made by this copy of steer (first, where every copy looks; base.h)
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
// Add child to parent's CHILDREN field `field` with a weight (a field
// whose def is 0 takes 1 only): steer_behavior_add_child_to with a weight.
int steerB_add_child_to(steer_Behavior *parent, const char *field, steer_Behavior *child, double weight);
// A node's error, into its steer_behavior_error() text; returns code.
int steerB_fail(steer_Behavior *b, int code, const char *fmt, ...) STEERS_PRINTF(3, 4);

#endif
