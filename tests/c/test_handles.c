// SPDX-License-Identifier: MIT
// test_handles.c — agent handles and storage: stale handles fail loudly,
// reused slots never alias, and no agent is lost or mixed up by removal,
// compaction or the periodic spatial re-sort (which changes no bit of the
// simulation), a forged handle is no agent, the live list comes in one pass,
// and a slot's generation can be read (for a host keeping fewer bits).
// Agent and shape handles are distinct types (a compile-time check) whose
// zero value means "none" wherever the API says so.
//
// The core moves agents around in dense storage (swap on compaction,
// re-sort by grid cell every few ticks) while handles must keep naming the
// same agent. So the tests keep a model of what each live handle should
// hold (a unique position and tag) and compare after every operation.
#include "steer.h"
#include "check.h"
#include "make.h"

#include <math.h>
#include <stdbool.h>
#include <string.h>

// A shape handle (or a bare integer) passed where an agent is expected must
// not compile; C can show that only at compile time. The layout is the
// integer's, so the bits seen from Lua (agent.id) and in hashes stay the same.
#if defined(__GNUC__)
_Static_assert(!__builtin_types_compatible_p(steer_Agent, steer_Shape), "agent and shape handles are one type");
_Static_assert(!__builtin_types_compatible_p(steer_Agent, uint64_t), "an integer passes for an agent handle");
_Static_assert(!__builtin_types_compatible_p(steer_Shape, uint64_t), "an integer passes for a shape handle");
#endif
_Static_assert(sizeof(steer_Agent) == sizeof(uint64_t), "an agent handle is not one 64-bit id");
_Static_assert(sizeof(steer_Shape) == sizeof(uint64_t), "a shape handle is not one 64-bit id");

static steer_World *new_world(int reorder_period)
{
    steer_WorldDesc wd = { 0 };
    wd.size[0] = wd.size[1] = 100;
    wd.seed = 3;
    wd.reorder_period = reorder_period;
    steer_World *w = NULL;
    steer_world_new(&wd, &w);
    return w;
}

static void test_stale_after_remove(void)
{
    steer_World *w = new_world(0);
    REQUIRE(w, "world");
    steer_Agent a, b;
    REQUIRE(steer_spawn(w, &(steer_AgentDesc){ .position = { 1, 2 } }, &a) == STEER_OK, "spawn a");
    CHECK(a.id != 0, "0 is never a valid handle");
    CHECK(steer_alive(w, a), "a is alive after spawn");
    CHECK(steer_remove(w, a) == STEER_OK, "remove a");
    CHECK(!steer_alive(w, a), "a is stale right after remove");
    double v[3], x;
    const char *tag;
    steer_Behavior *br;
    CHECK(steer_agent_vec(w, a, STEER_PROP_POSITION, v) == STEER_ESTALE, "position of a stale handle");
    CHECK(steer_agent_set_vec(w, a, STEER_PROP_VELOCITY, (double[3]){ 1, 0, 0 }) == STEER_ESTALE, "set_vec");
    CHECK(steer_agent_param(w, a, STEER_PARAM_MASS, &x) == STEER_ESTALE, "param");
    CHECK(steer_agent_set_param(w, a, STEER_PARAM_MASS, 2) == STEER_ESTALE, "set_param");
    CHECK(steer_agent_tag(w, a, &tag) == STEER_ESTALE, "tag");
    CHECK(steer_agent_brain(w, a, &br) == STEER_ESTALE, "brain");
    CHECK(steer_agent_set_target(w, a, (double[3]){ 0, 0, 0 }, STEER_NO_AGENT) == STEER_ESTALE, "set_target");
    CHECK(steer_remove(w, a) == STEER_ESTALE, "a second remove");
    CHECK(steer_world_count(w) == 0, "count after remove is %d", steer_world_count(w));

    // the slot is reused (before and after compaction), the old handle stays stale
    REQUIRE(steer_spawn(w, &(steer_AgentDesc){ .position = { 5, 6 } }, &b) == STEER_OK, "spawn b");
    steer_world_step(w, 3);
    steer_Agent c;
    REQUIRE(steer_spawn(w, &(steer_AgentDesc){ .position = { 7, 8 } }, &c) == STEER_OK, "spawn c");
    CHECK(b.id != a.id && c.id != a.id, "a new agent got the removed agent's handle");
    CHECK(!steer_alive(w, a), "a came back to life after its slot was reused");
    CHECK(steer_agent_vec(w, a, STEER_PROP_POSITION, v) == STEER_ESTALE, "a names b or c");
    CHECK(steer_remove(w, a) == STEER_ESTALE, "removing through a stale handle must not remove the new agent");
    CHECK(steer_alive(w, b) && steer_alive(w, c), "b and c alive");
    CHECK(steer_world_count(w) == 2, "count is %d", steer_world_count(w));
    steer_agent_vec(w, b, STEER_PROP_POSITION, v);
    CHECK(v[0] == 5 && v[1] == 6, "b is at (%g, %g)", v[0], v[1]);

    // a target agent that is removed: the handle in the slot goes stale too
    CHECK(steer_agent_set_target(w, b, NULL, c) == STEER_OK, "b targets c");
    steer_remove(w, c);
    CHECK(steer_agent_set_target(w, b, NULL, c) == STEER_ESTALE, "targeting a removed agent");
    CHECK(steer_world_step(w, 2) == STEER_OK, "stepping with a stale target");
    steer_world_free(w);
}

// Many slot reuses: every handle ever removed stays stale forever.
static void test_reuse_never_aliases(void)
{
    steer_World *w = new_world(0);
    REQUIRE(w, "world");
    enum { N = 2000 };
    static steer_Agent dead[N];
    steer_Agent live = STEER_NO_AGENT;
    for (int i = 0; i < N && !FAILED(); i++) {
        steer_Agent a;
        REQUIRE(steer_spawn(w, &(steer_AgentDesc){ .position = { i, 0 } }, &a) == STEER_OK, "spawn %d", i);
        for (int j = 0; j < i; j++) REQUIRE(a.id != dead[j].id, "spawn %d reused dead handle %d", i, j);
        if (live.id) {
            steer_remove(w, live);
            dead[i - 1] = live;
        }
        live = a;
        dead[i] = STEER_NO_AGENT;
        if (i % 7 == 0) steer_world_step(w, 1);
    }
    for (int j = 0; j < N - 1; j++) CHECK(!steer_alive(w, dead[j]), "handle %d is alive again", j);
    CHECK(steer_world_count(w) == 1, "count %d", steer_world_count(w));
    steer_world_free(w);
}

// The model: for every agent ever spawned, its handle, whether it should be
// alive, and the unique position and tag it was given.
typedef struct Model {
    steer_Agent id;
    bool alive;
    double x, y;
    const char *tag;
} Model;

static void check_model(steer_World *w, const Model *m, int n, int step)
{
    int live = 0;
    for (int i = 0; i < n; i++) {
        if (!m[i].alive) {
            CHECK(!steer_alive(w, m[i].id), "step %d: removed agent %d is alive", step, i);
            continue;
        }
        live++;
        double p[3];
        const char *tag;
        REQUIRE(steer_agent_vec(w, m[i].id, STEER_PROP_POSITION, p) == STEER_OK, "step %d: agent %d was lost", step, i);
        CHECK(p[0] == m[i].x && p[1] == m[i].y, "step %d: agent %d is at (%g, %g), expected (%g, %g)", step, i, p[0],
              p[1], m[i].x, m[i].y);
        steer_agent_tag(w, m[i].id, &tag);
        CHECK((tag == NULL) == (m[i].tag == NULL) && (!tag || strcmp(tag, m[i].tag) == 0),
              "step %d: agent %d has tag %s, expected %s", step, i, tag ? tag : "(none)",
              m[i].tag ? m[i].tag : "(none)");
    }
    CHECK(steer_world_count(w) == live, "step %d: count %d, expected %d", step, steer_world_count(w), live);
    // enumeration lists exactly the live agents, each once (quadratic: not every step)
    if (step % 8 != 0) return;
    int seen = 0;
    for (int k = 0; k < steer_world_count(w); k++) {
        steer_Agent a = steer_world_agent_at(w, k);
        int found = 0;
        for (int i = 0; i < n; i++) found += m[i].alive && m[i].id.id == a.id;
        CHECK(found == 1, "step %d: agent_at(%d) names %d live agents", step, k, found);
        seen++;
    }
    CHECK(steer_world_agent_at(w, live).id == 0, "step %d: agent_at(count) is not 0", step);
    CHECK(seen == live, "step %d: enumerated %d of %d", step, seen, live);
}

static void churn(int reorder_period)
{
    steer_World *w = new_world(reorder_period);
    REQUIRE(w, "world");
    enum { MAX = 3000 };
    static Model m[MAX];
    int n = 0;
    static const char *const tags[] = { NULL, "a", "b", "c" };
    for (int step = 0; step < 400 && !FAILED(); step++) {
        // a burst of spawns and removals, sometimes of agents spawned this very step
        int ops = 1 + (int)(test_rand64() % 12);
        for (int o = 0; o < ops && n < MAX; o++) {
            if (test_rand64() % 3 != 0) {
                Model *a = &m[n];
                // positions on a coarse lattice, unique per agent, exact in float
                a->x = (double)(n % 97);
                a->y = (double)(n / 97) + 0.5;
                a->tag = tags[test_rand64() % 4];
                a->alive = true;
                steer_AgentDesc d = { .position = { a->x, a->y }, .tag = a->tag };
                REQUIRE(steer_spawn(w, &d, &a->id) == STEER_OK, "spawn");
                n++;
            } else if (n) {
                int i = (int)(test_rand64() % (uint64_t)n);
                int st = steer_remove(w, m[i].id);
                CHECK(st == (m[i].alive ? STEER_OK : STEER_ESTALE), "remove %d returned %d", i, st);
                m[i].alive = false;
            }
        }
        check_model(w, m, n, step);
        if (step % 3 != 2) CHECK(steer_world_step(w, 1 + step % 5) == STEER_OK, "step");
        check_model(w, m, n, step);
    }
    steer_world_free(w);
}

static void test_churn_default_reorder(void) { churn(0); }
static void test_churn_reorder_every_tick(void) { churn(1); }
static void test_churn_no_reorder(void) { churn(-1); }

// Removing every agent, then spawning again, leaves no ghosts.
static void test_remove_all_and_refill(void)
{
    steer_World *w = new_world(0);
    REQUIRE(w, "world");
    steer_Agent ids[300];
    for (int round = 0; round < 5; round++) {
        for (int i = 0; i < 300; i++)
            REQUIRE(steer_spawn(w, &(steer_AgentDesc){ .position = { i % 50, i / 50 } }, &ids[i]) == STEER_OK, "spawn");
        CHECK(steer_world_count(w) == 300, "round %d: count %d", round, steer_world_count(w));
        steer_world_step(w, 2);
        for (int i = 299; i >= 0; i--) CHECK(steer_remove(w, ids[i]) == STEER_OK, "remove %d", i);
        CHECK(steer_world_count(w) == 0, "round %d: %d agents left", round, steer_world_count(w));
        steer_world_step(w, 1);
        double q[3] = { 25, 3, 0 };
        CHECK(steer_world_neighbors(w, q, 1000, NULL, false, NULL, 0) == 0, "a removed agent is still found");
    }
    steer_world_free(w);
}

// A handle with the generation a free slot will hand out next is not a
// live agent: its dense index is the free list's link, not an agent.
static void test_forged_handle(void)
{
    steer_World *w = test_world(NULL);
    REQUIRE(w, "world");
    steer_Agent a, b;
    REQUIRE(steer_spawn(w, NULL, &a) == STEER_OK && steer_spawn(w, NULL, &b) == STEER_OK, "spawn");
    steer_Agent next = { a.id + ((uint64_t)1 << 32) }; // same slot, the generation after a's
    REQUIRE(steer_remove(w, a) == STEER_OK, "remove a");
    CHECK(!steer_alive(w, next), "alive before compaction");
    steer_world_step(w, 1); // compaction puts a's slot on the free list
    CHECK(!steer_alive(w, next), "alive after compaction");
    double p[3];
    CHECK(steer_agent_vec(w, next, STEER_PROP_POSITION, p) == STEER_ESTALE, "position of a forged handle");
    CHECK(steer_agent_set_target(w, b, NULL, next) == STEER_ESTALE, "a forged handle as a target");
    steer_world_free(w);
}

// A flock (separation, alignment, cohesion, wander) in a torus, with
// removals so that storage order differs from handle order, run with the
// periodic re-sort every tick, at the default period, and never (and with
// collisions): every agent's state and the hash must be the same bits.
static uint64_t flock_run(int reorder_period, bool collide, steer_Agent *keep, double (*pos)[3], int nkeep)
{
    steer_WorldDesc wd = { 0 };
    wd.size[0] = wd.size[1] = 40;
    wd.wrap = true;
    wd.seed = 11;
    wd.reorder_period = reorder_period;
    wd.collide = collide;
    steer_World *w = test_world(&wd);
    if (!w) return 0;
    steer_Behavior *root = test_behavior("blend");
    const char *kinds[] = { "separation", "alignment", "cohesion", "wander" };
    for (int i = 0; i < 4; i++) {
        steer_Behavior *k = test_behavior(kinds[i]);
        steer_behavior_add_child(root, k, i == 0 ? 1.5 : 1.0);
        steer_behavior_release(k);
    }
    steer_Agent all[400];
    for (int i = 0; i < 400; i++) {
        steer_AgentDesc ad = { .brain = root, .max_speed = 2, .radius = 0.3 };
        ad.position[0] = (i * 7919 % 400) / 10.0;
        ad.position[1] = (i * 104729 % 400) / 10.0;
        ad.velocity[0] = 1;
        steer_spawn(w, &ad, &all[i]);
    }
    steer_world_step(w, 5);
    for (int i = 0; i < 400; i += 3) steer_remove(w, all[i]);
    // the events too, in the order the host gets them (FNV-1a over each step's)
    uint64_t events = 0xCBF29CE484222325ull;
    for (int t = 0; t < 300; t++) {
        steer_world_step(w, 1);
        int ne;
        const steer_Event *ev = steer_world_events(w, &ne);
        for (int i = 0; i < ne; i++) {
            uint64_t x[3] = { (uint64_t)ev[i].type, ev[i].agent.id, ev[i].other.id };
            const unsigned char *c = (const unsigned char *)x;
            for (size_t j = 0; j < sizeof x; j++) events = (events ^ c[j]) * 0x100000001B3ull;
        }
    }
    for (int i = 0, k = 0; i < 400 && k < nkeep; i++) {
        if (i % 3 == 0) continue;
        keep[k] = all[i];
        steer_agent_vec(w, keep[k], STEER_PROP_POSITION, pos[2 * k]);
        steer_agent_vec(w, keep[k], STEER_PROP_VELOCITY, pos[2 * k + 1]);
        k++;
    }
    uint64_t h = steer_world_hash(w) ^ events;
    steer_behavior_release(root);
    steer_world_free(w);
    return h;
}

static void test_storage_order(void)
{
    for (int collide = 0; collide < 2; collide++) {
        steer_Agent ka[266], kb[266];  // the agents left
        double pa[532][3], pb[532][3]; // position, velocity
        const int periods[] = { 1, 0, -1 };
        uint64_t ref = flock_run(periods[0], collide, ka, pa, 266);
        for (int r = 1; r < 3; r++) {
            uint64_t h = flock_run(periods[r], collide, kb, pb, 266);
            CHECK(h == ref, "collide %d: hash with reorder period %d differs from every tick", collide, periods[r]);
            for (int i = 0; i < 532 && !FAILED(); i++)
                CHECK(ka[i / 2].id == kb[i / 2].id && memcmp(pa[i], pb[i], sizeof pa[i]) == 0,
                      "collide %d, period %d: agent %d at (%.9g, %.9g), not (%.9g, %.9g)", collide, periods[r], i,
                      pb[i][0], pb[i][1], pa[i][0], pa[i][1]);
        }
    }
}

// The live handles in one pass, also while removed agents await compaction.
static void test_agents_list(void)
{
    steer_World *w = test_world(NULL);
    REQUIRE(w, "world");
    steer_Agent all[10], out[10];
    for (int i = 0; i < 10; i++) steer_spawn(w, NULL, &all[i]);
    steer_remove(w, all[3]);
    steer_remove(w, all[7]);
    int n = steer_world_agents(w, out, 10);
    CHECK(n == 8, "count %d", n);
    for (int i = 0, k = 0; i < 10 && !FAILED(); i++) {
        if (i == 3 || i == 7) continue;
        CHECK(out[k].id == all[i].id && steer_world_agent_at(w, k).id == all[i].id, "agent %d", k);
        k++;
    }
    CHECK(steer_world_agents(w, out, 2) == 8 && out[1].id == all[1].id,
          "a short buffer gets the first ones, the count all");
    steer_world_free(w);
}

// The zero handle is "none": never alive, refused as stale, what lookups
// that find nothing and failed adds return, and "no target" / "ignore nobody".
static void test_zero_is_none(void)
{
    steer_World *w = test_world(NULL);
    REQUIRE(w, "world");
    CHECK(STEER_NO_AGENT.id == 0 && STEER_NO_SHAPE.id == 0, "the none handles are the zero values");
    double v[3];
    CHECK(!steer_alive(w, STEER_NO_AGENT), "no agent is alive");
    CHECK(steer_agent_vec(w, STEER_NO_AGENT, STEER_PROP_POSITION, v) == STEER_ESTALE, "no agent has a position");
    CHECK(steer_remove(w, STEER_NO_AGENT) == STEER_ESTALE, "no agent to remove");
    CHECK(!steer_shape_alive(w, STEER_NO_SHAPE), "no shape is alive");
    CHECK(steer_remove_shape(w, STEER_NO_SHAPE) == STEER_ESTALE, "no shape to remove");

    // failed adds and spawns hand back none
    steer_Shape s = { 7 };
    CHECK(steer_add_circle(w, (double[3]){ 0, 0, 0 }, -1, &s) == STEER_EARG && s.id == 0, "a refused circle is none");
    steer_Agent a = { 7 };
    CHECK(steer_spawn(w, &(steer_AgentDesc){ .mass = -1 }, &a) == STEER_EARG && a.id == 0, "a refused spawn is none");

    REQUIRE(steer_spawn(w, &(steer_AgentDesc){ .position = { 10, 0 } }, &a) == STEER_OK && a.id != 0, "spawn a");
    steer_Agent b;
    REQUIRE(steer_spawn(w, &(steer_AgentDesc){ .position = { 20, 0 } }, &b) == STEER_OK, "spawn b");
    REQUIRE(steer_add_circle(w, (double[3]){ 30, 0, 0 }, 1, &s) == STEER_OK && s.id != 0, "circle");
    CHECK(steer_world_agent_at(w, 2).id == 0 && steer_world_agent_at(w, -1).id == 0, "agent_at out of range is none");

    // a target slot set to none holds no agent
    double p[3];
    steer_Agent other;
    int kind;
    REQUIRE(steer_agent_set_target(w, a, NULL, b) == STEER_OK, "a targets b");
    steer_agent_target(w, a, p, &other, &kind);
    CHECK(kind == STEER_TARGET_AGENT && other.id == b.id, "the target is b");
    REQUIRE(steer_agent_set_target(w, a, NULL, STEER_NO_AGENT) == STEER_OK, "a targets none");
    steer_agent_target(w, a, p, &other, &kind);
    CHECK(kind == STEER_TARGET_SLOT && other.id == 0, "no target: kind %d, other %llx", kind,
          (unsigned long long)other.id);

    // a ray along +x: ignoring none hits a; a hit agent names no shape, a hit shape no agent
    steer_Hit hit;
    const double o[3] = { 0, 0, 0 }, dir[3] = { 1, 0, 0 };
    CHECK(steer_raycast(w, o, dir, 100, STEER_RAY_ALL, STEER_NO_AGENT, &hit) == 1 && hit.agent.id == a.id &&
              hit.shape.id == 0,
          "the ray hits a and no shape");
    CHECK(steer_raycast(w, o, dir, 100, STEER_RAY_SHAPES, STEER_NO_AGENT, &hit) == 1 && hit.shape.id == s.id &&
              hit.agent.id == 0,
          "the ray hits the circle and no agent");
    steer_world_free(w);
}

// A slot's generation (steer_agent_slot_generation) is the high half of the
// handle of the agent in it, moves on when that agent is removed, and is 0
// beyond the slots: the Lua 5.1 module widens a 53-bit id with it.
static void test_slot_generation(void)
{
    steer_World *w = new_world(0);
    REQUIRE(w, "world");
    CHECK(steer_agent_slot_generation(w, 0) == 0, "an empty world's slot 0 has generation %u",
          steer_agent_slot_generation(w, 0));
    steer_Agent a, b;
    REQUIRE(steer_spawn(w, &(steer_AgentDesc){ .position = { 1, 2 } }, &a) == STEER_OK, "spawn a");
    uint32_t slot = (uint32_t)a.id;
    CHECK(steer_agent_slot_generation(w, slot) == (uint32_t)(a.id >> 32), "a's slot has its handle's generation");
    CHECK(steer_agent_slot_generation(w, slot + 1) == 0 && steer_agent_slot_generation(w, UINT32_MAX) == 0,
          "a slot beyond the table has generation 0");
    REQUIRE(steer_remove(w, a) == STEER_OK, "remove a");
    CHECK(steer_agent_slot_generation(w, slot) != (uint32_t)(a.id >> 32), "a's generation outlived its removal");
    steer_world_step(w, 1);
    REQUIRE(steer_spawn(w, &(steer_AgentDesc){ .position = { 3, 4 } }, &b) == STEER_OK, "spawn b");
    CHECK((uint32_t)b.id == slot, "b reuses a's slot");
    CHECK(steer_agent_slot_generation(w, slot) == (uint32_t)(b.id >> 32), "the slot has b's generation");
    steer_world_free(w);
}

int main(void)
{
    RUN(test_stale_after_remove);
    RUN(test_reuse_never_aliases);
    RUN(test_churn_default_reorder);
    RUN(test_churn_reorder_every_tick);
    RUN(test_churn_no_reorder);
    RUN(test_remove_all_and_refill);
    RUN(test_forged_handle);
    RUN(test_storage_order);
    RUN(test_agents_list);
    RUN(test_zero_is_none);
    RUN(test_slot_generation);
    return check_report_("handles");
}
