// SPDX-License-Identifier: MIT
// test_snapshot.c — steer_world_save / steer_world_load: the determinism
// contract (N ticks, save, load, M ticks = N + M ticks; save -> load ->
// save gives the same bytes; handles keep their meaning), a load in a
// fresh process (this program run as a child with --child), and bad input
// (every truncation, flipped bytes with the checksum fixed up, random
// bytes, another version, a failing allocator): refused with a message.
#include "check.h"
#include "make.h"
#include "core/brain.h"
#include "core/world.h"
#include "snapshot_util.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void must(int st, const char *what)
{
    if (st != STEER_OK) {
        printf("setup failed: %s (%d)\n", what, st);
        exit(EXIT_FAILURE);
    }
}

static steer_Behavior *leaf(const char *kind)
{
    steer_Behavior *b = test_behavior(kind);
    if (!b) {
        printf("no kind %s\n", kind);
        exit(EXIT_FAILURE);
    }
    return b;
}
static void num(steer_Behavior *b, const char *field, double v) { must(steer_behavior_set_number(b, field, v), field); }
static void adopt(steer_Behavior *parent, steer_Behavior *kid, double weight)
{
    must(steer_behavior_add_child(parent, kid, weight), "add_child");
    steer_behavior_release(kid);
}

static steer_Agent spawn(steer_World *w, double x, double y, double z, steer_Behavior *brain, const char *tag)
{
    steer_AgentDesc d = { .position = { x, y, z },
                          .velocity = { 0.3, -0.2, z ? 0.1 : 0 },
                          .max_speed = 2,
                          .max_force = 1,
                          .tag = tag,
                          .brain = brain };
    steer_Agent a;
    must(steer_spawn(w, &d, &a), "spawn");
    return a;
}

// ---- the worlds --------------------------------------------------------

// Wander, separation (of that radius), alignment, cohesion, blended.
static steer_Behavior *flock_brain(double radius)
{
    steer_Behavior *blend = leaf("blend"), *sep = leaf("separation"), *ali = leaf("alignment");
    steer_Behavior *coh = leaf("cohesion"), *wan = leaf("wander");
    num(sep, "radius", radius);
    num(wan, "jitter", 5);
    adopt(blend, sep, 1.5);
    adopt(blend, ali, 1.0);
    adopt(blend, coh, 1.0);
    adopt(blend, wan, 0.2);
    return blend;
}

// A 2D torus flock: wander, separation, alignment, cohesion.
static steer_World *flock2d(void)
{
    steer_WorldDesc wd = hooks();
    wd.size[0] = wd.size[1] = 40;
    wd.wrap = true;
    wd.seed = 7;
    steer_World *w = test_world(&wd);
    steer_Behavior *blend = flock_brain(2);
    for (int i = 0; i < 300; i++) spawn(w, (i * 7919) % 40, (i * 104729) % 40 * 0.99, 0, blend, NULL);
    steer_behavior_release(blend);
    return w;
}

// A 3D world with spheres, planes and boxes, one removed; collision on.
static steer_World *shapes3d(void)
{
    steer_WorldDesc wd = hooks();
    wd.dim = 3;
    wd.collide = true;
    wd.seed = 99;
    steer_World *w = test_world(&wd);
    steer_Shape gone;
    must(steer_add_circle(w, (double[3]){ 5, 5, 5 }, 2, NULL), "sphere");
    must(steer_add_circle(w, (double[3]){ -5, 3, 1 }, 1.5, &gone), "sphere");
    must(steer_add_plane(w, (double[3]){ 0, 0, -3 }, (double[3]){ 0, 0.2, 1 }, NULL), "plane");
    must(steer_add_box(w, (double[3]){ 8, -2, -1 }, (double[3]){ 10, 2, 3 }, NULL), "box");
    must(steer_remove_shape(w, gone), "remove shape");
    steer_Behavior *pr = leaf("priority"), *avoid = leaf("avoid_obstacles"), *seek = leaf("seek");
    num(pr, "margin", 0.2);
    num(pr, "hold", 0.5);
    must(steer_behavior_set_target_point(seek, "target", (double[3]){ 12, 1, 2 }), "seek target");
    adopt(pr, avoid, 1);
    adopt(pr, seek, 1);
    for (int i = 0; i < 40; i++) spawn(w, -10 + i % 7, (i % 5) - 2.0, (i % 3) * 0.5, pr, i % 2 ? "odd" : NULL);
    steer_behavior_release(pr);
    return w;
}

// Paths, patrols and arrive with memory and targets (points and agents),
// tags, a shared subtree (a DAG), a shared brain, crafts, a host kind,
// thinkers, stuck watch and collision, and removed agents.
static steer_World *mixed(void)
{
    steer_WorldDesc wd = hooks();
    wd.size[0] = wd.size[1] = 60;
    wd.origin[0] = wd.origin[1] = -30;
    wd.seed = 3;
    wd.stuck_window = 1.0;
    wd.collide = true;
    wd.reorder_period = 5;
    steer_World *w = test_world(&wd);
    must(steer_add_wall(w, (double[3]){ -5, -5, 0 }, (double[3]){ 5, -6, 0 }, NULL), "wall");
    must(steer_add_circle(w, (double[3]){ 3, 8, 0 }, 1, NULL), "circle");
    steer_Behavior *path = leaf("follow_path"), *patrol = leaf("patrol"), *arrive = leaf("arrive");
    double pts[] = { -10, -10, 0, 10, -10, 0, 10, 10, 0, -10, 10, 0 };
    must(steer_behavior_set_points(path, "path", pts, 4), "path");
    must(steer_behavior_set_bool(path, "loop", true), "loop");
    must(steer_behavior_set_points(patrol, "points", pts, 3), "patrol");
    must(steer_behavior_set_choice(patrol, "mode", "pingpong"), "mode");
    num(patrol, "pause", 0.3);
    must(steer_behavior_set_name(arrive, "home"), "name");
    steer_Behavior *sep = leaf("separation");
    must(steer_behavior_set_tag(sep, "tag", "blue"), "tag");
    // the shared subtree: sep under two parents
    steer_Behavior *a = leaf("blend"), *b = leaf("blend");
    steer_behavior_retain(sep);
    adopt(a, sep, 2);
    adopt(a, path, 1);
    adopt(b, sep, 1);
    adopt(b, patrol, 1);
    steer_Behavior *host = NULL;
    must(steer_behavior_new_host(orbit_kind, &host), "host");
    num(host, "k", 0.05);
    steer_Behavior *c = leaf("blend");
    adopt(c, arrive, 1);
    adopt(c, host, 0.5);
    steer_Agent first = STEER_NO_AGENT;
    for (int i = 0; i < 60; i++) {
        steer_Behavior *brain = i % 3 == 0 ? a : i % 3 == 1 ? b : c;
        steer_Agent ag = spawn(w, -20 + i * 0.7, (i % 9) * 2.0 - 8, 0, brain, i % 2 ? "blue" : "red");
        if (i == 0) first = ag;
        if (i % 3 == 2) must(steer_agent_set_target(w, ag, i % 6 == 2 ? (double[3]){ 4, 4, 0 } : NULL, first), "t");
        if (i % 10 == 4)
            must(steer_agent_set_craft(w, ag, &(steer_CraftDesc){ STEER_MODEL_CRAFT, 0.3, 1.5, 2 }), "craft");
        if (i % 7 == 1) must(steer_agent_set_think(w, ag, i, 4), "think");
    }
    steer_behavior_release(a);
    steer_behavior_release(b);
    steer_behavior_release(c);
    return w;
}

typedef steer_World *(*Build)(void);
static const Build builds[] = { flock2d, shapes3d, mixed };
static const char *const names[] = { "flock2d", "shapes3d", "mixed" };
enum { NBUILDS = 3 };

// Remove every k-th live agent (the snapshot then holds dead, uncompacted ones).
static void cull(steer_World *w, int k)
{
    int n = steer_world_count(w);
    steer_Agent *all = malloc(sizeof *all * (size_t)(n ? n : 1));
    steer_world_agents(w, all, n);
    for (int i = 0; i < n; i += k) steer_remove(w, all[i]);
    free(all);
}

static unsigned char *save(const steer_World *w, size_t *len)
{
    size_t need = 0;
    if (steer_world_save_buffer(w, NULL, 0, &need) != STEER_EFULL) return NULL;
    unsigned char *buf = malloc(need);
    if (steer_world_save_buffer(w, buf, need, len) != STEER_OK || *len != need) {
        free(buf);
        return NULL;
    }
    return buf;
}

static steer_World *load(const unsigned char *buf, size_t len)
{
    steer_WorldDesc d = hooks();
    steer_World *w = NULL;
    char err[256];
    if (steer_world_load(&d, buf, len, &w, err, sizeof err) != STEER_OK) {
        printf("    load: %s\n", err);
        return NULL;
    }
    return w;
}

// ---- the determinism contract ----------------------------------------

enum { N_TICKS = 37, M_TICKS = 45 };

static void test_roundtrip(void)
{
    for (int k = 0; k < NBUILDS; k++) {
        steer_World *w = builds[k]();
        REQUIRE(w, "%s: build", names[k]);
        must(steer_world_step(w, N_TICKS), "step");
        cull(w, 5); // dead agents in the snapshot
        steer_Agent keep = steer_world_agent_at(w, 3), stale = STEER_NO_AGENT;
        for (int i = 0; !stale.id; i++) {
            steer_Agent x = steer_world_agent_at(w, i);
            if (x.id != keep.id) stale = x;
        }
        must(steer_remove(w, stale), "remove");
        size_t len = 0, len2 = 0;
        unsigned char *bytes = save(w, &len);
        REQUIRE(bytes, "%s: save", names[k]);
        steer_World *v = load(bytes, len);
        REQUIRE(v, "%s: load", names[k]);
        unsigned char *again = save(v, &len2);
        CHECK(again && len2 == len && memcmp(again, bytes, len) == 0, "%s: save -> load -> save differs (%zu, %zu)",
              names[k], len, len2);
        CHECK(steer_world_hash(v) == steer_world_hash(w), "%s: hash after load", names[k]);
        CHECK(steer_alive(v, keep), "%s: a handle taken before the save names no agent after", names[k]);
        CHECK(!steer_alive(v, stale), "%s: a stale handle came back", names[k]);
        double p1[3], p2[3];
        steer_agent_vec(w, keep, STEER_PROP_POSITION, p1);
        steer_agent_vec(v, keep, STEER_PROP_POSITION, p2);
        CHECK(memcmp(p1, p2, sizeof p1) == 0, "%s: the kept handle names another agent", names[k]);
        must(steer_world_step(w, M_TICKS), "step");
        must(steer_world_step(v, M_TICKS), "step");
        CHECK(steer_world_hash(v) == steer_world_hash(w), "%s: N+M ticks differ from N, save, load, M", names[k]);
        steer_Agent n1 = spawn(w, 1, 2, 0, NULL, "late"), n2 = spawn(v, 1, 2, 0, NULL, "late");
        CHECK(n1.id == n2.id, "%s: the next spawn's handle differs", names[k]);
        must(steer_world_step(w, 10), "step");
        must(steer_world_step(v, 10), "step");
        CHECK(steer_world_hash(v) == steer_world_hash(w), "%s: after a spawn", names[k]);
        free(bytes);
        free(again);
        steer_world_free(w);
        steer_world_free(v);
    }
}

// Bytes written as the writer is called; a writer's failure aborts the save.
static int failing_writer(void *ud, const void *data, size_t len)
{
    (void)data;
    size_t *left = ud;
    if (len > *left) return 1;
    *left -= len;
    return 0;
}

static void test_save_api(void)
{
    steer_World *w = flock2d();
    size_t need = 0, got = 0;
    CHECK(steer_world_save_buffer(w, NULL, 0, &need) == STEER_EFULL && need > 0, "asking the size");
    unsigned char *buf = malloc(need);
    CHECK(steer_world_save_buffer(w, buf, need - 1, &got) == STEER_EFULL && got == need, "a short buffer");
    size_t left = need / 2;
    CHECK(steer_world_save(w, failing_writer, &left) == STEER_ECALLBACK, "a failing writer");
    CHECK(need / 300 < 120, "%zu bytes per agent", need / 300);
    free(buf);
    steer_world_free(w);
}

// A rewind: restoring a snapshot in place replays the same ticks bit for
// bit, keeps the world's address, and a bad snapshot leaves it untouched.
static void test_restore(void)
{
    for (int k = 0; k < NBUILDS; k++) {
        steer_World *w = builds[k]();
        REQUIRE(w, "%s: build", names[k]);
        must(steer_world_step(w, N_TICKS), "step");
        size_t len = 0;
        unsigned char *bytes = save(w, &len);
        REQUIRE(bytes, "%s: save", names[k]);
        must(steer_world_step(w, M_TICKS), "step on");
        uint64_t later = steer_world_hash(w);
        steer_Agent next;
        steer_AgentDesc d = { .position = { 1, 1, 0 } };
        must(steer_spawn(w, &d, &next), "spawn after");
        char err[256];
        CHECK(steer_world_restore(w, bytes, len / 2, err, sizeof err) == STEER_EARG && err[0],
              "%s: a truncated snapshot is refused: %s", names[k], err);
        CHECK(steer_alive(w, next), "%s: and the world is as it was", names[k]);
        CHECK(steer_world_restore(w, bytes, len, err, sizeof err) == STEER_OK, "%s: restore: %s", names[k], err);
        CHECK(!steer_alive(w, next), "%s: the agent spawned after the save is gone", names[k]);
        must(steer_world_step(w, M_TICKS), "replay");
        CHECK(steer_world_hash(w) == later, "%s: the replay gives the same bits", names[k]);
        free(bytes);
        steer_world_free(w);
    }
}

// The brains by id, a loaded brain taking an equal tree of the host's
// back (steer_world_replace_brain: the Lua loader's adoption), and a
// load taken into an existing world (steer_world_take_state).
static void test_brains_api(void)
{
    steer_World *w = flock2d();
    must(steer_world_step(w, N_TICKS), "step");
    CHECK(steer_world_brains(w) == 2 && steer_world_brain(w, 1) && !steer_world_brain(w, 0) &&
              !steer_world_brain(w, 2) && !steer_world_brain(w, -1),
          "one brain, id 1: %d", steer_world_brains(w));
    size_t len = 0;
    unsigned char *bytes = save(w, &len);
    REQUIRE(bytes, "save");
    char err[256];
    steer_World *a = NULL, *b = NULL;
    must(steer_world_load(NULL, bytes, len, &a, err, sizeof err), "load a");
    must(steer_world_load(NULL, bytes, len, &b, err, sizeof err), "load b");
    steer_Behavior *copy = steer_world_brain(a, 1), *mine = flock_brain(2), *other = flock_brain(3);
    steer_Behavior *seek = leaf("seek");
    CHECK(copy && copy != steer_world_brain(w, 1), "the load made its own tree");
    CHECK(steer_world_replace_brain(a, 1, seek) == STEER_EARG, "a tree of other kinds is refused");
    CHECK(steer_world_replace_brain(a, 2, mine) == STEER_EARG && steer_world_replace_brain(a, 1, NULL) == STEER_EARG,
          "an id without a brain, or no tree, is refused");
    CHECK(steer_world_brain(a, 1) == copy, "a refusal changes nothing");
    CHECK(steer_world_replace_brain(a, 1, mine) == STEER_OK, "an equal tree is taken");
    CHECK(steer_world_brain(a, 1) == mine && steer_world_uses_brain(a, mine), "brain 1 runs it");
    must(steer_world_step(a, M_TICKS), "step a");
    must(steer_world_step(b, M_TICKS), "step b");
    CHECK(steer_world_hash(a) == steer_world_hash(b), "the agents kept their memory: the same bits on");
    // a tree laid out alike but with other numbers runs them: the host's to check
    CHECK(steer_world_replace_brain(b, 1, other) == STEER_OK, "a tree of the same layout is taken");
    must(steer_world_step(b, M_TICKS), "step b");
    must(steer_world_step(a, M_TICKS), "step a");
    CHECK(steer_world_hash(a) != steer_world_hash(b), "and runs its own numbers");
    steer_behavior_release(mine);
    steer_behavior_release(other);
    steer_behavior_release(seek);
    // take_state: w becomes a load of its own snapshot, at its address
    steer_World *fresh = NULL;
    must(steer_world_load(NULL, bytes, len, &fresh, err, sizeof err), "load fresh");
    uint64_t want = steer_world_hash(fresh);
    CHECK(steer_world_take_state(w, fresh) == STEER_OK, "take_state");
    CHECK(steer_world_hash(w) == want && steer_world_tick(w) == N_TICKS, "w holds the loaded state");
    steer_world_free(fresh);
    must(steer_world_step(w, 5), "w steps on");
    free(bytes);
    steer_world_free(a);
    steer_world_free(b);
    steer_world_free(w);
}

// A world with no agents (its columns never allocated) saves, loads and
// restores: zero-length columns copy nothing (UBSan: no NULL to memcpy).
static void test_empty_world(void)
{
    steer_World *w = NULL, *back = NULL;
    REQUIRE(steer_world_new(&(steer_WorldDesc){ .seed = 4 }, &w) == STEER_OK, "world");
    size_t len = 0;
    unsigned char *bytes = save(w, &len);
    REQUIRE(bytes, "save");
    char err[256];
    CHECK(steer_world_load(NULL, bytes, len, &back, err, sizeof err) == STEER_OK, "load: %s", err);
    CHECK(back && steer_world_count(back) == 0 && steer_world_hash(back) == steer_world_hash(w),
          "the same empty world");
    CHECK(steer_world_restore(w, bytes, len, err, sizeof err) == STEER_OK, "restore: %s", err);
    steer_world_free(back);
    steer_world_free(w);
    free(bytes);
}

// A version 4 snapshot (before the world's attached resources) still
// loads: an empty world's (no tags, no trees) has its header (60 bytes),
// the options (77), the brains' and extra roots' counts... and from
// version 5 the attached resources' count, a u32 0 at byte 141; without
// it, marked version 4, it is what version 4 wrote.
static void test_version_4(void)
{
    steer_World *w = NULL, *back = NULL;
    REQUIRE(steer_world_new(&(steer_WorldDesc){ .seed = 4 }, &w) == STEER_OK, "world");
    size_t len = 0;
    unsigned char *b = save(w, &len);
    REQUIRE(b && len > 160 && b[8] == 5, "a version 5 snapshot");
    static const unsigned char zero[8] = { 0 };
    CHECK(memcmp(b + 137, zero, 8) == 0, "no extra roots, nothing attached");
    memmove(b + 141, b + 145, len - 145);
    len -= 4;
    b[8] = 4;
    fix_checksum(b, len);
    char err[256];
    CHECK(steer_world_load(NULL, b, len, &back, err, sizeof err) == STEER_OK, "version 4 loads: %s", err);
    CHECK(back && steer_world_hash(back) == steer_world_hash(w), "the same world");
    steer_world_free(back);
    steer_world_free(w);
    free(b);
}

// ---- a fresh process ----------------------------------------------------

static const char *self;

static void test_fresh_process(void)
{
    for (int k = 0; k < NBUILDS; k++) {
        steer_World *w = builds[k]();
        must(steer_world_step(w, N_TICKS), "step");
        size_t len;
        unsigned char *bytes = save(w, &len);
        char path[64], cmd[512];
        snprintf(path, sizeof path, "snapshot-test-%d.bin", k);
        FILE *f = fopen(path, "wb");
        REQUIRE(f && fwrite(bytes, 1, len, f) == len, "writing %s", path);
        fclose(f);
        must(steer_world_step(w, M_TICKS), "step");
        // under a cross build's emulator the child runs through it too
        const char *wrap = getenv("STEER_EXE_WRAPPER");
#ifdef _WIN32 // cmd.exe's quotes
        snprintf(cmd, sizeof cmd, "\"%s\" --child %s %d", self, path, M_TICKS);
        (void)wrap;
#else
        snprintf(cmd, sizeof cmd, "%s%s%s'%s' --child %s %d", wrap ? "'" : "", wrap ? wrap : "", wrap ? "' " : "", self,
                 path, M_TICKS);
#endif
        FILE *p = popen(cmd, "r");
        unsigned long long h = 0;
        REQUIRE(p, "popen");
        CHECK(fscanf(p, "%llx", &h) == 1, "%s: the child printed no hash", names[k]);
        pclose(p);
        CHECK(h == steer_world_hash(w), "%s: the fresh process's hash %llx differs from %llx", names[k], h,
              (unsigned long long)steer_world_hash(w));
        remove(path);
        free(bytes);
        steer_world_free(w);
    }
}

static int child(const char *path, int ticks)
{
    FILE *f = fopen(path, "rb");
    if (!f) return 1;
    static unsigned char buf[1 << 22];
    size_t len = fread(buf, 1, sizeof buf, f);
    fclose(f);
    steer_World *w = load(buf, len);
    if (!w || steer_world_step(w, ticks) != STEER_OK) return 1;
    printf("%llx\n", (unsigned long long)steer_world_hash(w));
    steer_world_free(w);
    return 0;
}

// ---- bad input ---------------------------------------------------------

// A load that must fail with a message; returns whether it did.
static bool refused(const unsigned char *b, size_t len, const char *what, char *err, size_t errlen)
{
    steer_WorldDesc d = hooks();
    steer_World *w = (steer_World *)(uintptr_t)1; // untouched on failure
    int st = steer_world_load(&d, b, len, &w, err, errlen);
    if (st == STEER_OK) {
        steer_world_step(w, 3); // a load that passes every check must tick safely
        steer_world_free(w);
        return false;
    }
    CHECK(w == (steer_World *)(uintptr_t)1, "%s: *out changed on failure", what);
    CHECK(err[0], "%s: no message", what);
    return true;
}

static unsigned char *small(size_t *len)
{
    steer_World *w = mixed();
    must(steer_world_step(w, 20), "step");
    cull(w, 4);
    unsigned char *b = save(w, len);
    steer_world_free(w);
    return b;
}

static void test_truncated(void)
{
    size_t len;
    unsigned char *b = small(&len);
    char err[256];
    for (size_t n = 0; n < len && !FAILED(); n++) {
        unsigned char *c = malloc(n ? n : 1);
        memcpy(c, b, n);
        CHECK(refused(c, n, "truncated", err, sizeof err), "a snapshot cut to %zu of %zu bytes loaded", n, len);
        free(c);
    }
    CHECK(refused(b, len - 1, "cut", err, sizeof err) && strstr(err, "truncated"), "message: %s", err);
    free(b);
}

static void test_corrupted(void)
{
    size_t len;
    unsigned char *b = small(&len);
    unsigned char *c = malloc(len);
    char err[256];
    int loaded = 0;
    for (size_t i = 0; i < len - 8; i++) {
        memcpy(c, b, len);
        c[i] ^= (unsigned char)(1u << (i % 8));
        bool r = refused(c, len, "flipped", err, sizeof err);
        CHECK(r || i >= 12, "byte %zu flipped loaded", i);
        if (i >= 24 && r) CHECK(strstr(err, "checksum"), "byte %zu: %s", i, err);
        // the deeper checks: the checksum fixed up
        if (i >= 12) {
            fix_checksum(c, len);
            loaded += !refused(c, len, "flipped and fixed", err, sizeof err);
        }
    }
    printf("    %d of %zu fixed-up flips loaded (harmless values)\n", loaded, len - 20);
    memcpy(c, b, len);
    c[8] = 9;
    CHECK(refused(c, len, "version", err, sizeof err) &&
              strstr(err, "snapshot version 9; this build reads versions 1 to 5"),
          "version: %s", err);
    c[8] = 2; // an older version, but not what was saved: the checksum covers the version
    CHECK(refused(c, len, "older version", err, sizeof err) && strstr(err, "checksum"), "older version: %s", err);
    memcpy(c, b, len);
    c[0] = 'X';
    CHECK(refused(c, len, "magic", err, sizeof err) && strstr(err, "not a steer snapshot"), "magic: %s", err);
    free(c);
    free(b);
}

// ---- extra roots: trees saved with the world that may be no agent's brain

typedef struct Mem {
    unsigned char *b;
    size_t n;
} Mem;

static int to_mem(void *ud, const void *data, size_t len)
{
    Mem *m = ud;
    unsigned char *b = realloc(m->b, m->n + len);
    if (!b) return 1;
    memcpy(b + m->n, data, len);
    m->b = b;
    m->n += len;
    return 0;
}

static void test_extra_roots(void)
{
    steer_World *w = mixed();
    steer_Agent ids[1];
    steer_world_agents(w, ids, 1);
    steer_Behavior *brain;
    steer_agent_brain(w, ids[0], &brain);
    // one tree that holds a brain as its child, one of its own, and the brain itself
    steer_Behavior *spare = leaf("blend");
    steer_behavior_retain(brain);
    adopt(spare, brain, 0.5);
    adopt(spare, leaf("wander"), 2);
    steer_Behavior *roots[3] = { spare, leaf("seek"), brain };
    Mem m = { 0 };
    CHECK(steer_world_save_roots(w, roots, 3, to_mem, &m) == STEER_OK, "save with extra roots");
    steer_Behavior *null_root = NULL;
    CHECK(steer_world_save_roots(w, &null_root, 1, to_mem, &(Mem){ 0 }) == STEER_EARG, "a NULL root is refused");
    steer_WorldDesc d = hooks();
    steer_World *w2 = NULL;
    steer_Behavior *got[3] = { NULL };
    int n = 0;
    char err[256];
    CHECK(steer_world_load_roots(&d, m.b, m.n, &w2, got, 3, &n, err, sizeof err) == STEER_OK, "load: %s", err);
    CHECK(n == 3, "three extra roots: %d", n);
    if (w2 && n == 3) {
        steer_Behavior *brain2;
        steer_agent_brain(w2, ids[0], &brain2);
        CHECK(got[2] == brain2, "the brain among the roots is the loaded brain");
        CHECK(got[0]->nkids == 2 && got[0]->kids[0] == brain2, "a subtree shared with a brain stays shared");
        CHECK(strcmp(steer_behavior_kind(got[1]), "seek") == 0, "a tree of its own");
        Mem m2 = { 0 };
        CHECK(steer_world_save_roots(w2, got, 3, to_mem, &m2) == STEER_OK && m2.n == m.n && memcmp(m2.b, m.b, m.n) == 0,
              "save -> load -> save gives the same bytes");
        free(m2.b);
        for (int i = 0; i < 3; i++) steer_behavior_release(got[i]);
        steer_world_free(w2);
    }
    // a short list takes the first ones (the others are let go); a plain load none
    w2 = NULL;
    CHECK(steer_world_load_roots(&d, m.b, m.n, &w2, got, 1, &n, err, sizeof err) == STEER_OK && n == 3, "cap 1: %d", n);
    if (w2) {
        steer_behavior_release(got[0]);
        steer_world_free(w2);
    }
    w2 = load(m.b, m.n);
    CHECK(w2 != NULL, "steer_world_load reads it too");
    steer_world_free(w2);
    // a truncated root list is refused
    CHECK(steer_world_load_roots(&d, m.b, m.n - 9, &w2, got, 3, &n, err, sizeof err) == STEER_EARG, "truncated");
    free(m.b);
    steer_behavior_release(roots[0]);
    steer_behavior_release(roots[1]);
    steer_world_free(w);
}

static void test_random(void)
{
    size_t len;
    unsigned char *b = small(&len);
    char err[256];
    for (int t = 0; t < 3000 && !FAILED(); t++) {
        size_t n = (size_t)(test_rand64() % (t % 2 ? len + 64 : 200));
        unsigned char *c = malloc(n + 1);
        for (size_t i = 0; i < n; i++) c[i] = (unsigned char)test_rand64();
        if (t % 3 && n >= 12) memcpy(c, b, 12); // past the magic and version
        if (t % 5 == 0 && n == len) {
            memcpy(c, b, len);
            for (int k = 0; k < 4; k++) c[12 + test_rand64() % (len - 20)] = (unsigned char)test_rand64();
            fix_checksum(c, n);
            refused(c, n, "mutated", err, sizeof err);
        } else {
            CHECK(refused(c, n, "random", err, sizeof err), "random bytes loaded");
        }
        free(c);
    }
    free(b);
}

// An allocator that fails after `left` allocations.
static long alloc_left;
static void *failing_alloc(void *ud, void *p, size_t size)
{
    (void)ud;
    if (size == 0) {
        free(p);
        return NULL;
    }
    if (alloc_left-- <= 0) return NULL;
    return realloc(p, size);
}

static void test_out_of_memory(void)
{
    size_t len;
    unsigned char *b = small(&len);
    char err[256];
    bool done = false;
    for (long k = 0; k < 10000 && !done && !FAILED(); k++) {
        steer_WorldDesc d = hooks();
        d.alloc = failing_alloc;
        alloc_left = k;
        steer_World *w = NULL;
        int st = steer_world_load(&d, b, len, &w, err, sizeof err);
        if (st == STEER_OK) {
            done = true;
            steer_world_free(w);
        } else {
            CHECK(st == STEER_ENOMEM && strstr(err, "out of memory") && !w, "after %ld allocations: %d %s", k, st, err);
        }
    }
    CHECK(done, "never loaded");
    free(b);
}

static void test_unknown_kind(void)
{
    steer_World *w = mixed();
    size_t len;
    unsigned char *b = save(w, &len);
    steer_WorldDesc d = { 0 }; // no find_kind
    steer_World *v = NULL;
    char err[256];
    CHECK(steer_world_load(&d, b, len, &v, err, sizeof err) == STEER_EARG &&
              strstr(err, "unknown behaviour kind 'orbit'"),
          "%s", err);
    free(b);
    steer_world_free(w);
}

// Small snapshots of each world (a few agents left) for the fuzz target's
// corpus (tests/fuzz/corpus/snapshot).
static int corpus(const char *dir)
{
    for (int k = 0; k < NBUILDS; k++) {
        steer_World *w = builds[k]();
        must(steer_world_step(w, 30), "step");
        while (steer_world_count(w) > 12) cull(w, 2);
        must(steer_world_step(w, 2), "step");
        cull(w, 5);
        size_t len;
        unsigned char *b = save(w, &len);
        char path[512];
        snprintf(path, sizeof path, "%s/%s.snap", dir, names[k]);
        FILE *f = fopen(path, "wb");
        if (!f || fwrite(b, 1, len, f) != len) return EXIT_FAILURE;
        fclose(f);
        printf("%s: %zu bytes\n", path, len);
        free(b);
        steer_world_free(w);
    }
    return EXIT_SUCCESS;
}

int main(int argc, char **argv)
{
    self = argv[0];
    orbit_register();
    if (!orbit_kind) return EXIT_FAILURE;
    if (argc == 4 && strcmp(argv[1], "--child") == 0) return child(argv[2], atoi(argv[3]));
    if (argc == 3 && strcmp(argv[1], "--corpus") == 0) return corpus(argv[2]);
    RUN(test_roundtrip);
    RUN(test_save_api);
    RUN(test_restore);
    RUN(test_brains_api);
    RUN(test_empty_world);
    RUN(test_version_4);
    RUN(test_fresh_process);
    RUN(test_truncated);
    RUN(test_corrupted);
    RUN(test_extra_roots);
    RUN(test_random);
    RUN(test_out_of_memory);
    RUN(test_unknown_kind);
    steer_host_kind_free(orbit_kind);
    return check_report_("snapshot");
}
