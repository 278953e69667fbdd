// SPDX-License-Identifier: MIT
// test_serve.c — kinds that serve requests (steerB_Kind.serve, the hook
// navigate's path searches go through), in a program that links the core
// alone with a kinds table of its own. Its kind, "ask", asks once for work
// that costs `cost` units; serve answers the requests oldest first, then
// by handle slot, each whole, while the tick's budget (the world's
// path_budget) lasts, and raises STEER_EVENT_PATH_FOUND for each answer.
// Checked: the default and the setter of the budget; how many answers a
// tick gives; their order; that a later request waits behind older ones;
// that a snapshot carries the budget and the pending requests (the loaded
// world answers as the saved one would have, bit for bit).
#include "buf.h"
#include "check.h"
#include "core/brain.h"

#include <stdlib.h>
#include <string.h>

enum { NONE = 0, ASKED = 1, ANSWERED = 2 };

typedef struct Ask {
    float cost;  // units of work an answer takes
    float again; // ask again this many ticks after an answer (0: never)
} Ask;

static const steerB_Field ask_fields[] = {
    { "cost", STEERB_NUMBER, offsetof(Ask, cost), 1, 1, 1e6, "units of work", NULL },
    { "again", STEERB_NUMBER, offsetof(Ask, again), 0, 0, 1e6, "ticks", NULL },
    { NULL, 0, 0, 0, 0, 0, NULL, NULL },
};

// memory: state, request tick (bits), ticks since the answer
static void ask_eval(steerB_Ctx *c, const steerB_Node *n, float out[3])
{
    const Ask *p = STEERB_PARAMS_OF(n, Ask);
    float *m = c->mem + n->mem;
    if (m[0] == NONE || (m[0] == ANSWERED && p->again > 0 && ++m[2] >= p->again)) {
        m[0] = ASKED;
        m[2] = 0;
        steerB_request_tick(c->w, m);
    }
    out[0] = m[0] == ANSWERED ? 1.0f : 0.0f; // moves once answered
    out[1] = out[2] = 0.0f;
}

typedef struct Scratch {
    steerB_Request *req;
    uint32_t cap;
} Scratch;

static int served_per_tick[64], ticks_seen;

static void ask_serve(steer_World *w, void **state, uint32_t *budget)
{
    Scratch *s = *state;
    if (!s) {
        s = steerA_realloc(w, NULL, sizeof *s);
        if (!s) return;
        memset(s, 0, sizeof *s);
        *state = s;
    }
    int64_t n = steerB_requests(w, *(const steerB_Kind *const *)steerB_kinds, ASKED, &s->req, &s->cap);
    int served = 0;
    for (int64_t i = 0; i<n && * budget> 0; i++) {
        const steerB_Request *r = &s->req[i];
        float *m = steerW_mem(w, r->d) + w->brains[w->brain[r->d]]->nodes[r->node].mem;
        uint32_t cost = (uint32_t)STEERB_PARAMS_OF(&w->brains[w->brain[r->d]]->nodes[r->node], Ask)->cost;
        *budget = cost < *budget ? *budget - cost : 0; // whole: the last one may overrun
        m[0] = ANSWERED;
        steerT_event_to(&w->loc, w, STEER_EVENT_PATH_FOUND, r->d, STEER_NO_AGENT);
        served++;
    }
    if (ticks_seen < 64) served_per_tick[ticks_seen++] = served;
}

static void ask_free(steer_World *w, void *state)
{
    Scratch *s = state;
    if (!s) return;
    steerA_free(w, s->req);
    steerA_free(w, s);
}

static const steerB_Kind ask_kind = {
    .name = "ask", .fields = ask_fields, .eval = ask_eval, .mem_floats = 3, .serve = ask_serve, .serve_free = ask_free
};

const steerB_Kind *const steerB_kinds[] = { &ask_kind, NULL };

static steer_Behavior *ask(double cost, double again)
{
    steer_Behavior *n = NULL;
    if (steer_behavior_new("ask", &n) != STEER_OK) return NULL;
    steer_behavior_set_number(n, "cost", cost);
    steer_behavior_set_number(n, "again", again);
    return n;
}

static steer_World *make_world(uint32_t budget, int agents, double cost, double again, steer_Agent *h)
{
    steer_WorldDesc d = { .seed = 5, .path_budget = budget };
    steer_World *w = NULL;
    if (steer_world_new(&d, &w) != STEER_OK) return NULL;
    steer_Behavior *b = ask(cost, again);
    for (int i = 0; i < agents; i++) {
        steer_AgentDesc a = { .position = { i, (i * 7) % 5, 0 }, .brain = b };
        steer_spawn(w, &a, h ? &h[i] : NULL);
    }
    steer_behavior_release(b);
    return w;
}

static void test_budget_setting(void)
{
    steer_World *w = NULL;
    REQUIRE(steer_world_new(NULL, &w) == STEER_OK, "world");
    CHECK(steer_world_path_budget(w) == STEER_DEFAULT_PATH_BUDGET, "default budget: %u", steer_world_path_budget(w));
    CHECK(steer_world_set_path_budget(w, 0) == STEER_EARG, "a budget of 0 is refused");
    CHECK(steer_world_set_path_budget(w, 17) == STEER_OK && steer_world_path_budget(w) == 17, "set to 17");
    steer_world_free(w);
}

// 10 agents ask at once with a budget of 3 units and answers of 1 unit:
// three answers a tick, in handle order, all within four ticks.
static void test_budget_and_order(void)
{
    steer_Agent h[10];
    steer_World *w = make_world(3, 10, 1, 0, h);
    REQUIRE(w, "world");
    ticks_seen = 0;
    uint64_t order[10];
    int got = 0;
    for (int t = 0; t < 6; t++) {
        REQUIRE(steer_world_step(w, 1) == STEER_OK, "step");
        int n = 0;
        const steer_Event *ev = steer_world_events(w, &n);
        for (int i = 0; i < n; i++)
            if (ev[i].type == STEER_EVENT_PATH_FOUND && got < 10) order[got++] = ev[i].agent.id;
    }
    CHECK(served_per_tick[0] == 3 && served_per_tick[1] == 3 && served_per_tick[2] == 3 && served_per_tick[3] == 1 &&
              served_per_tick[4] == 0,
          "3, 3, 3, 1, 0 answers a tick: %d %d %d %d %d", served_per_tick[0], served_per_tick[1], served_per_tick[2],
          served_per_tick[3], served_per_tick[4]);
    CHECK(got == 10, "every agent answered: %d", got);
    for (int i = 0; i < got; i++) CHECK(order[i] == h[i].id, "answer %d went to agent %d (handle order)", i, i);
    steer_world_free(w);
}

// An answer dearer than the budget is still given whole, one a tick.
static void test_whole(void)
{
    steer_World *w = make_world(3, 4, 10, 0, NULL);
    REQUIRE(w, "world");
    ticks_seen = 0;
    steer_world_step(w, 5);
    CHECK(served_per_tick[0] == 1 && served_per_tick[3] == 1 && served_per_tick[4] == 0,
          "one whole answer a tick: %d %d %d", served_per_tick[0], served_per_tick[3], served_per_tick[4]);
    steer_world_free(w);
}

// A request made later waits behind the older ones, whatever its slot:
// agents 0..3 ask at tick 0 (budget 1: one answer a tick); agent 0, once
// answered, asks again 1 tick later, after agents 1..3's requests.
static void test_oldest_first(void)
{
    steer_Agent h[4];
    steer_World *w = make_world(1, 4, 1, 1, h);
    REQUIRE(w, "world");
    uint64_t seq[6];
    int got = 0;
    for (int t = 0; t < 6; t++) {
        steer_world_step(w, 1);
        int n = 0;
        const steer_Event *ev = steer_world_events(w, &n);
        for (int i = 0; i < n && got < 6; i++) seq[got++] = ev[i].agent.id;
    }
    REQUIRE(got == 6, "six answers: %d", got);
    CHECK(seq[0] == h[0].id && seq[1] == h[1].id && seq[2] == h[2].id && seq[3] == h[3].id && seq[4] == h[0].id,
          "0, 1, 2, 3, then 0 again (its second request is the youngest)");
    steer_world_free(w);
}

// Saved with requests pending: the loaded world has the budget and the
// queue, and runs on to the same hash and the same answers.
static void test_snapshot(void)
{
    steer_World *w = make_world(7, 40, 2, 5, NULL);
    REQUIRE(w, "world");
    steer_world_step(w, 2);
    size_t n;
    unsigned char *s = save(w, &n);
    REQUIRE(s, "save");
    steer_World *l = NULL;
    char err[200] = "";
    REQUIRE(steer_world_load(NULL, s, n, &l, err, sizeof err) == STEER_OK, "load: %s", err);
    CHECK(steer_world_path_budget(l) == 7, "the budget is saved: %u", steer_world_path_budget(l));
    for (int t = 0; t < 30; t++) {
        steer_world_step(w, 1);
        steer_world_step(l, 1);
        int a = 0, b = 0;
        const steer_Event *ea = steer_world_events(w, &a), *eb = steer_world_events(l, &b);
        CHECK(a == b && (a == 0 || memcmp(ea, eb, sizeof *ea * (size_t)a) == 0), "tick %d: the same answers", t);
    }
    CHECK(steer_world_hash(w) == steer_world_hash(l), "the same hash");
    free(s);
    steer_world_free(w);
    steer_world_free(l);
}

int main(void)
{
    RUN(test_budget_setting);
    RUN(test_budget_and_order);
    RUN(test_whole);
    RUN(test_oldest_first);
    RUN(test_snapshot);
    return check_report_("serve");
}
