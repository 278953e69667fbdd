// SPDX-License-Identifier: MIT
// test_resource.c — a resource kind that saves itself, and the core as a
// plug-in host: this program links the core's sources alone (no
// behaviour, no combiner) with a kinds table of its own, as a game that
// adds its own kinds to a core-only build would. Its one kind,
// "go_beacon", steers toward a "beacon": a reference-counted resource
// with encode and decode, the shape a navigation mesh takes. Snapshots
// carry the beacons themselves: shared ones stay shared, the world loaded
// runs to the same hash, save -> load -> save gives the same bytes, every
// beacon comes back (counted), and bad bytes or a failing allocator are
// refused with nothing leaked.
#include "buf.h"
#include "check.h"
#include "counting.h"
#include "core/brain.h"

#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

// ---- the resource ----------------------------------------------------------

typedef struct Beacon {
    atomic_int refs;
    float p[3];
    float pull;
    steer_AllocFn alloc;
    void *alloc_ud;
} Beacon;

static atomic_int live_beacons;

static void *plain_alloc(void *ud, void *p, size_t n)
{
    (void)ud;
    if (!n) {
        free(p);
        return NULL;
    }
    return realloc(p, n);
}

static Beacon *beacon_new(steer_AllocFn alloc, void *ud, float x, float y, float pull)
{
    if (!alloc) alloc = plain_alloc;
    Beacon *b = alloc(ud, NULL, sizeof *b);
    if (!b) return NULL;
    atomic_init(&b->refs, 1);
    b->p[0] = x, b->p[1] = y, b->p[2] = 0;
    b->pull = pull;
    b->alloc = alloc;
    b->alloc_ud = ud;
    atomic_fetch_add(&live_beacons, 1);
    return b;
}

static void beacon_retain(void *obj) { atomic_fetch_add(&((Beacon *)obj)->refs, 1); }
static void beacon_release(void *obj)
{
    Beacon *b = obj;
    if (atomic_fetch_sub(&b->refs, 1) != 1) return;
    atomic_fetch_sub(&live_beacons, 1);
    b->alloc(b->alloc_ud, b, 0);
}

static void beacon_encode(const void *obj, steerS_Writer *out)
{
    const Beacon *b = obj;
    for (int i = 0; i < 3; i++) steerS_put_f32(out, b->p[i]);
    steerS_put_f32(out, b->pull);
}

static void *beacon_decode(steerS_Reader *in, steer_AllocFn alloc, void *ud, bool *oom)
{
    float v[4];
    for (int i = 0; i < 4; i++) v[i] = steerS_get_f32(in);
    if (in->failed) return NULL;
    for (int i = 0; i < 4; i++)
        if (!isfinite(v[i])) {
            steerS_fail(in, "a beacon at a non-finite place");
            return NULL;
        }
    Beacon *b = beacon_new(alloc, ud, v[0], v[1], v[3]);
    if (!b) *oom = true;
    return b;
}

static const steerB_ResourceKind beacon_kind = { .name = "beacon",
                                                 .type = "Beacon",
                                                 .retain = beacon_retain,
                                                 .release = beacon_release,
                                                 .encode = beacon_encode,
                                                 .decode = beacon_decode };

// ---- the kind ----------------------------------------------------------------

typedef struct GoBeacon {
    const Beacon *beacon;
    float gain;
    float pull; // gain * the beacon's pull (go_derive), not a field
} GoBeacon;

static const steerB_Field go_fields[] = {
    { "beacon", STEERB_RESOURCE, offsetof(GoBeacon, beacon), 0, 1, 0, "a beacon", STEERB_RESOURCE_KIND(&beacon_kind) },
    { "gain", STEERB_NUMBER, offsetof(GoBeacon, gain), 1, 0, 100, "a gain", NULL },
    { NULL, 0, 0, 0, 0, 0, NULL, NULL },
};

static void go_eval(steerB_Ctx *c, const steerB_Node *n, float out[3])
{
    const GoBeacon *g = STEERB_PARAMS_OF(n, GoBeacon);
    for (int i = 0; i < 3; i++) out[i] = (g->beacon->p[i] - c->p[i]) * g->pull;
}

// What eval reads, worked out when the node is compiled or its beacon replaced.
static void go_derive(void *params)
{
    GoBeacon *g = params;
    g->pull = g->beacon ? g->gain * g->beacon->pull : 0.0f;
}

static const steerB_Kind go_beacon = { .name = "go_beacon", .fields = go_fields, .eval = go_eval, .derive = go_derive };

// The core reaches its kinds through this table only (src/behaviors/kinds.c
// defines the built-in one; this program links none of it).
const steerB_Kind *const steerB_kinds[] = { &go_beacon, NULL };

// ---- the worlds ----------------------------------------------------------------

static steer_Behavior *go(const Beacon *b, double gain)
{
    steer_Behavior *n = NULL;
    if (steer_behavior_new("go_beacon", &n) != STEER_OK) return NULL;
    steerB_set_resource(n, "beacon", &beacon_kind, (void *)(uintptr_t)b);
    steer_behavior_set_number(n, "gain", gain);
    return n;
}

// Three brains over two beacons: the first beacon shared by two trees.
static steer_World *make_world(steer_AllocFn alloc, void *ud)
{
    steer_WorldDesc d = { .alloc = alloc, .alloc_ud = ud, .seed = 3 };
    steer_World *w = NULL;
    if (steer_world_new(&d, &w) != STEER_OK) return NULL;
    Beacon *b1 = beacon_new(NULL, NULL, 10, 5, 0.5f), *b2 = beacon_new(NULL, NULL, -4, 8, 2);
    steer_Behavior *t[3] = { go(b1, 1), go(b1, 3), go(b2, 1) };
    for (int i = 0; i < 12; i++) {
        steer_AgentDesc a = {
            .position = { i * 1.5, i % 3, 0 }, .max_speed = 2, .max_force = 1 + i % 2, .brain = t[i % 3]
        };
        steer_spawn(w, &a, NULL);
    }
    for (int i = 0; i < 3; i++) steer_behavior_release(t[i]);
    beacon_release(b1);
    beacon_release(b2);
    return w;
}

static const Beacon *beacon_of(const steer_World *w, uint32_t brain)
{
    const steer_Behavior *root = w->brains[brain]->root;
    return steerB_resource(root, &root->kind->fields[0]);
}

static void test_round_trip(void)
{
    steer_World *w = make_world(NULL, NULL);
    REQUIRE(w, "world");
    REQUIRE(atomic_load(&live_beacons) == 2, "two beacons live: %d", atomic_load(&live_beacons));
    steer_world_step(w, 20);
    size_t n1, n2;
    unsigned char *s1 = save(w, &n1);
    REQUIRE(s1, "save");
    steer_World *l = NULL;
    char err[200] = "";
    int st = steer_world_load(NULL, s1, n1, &l, err, sizeof err);
    REQUIRE(st == STEER_OK, "load: %s", err);
    CHECK(atomic_load(&live_beacons) == 4, "the load made each beacon once: %d live", atomic_load(&live_beacons));
    REQUIRE(l->nbrains == 4, "three brains and id 0: %u", l->nbrains);
    CHECK(beacon_of(l, 1) == beacon_of(l, 2) && beacon_of(l, 1) != beacon_of(l, 3), "the shared beacon stays shared");
    CHECK(beacon_of(l, 1) != beacon_of(w, 1) && beacon_of(l, 1)->pull == 0.5f && beacon_of(l, 3)->p[0] == -4.0f,
          "the loaded world holds copies of its own");
    unsigned char *s2 = save(l, &n2);
    CHECK(s2 && n1 == n2 && memcmp(s1, s2, n1) == 0, "save -> load -> save: the same bytes (%zu, %zu)", n1, n2);
    steer_world_step(w, 40);
    steer_world_step(l, 40);
    CHECK(steer_world_hash(w) == steer_world_hash(l), "the loaded world runs on to the same hash");
    steer_world_free(w);
    CHECK(atomic_load(&live_beacons) == 2, "the first world let go of its beacons: %d", atomic_load(&live_beacons));
    steer_world_free(l);
    CHECK(atomic_load(&live_beacons) == 0, "every beacon came back: %d live", atomic_load(&live_beacons));
    free(s1);
    free(s2);
}

// The first beacon's bytes in a snapshot: its x, as written.
static size_t find_beacon(const unsigned char *s, size_t n)
{
    float x = 10.0f, y = 5.0f;
    for (size_t i = 0; i + 8 <= n; i++)
        if (memcmp(s + i, &x, 4) == 0 && memcmp(s + i + 4, &y, 4) == 0) return i;
    return 0;
}

static void test_bad_bytes(void)
{
    steer_World *w = make_world(NULL, NULL);
    REQUIRE(w, "world");
    size_t n;
    unsigned char *s = save(w, &n);
    REQUIRE(s, "save");
    size_t at = find_beacon(s, n);
    REQUIRE(at > 12, "the beacon's bytes are in the snapshot");
    // a beacon at a NaN place (checksum fixed up below by the format's rule)
    unsigned char *bad = malloc(n);
    memcpy(bad, s, n);
    float nan = NAN;
    memcpy(bad + at, &nan, 4);
    uint64_t h = steerS_checksum(bad + 8, n - 16);
    steerS_store_le(bad + n - 8, h, 8);
    steer_World *l = NULL;
    char err[200] = "";
    int st = steer_world_load(NULL, bad, n, &l, err, sizeof err);
    CHECK(st == STEER_EARG && !l, "a NaN beacon is refused: %d", st);
    CHECK(strstr(err, "beacon") != NULL, "the message names the resource: %s", err);
    // a length that claims one byte more than the beacon has
    memcpy(bad, s, n);
    uint32_t len = (uint32_t)steerS_load_le(bad + at - 4, 4);
    CHECK(len == 16, "a beacon is 16 bytes: %u", len);
    steerS_store_le(bad + at - 4, len - 4, 4);
    h = steerS_checksum(bad + 8, n - 16);
    steerS_store_le(bad + n - 8, h, 8);
    err[0] = 0;
    st = steer_world_load(NULL, bad, n, &l, err, sizeof err);
    CHECK(st == STEER_EARG && !l && strstr(err, "beacon"), "a short beacon is refused: %s", err);
    CHECK(atomic_load(&live_beacons) == 2, "nothing leaked from refused loads: %d live", atomic_load(&live_beacons));
    free(bad);
    free(s);
    steer_world_free(w);
    CHECK(atomic_load(&live_beacons) == 0, "every beacon came back: %d live", atomic_load(&live_beacons));
}

// A failure at each allocation of a load: STEER_ENOMEM, and every block and
// every beacon back.
static void test_alloc_failure(void)
{
    steer_World *w = make_world(NULL, NULL);
    REQUIRE(w, "world");
    size_t n;
    unsigned char *s = save(w, &n);
    REQUIRE(s, "save");
    int failures = 0;
    for (long k = 1;; k++) {
        Counting c = { .fail_from = k };
        steer_WorldDesc d = { .alloc = counting_alloc, .alloc_ud = &c };
        steer_World *l = NULL;
        int st = steer_world_load(&d, s, n, &l, NULL, 0);
        if (st == STEER_OK) {
            steer_world_free(l);
            CHECK(c.live == 0, "a load at %ld: %ld blocks left", k, c.live);
            break;
        }
        failures++;
        CHECK(st == STEER_ENOMEM, "a failure at call %ld gives STEER_ENOMEM: %d", k, st);
        CHECK(c.live == 0, "a failure at call %ld leaves %ld blocks", k, c.live);
        CHECK(atomic_load(&live_beacons) == 2, "a failure at call %ld leaves %d beacons", k,
              atomic_load(&live_beacons));
        if (k > 10000) break;
    }
    CHECK(failures > 5, "the load allocates: %d failure points", failures);
    free(s);
    steer_world_free(w);
}

// steerB_Kind.derive runs at compile, on a loaded world's brains, and when
// steer_world_replace_resource gives a brain another beacon: eval then
// reads the new beacon's pull, not the old one's.
static void test_derive(void)
{
    steer_World *w = make_world(NULL, NULL);
    REQUIRE(w, "world");
    const GoBeacon *g[3];
    for (uint32_t i = 0; i < 3; i++) g[i] = STEERB_PARAMS_OF(&w->brains[i + 1]->nodes[0], GoBeacon);
    CHECK(g[0]->pull == 0.5f && g[1]->pull == 1.5f && g[2]->pull == 2.0f, "derived at compile: %g %g %g",
          (double)g[0]->pull, (double)g[1]->pull, (double)g[2]->pull);
    size_t n;
    unsigned char *s = save(w, &n);
    REQUIRE(s, "save");
    steer_World *l = NULL;
    REQUIRE(steer_world_load(NULL, s, n, &l, NULL, 0) == STEER_OK, "load");
    const GoBeacon *lg = STEERB_PARAMS_OF(&l->brains[2]->nodes[0], GoBeacon);
    CHECK(lg->pull == 1.5f, "derived in the loaded world: %g", (double)lg->pull);
    Beacon *b = beacon_new(NULL, NULL, 10, 5, 4);
    REQUIRE(b, "a beacon");
    CHECK(steer_world_replace_resource(w, beacon_of(w, 1), b) == 2, "the two trees of the first beacon");
    CHECK(g[0]->pull == 4.0f && g[1]->pull == 12.0f && g[2]->pull == 2.0f, "derived again: %g %g %g",
          (double)g[0]->pull, (double)g[1]->pull, (double)g[2]->pull);
    // the same run as a world made with the new beacon's pull
    CHECK(steer_world_replace_resource(l, beacon_of(l, 1), b) == 2, "the loaded world's too");
    steer_world_step(w, 10);
    steer_world_step(l, 10);
    CHECK(steer_world_hash(w) == steer_world_hash(l), "both run on alike");
    beacon_release(b);
    free(s);
    steer_world_free(w);
    steer_world_free(l);
    CHECK(atomic_load(&live_beacons) == 0, "every beacon came back: %d live", atomic_load(&live_beacons));
}

int main(void)
{
    RUN(test_round_trip);
    RUN(test_derive);
    RUN(test_bad_bytes);
    RUN(test_alloc_failure);
    return check_report_("resource");
}
