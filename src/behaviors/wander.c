// SPDX-License-Identifier: MIT
// wander.c — random steering in the two variants of the seeds.
//
// "circle" (Reynolds): a target on a circle of `radius`, `distance` ahead
// of the agent, jittered by up to `jitter` metres per second on each axis
// and pulled back onto the circle; the force points at it in the agent's
// frame. "turn" (seed 001): the agent's turn rate takes a random step of at
// most `max_turn_change` rad/s per second, clamped to `max_turn_rate`, and
// the force is the centripetal one that turns the velocity at that rate
// while holding the cruise speed.
//
// Each agent draws from its own stream, so wandering agents stay
// deterministic in any evaluation order. Memory: three floats, the circle
// target (circle) or the yaw and pitch rates (turn).
#include "behavior.h"
#include "fields.h"
#include "laws.h"
#include "../core/rng.h"

typedef struct Wander {
    uint8_t variant; // 0 circle, 1 turn
    float distance, radius, jitter;
    float max_turn_rate, max_turn_change, speed;
} Wander;
STEERB_CHECK_SIZE(Wander);

static const char *const variants[] = { "circle", "turn", NULL };

static inline float signed_unit(uint32_t *rng) { return 2.0f * steer_rng32_unit(rng) - 1.0f; }

static void wander_init(steerB_Ctx *c, const steerB_Node *n)
{
    const Wander *p = STEERB_PARAMS_OF(n, Wander);
    float *t = c->mem + n->mem;
    if (p->variant != 0) {
        t[0] = t[1] = t[2] = 0.0f;
        return;
    }
    if (c->w->dim == 2) {
        float phi = steer_rng32_unit(c->rng) * 6.2831853f;
        v3_set(t, p->radius * steerM_cosf(phi), p->radius * steerM_sinf(phi), 0.0f);
    } else {
        // a uniform direction on the sphere
        float z = signed_unit(c->rng), phi = steer_rng32_unit(c->rng) * 6.2831853f;
        float r = sqrtf(1.0f - z * z);
        v3_set(t, p->radius * r * steerM_cosf(phi), p->radius * r * steerM_sinf(phi), p->radius * z);
    }
}

static inline void circle_force(const Wander *p, int dim, float dt, const float h[3], uint32_t *rng, float *t,
                                float out[3])
{
    float step = p->jitter * dt;
    t[0] += signed_unit(rng) * step;
    t[1] += signed_unit(rng) * step;
    if (dim == 3) t[2] += signed_unit(rng) * step;
    float l = v3_normalize(t);
    if (l == 0.0f) v3_set(t, 1.0f, 0.0f, 0.0f);
    v3_scale(t, t, p->radius);
    float side[3], up[3];
    v3_frame(side, up, dim, h);
    v3_scale(out, h, t[0] + p->distance);
    v3_madd(out, side, t[1]);
    if (dim == 3) v3_madd(out, up, t[2]);
}

static void circle(steerB_Ctx *c, const Wander *p, float *t, float out[3])
{
    circle_force(p, c->w->dim, c->dt, c->h, c->rng, t, out);
}

static float clampf(float x, float lo, float hi) { return x < lo ? lo : x > hi ? hi : x; }

static inline void turn_force(const Wander *p, int dim, float dt, const float h[3], const float v[3], float mass,
                              float max_speed, float max_force, uint32_t *rng, float *rate, float out[3])
{
    float step = p->max_turn_change * dt;
    rate[0] = clampf(rate[0] + signed_unit(rng) * step, -p->max_turn_rate, p->max_turn_rate);
    if (dim == 3) rate[1] = clampf(rate[1] + signed_unit(rng) * step, -p->max_turn_rate, p->max_turn_rate);
    float side[3], up[3];
    v3_frame(side, up, dim, h);
    float speed = v3_len(v);
    float cruise = steerB_cruise(p->speed, max_speed);
    // centripetal part: m * speed * rate, sideways (and up in 3D)
    v3_scale(out, side, mass * speed * rate[0]);
    if (dim == 3) v3_madd(out, up, mass * speed * rate[1]);
    // speed part: track the cruise speed along the heading
    float k = max_speed > 0.0f ? max_force / max_speed : 0.0f;
    v3_madd(out, h, k * (cruise - speed));
}

static void turn(steerB_Ctx *c, const Wander *p, float *rate, float out[3])
{
    turn_force(p, c->w->dim, c->dt, c->h, c->v, c->mass, c->max_speed, c->max_force, c->rng, rate, out);
}

static void wander_eval(steerB_Ctx *c, const steerB_Node *n, float out[3])
{
    const Wander *p = STEERB_PARAMS_OF(n, Wander);
    float *m = c->mem + n->mem;
    if (p->variant == 0) circle(c, p, m, out);
    else turn(c, p, m, out);
}

// The circle variant for a batch in 2D: circle_force's arithmetic, spelt
// out over lanes in loops the compiler vectorises (the world's streams and
// memory rows are gathered first and written back after). A lane whose
// target collapsed to zero or overflowed, normalisation's rare cases, is
// left untouched here and redone by circle_force itself.
static void circle_batch_2d(steerB_Batch *bt, const steerB_Node *n, const Wander *p, steerB_Lanes out)
{
    const steer_World *w = bt->w;
    const int m = bt->n;
    float *row[STEERB_BATCH];
    float t0[STEERB_BATCH], t1[STEERB_BATCH], t2[STEERB_BATCH];
    uint32_t r[STEERB_BATCH];
    int rare[STEERB_BATCH];
    for (int k = 0; k < m; k++) {
        row[k] = steerW_mem(w, bt->d[k]) + n->mem;
        t0[k] = row[k][0];
        t1[k] = row[k][1];
        t2[k] = row[k][2];
        r[k] = w->rng32[bt->d[k]];
    }
    const float step = p->jitter * bt->dt, radius = p->radius, dist = p->distance;
    for (int k = 0; k < m; k++) {
        float ux = signed_unit(&r[k]), uy = signed_unit(&r[k]);
        float a = t0[k] + ux * step, b = t1[k] + uy * step, c = t2[k];
        float l2 = a * a + b * b + c * c;
        rare[k] = (l2 <= STEER_EPS2) | (l2 > FLT_MAX); // no branch: the loop vectorises
        float inv = 1.0f / sqrtf(l2);
        a = a * inv * radius;
        b = b * inv * radius;
        c = c * inv * radius;
        t0[k] = a;
        t1[k] = b;
        t2[k] = c;
        float h0 = bt->h[0][k], h1 = bt->h[1][k], h2 = bt->h[2][k], ahead = a + dist;
        out[0][k] = h0 * ahead + -h1 * b;
        out[1][k] = h1 * ahead + h0 * b;
        out[2][k] = h2 * ahead + 0.0f * b;
    }
    for (int k = 0; k < m; k++) {
        uint32_t d = bt->d[k];
        if (rare[k]) {
            float h[3], o[3];
            steerB_lane(bt->h, k, h);
            circle_force(p, 2, bt->dt, h, &w->rng32[d], row[k], o);
            steerB_set_lane(out, k, o);
            continue;
        }
        row[k][0] = t0[k];
        row[k][1] = t1[k];
        row[k][2] = t2[k];
        w->rng32[d] = r[k];
    }
}

static void wander_batch(steerB_Batch *bt, const steerB_Node *n, steerB_Lanes out)
{
    const Wander *p = STEERB_PARAMS_OF(n, Wander);
    const steer_World *w = bt->w;
    int dim = w->dim;
    if (p->variant == 0 && dim == 2) {
        circle_batch_2d(bt, n, p, out);
        return;
    }
    for (int k = 0; k < bt->n; k++) {
        uint32_t d = bt->d[k];
        float *m = steerW_mem(w, d) + n->mem, h[3], o[3];
        steerB_lane(bt->h, k, h);
        if (p->variant == 0) {
            circle_force(p, dim, bt->dt, h, &w->rng32[d], m, o);
        } else {
            float v[3];
            steerB_lane(bt->v, k, v);
            turn_force(p, dim, bt->dt, h, v, bt->mass[k], bt->max_speed[k], bt->max_force[k], &w->rng32[d], m, o);
        }
        steerB_set_lane(out, k, o);
    }
}

static const steerB_Field wander_fields[] = {
    { "variant", STEERB_CHOICE, offsetof(Wander, variant), 0, 0, 0, "\"circle\" or \"turn\"", variants },
    { "distance", STEERB_NUMBER, offsetof(Wander, distance), 5, 0, 1e30, "a number", NULL },
    { "radius", STEERB_NUMBER, offsetof(Wander, radius), 1, 1e-6, 1e30, "a number", NULL },
    { "jitter", STEERB_NUMBER, offsetof(Wander, jitter), 5, 0, 1e30, "a number (metres per second)", NULL },
    { "max_turn_rate", STEERB_NUMBER, offsetof(Wander, max_turn_rate), 1, 0, 1e30, "a number (radians per second)",
      NULL },
    { "max_turn_change", STEERB_NUMBER, offsetof(Wander, max_turn_change), 2, 0, 1e30,
      "a number (radians per second, per second)", NULL },
    STEERB_SPEED_ROW(Wander),
    { 0 }
};

const steerB_Kind steerB_wander = { .name = "wander",
                                    .fields = wander_fields,
                                    .eval = wander_eval,
                                    .mem_floats = 3,
                                    .init = wander_init,
                                    .eval_batch = wander_batch };
