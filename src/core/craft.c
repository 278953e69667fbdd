// SPDX-License-Identifier: MIT
// craft.c — turn-limited vehicles: the craft locomotion model and the turn
// limits a point mass may carry for directed seek.
//
// A craft flies forward only. Each tick its steering force (truncated to
// max_force, as for a point mass) asks for the velocity v + F/m dt; the
// heading turns toward that velocity by at most speed / r(speed) * dt
// radians, and the speed becomes that velocity's length (a wish behind the
// craft slows it instead), kept within [min_speed, max_speed]. So max_force
// bounds the speed change and the sideways acceleration alike, and the
// radius bounds the turn. A braking wish the craft cannot meet at min_speed
// (a force pointing more backward than sideways: a target behind it) turns
// it toward the force instead, at the full rate;
// a wish straight behind turns it to its left (2D) or pulls it up (3D), so
// it comes about.
//
// In 3D a craft keeps a full frame: forward (the heading), up, and side =
// forward x up. Up banks into turns as in a coordinated turn under standard
// gravity (lift along up balances gravity plus the centripetal
// acceleration), rolling at most ROLL_RATE rad/s. Nothing reads the bank
// back: it is for viewers and scripts (a.up).
//
// Turn records live by handle slot (see world.h), so compaction and the
// spatial re-sort never move them, and a reused slot's old record is stale
// by its generation.
#include "craft.h"
#include "vecmath.h"

#define GRAVITY 9.81f
#define ROLL_RATE 3.0f // rad/s

float steerF_turn_radius(const steerW_Turn *t, float speed)
{
    float r = t->min_turn_radius;
    if (t->max_turn_accel > 0.0f) {
        float g = speed * speed / t->max_turn_accel;
        if (g > r) r = g;
    }
    return r;
}

// The up a banked frame with forward h wants for sideways acceleration
// `lat`: lift balances gravity and the turn. Keeps `up` when h is vertical.
static void bank(const float h[3], const float lat[3], float up[3], float dt)
{
    float want[3] = { lat[0], lat[1], lat[2] + GRAVITY };
    float ortho[3];
    if (v3_perp_to(ortho, want, h) < 1e-3f) v3_copy(ortho, up);
    float keep[3];
    if (v3_perp_to(keep, up, h) < 1e-3f) steerF_derived_up(h, keep);
    float side[3];
    v3_cross(side, h, keep);
    v3_turn_toward(up, keep, ortho, ROLL_RATE * dt, side);
}

void steerF_craft_step(const steer_World *w, uint32_t d, const float fin[3], float v[3], float h[3])
{
    steerW_Turn *t = &w->turn[w->slot[d]];
    float dt = w->dt, m = w->mass[d], f[3], old[3];
    v3_copy(f, fin);
    v3_truncate(f, w->max_force[d]);
    steerW_load(w->h, d, old);
    float speed = v3_len(v);
    // the velocity the force asks for; its length is the new speed (a wish
    // behind the craft only slows it)
    float want[3];
    v3_copy(want, v);
    v3_madd(want, f, dt / m);
    float top = w->max_speed[d], low = t->min_speed < top ? t->min_speed : top;
    float next = v3_dot(want, old) > 0.0f ? v3_len(want) : speed - v3_len(f) * dt / m;
    // a braking wish it cannot meet at min_speed (a force more backward
    // than sideways) turns it instead
    float back = -v3_dot(f, old), lat[3];
    v3_copy(lat, f);
    v3_madd(lat, old, back);
    if (next < low && back * dt / m > 1e-3f * (speed + 1.0f) && back * back > v3_len2(lat)) v3_copy(want, f);
    next = next < low ? low : next > top ? top : next;
    // turn toward it, no sharper than the radius at the current speed allows
    float r = steerF_turn_radius(t, speed), side[3];
    if (w->dim == 2) v3_left(side, old);
    else v3_copy(side, t->up);
    float step = r > 0.0f ? speed * dt / r : 0.0f;
    float turned = v3_turn_toward(h, old, want, step, side);
    v3_scale(v, h, next);
    if (w->dim == 3 && dt > 0.0f) {
        // sideways acceleration of this tick's turn: speed * turn rate, toward the new heading
        float lat[3];
        v3_sub(lat, h, old);
        v3_perp_to(lat, lat, old);
        v3_scale(lat, lat, speed * turned / dt);
        float up[3];
        v3_copy(up, t->up);
        bank(h, lat, up, dt);
        if (v3_finite(up)) v3_copy(t->up, up);
    }
}

// The world's up (+z) made perpendicular to forward h; when h is vertical,
// the up that keeps the frame right-handed with side +y.
void steerF_derived_up(const float h[3], float up[3])
{
    float z[3] = { 0.0f, 0.0f, 1.0f };
    if (v3_perp_to(up, z, h) > 1e-3f) return;
    float y[3] = { 0.0f, 1.0f, 0.0f }; // h is +-z: up = y x h
    v3_cross(up, y, h);
    if (v3_normalize(up) == 0.0f) v3_set(up, 1.0f, 0.0f, 0.0f);
}

void steerF_up(const steer_World *w, uint32_t d, float up[3])
{
    float h[3];
    steerW_load(w->h, d, h);
    const steerW_Turn *t = steerW_turn(w, d);
    if (w->dim == 3 && t && t->craft && v3_perp_to(up, t->up, h) > 1e-3f) return;
    steerF_derived_up(h, up);
}

void steerF_craft_free(steer_World *w) { steerA_free(w, w->turn); }

// ---- the public API ----------------------------------------------------

int steer_agent_set_craft(steer_World *w, steer_Agent a, const steer_CraftDesc *desc)
{
    STEERA_WORLD(w, STEER_EARG);
    if (w->in_tick) return STEER_EBUSY;
    int64_t d = steerW_dense(w, a);
    if (d < 0) return STEER_ESTALE;
    uint32_t s = (uint32_t)a.id;
    if (!desc) {
        if (s < w->cap_turn) w->turn[s].gen = 0;
        return STEER_OK;
    }
    if ((desc->model != STEER_MODEL_POINT && desc->model != STEER_MODEL_CRAFT) ||
        !steerA_param_ok(desc->min_speed, true) || !steerA_param_ok(desc->min_turn_radius, false) ||
        !steerA_param_ok(desc->max_turn_accel, true) || (desc->model == STEER_MODEL_POINT && desc->min_speed > 0))
        return STEER_EARG;
    if (s >= w->cap_turn) {
        uint32_t cap = w->cap_slots > s ? w->cap_slots : s + 1;
        steerW_Turn *n = steerA_realloc(w, w->turn, sizeof *n * cap);
        if (!n) return STEER_ENOMEM;
        memset(n + w->cap_turn, 0, sizeof *n * (cap - w->cap_turn));
        w->turn = n;
        w->cap_turn = cap;
    }
    steerW_Turn *t = &w->turn[s];
    bool was_craft = t->gen == w->gen[s] && t->craft;
    t->gen = w->gen[s];
    t->craft = desc->model == STEER_MODEL_CRAFT;
    t->min_speed = (float)desc->min_speed;
    t->min_turn_radius = (float)desc->min_turn_radius;
    t->max_turn_accel = (float)desc->max_turn_accel;
    if (!was_craft) {
        float h[3];
        steerW_load(w->h, (uint32_t)d, h);
        steerF_derived_up(h, t->up);
    }
    if (t->craft) w->any_craft = true;
    return STEER_OK;
}

int steer_agent_craft(const steer_World *w, steer_Agent a, steer_CraftDesc *out)
{
    STEERA_WORLD(w, STEER_EARG);
    STEERA_NONNULL(out, "a steer_CraftDesc to fill", STEER_EARG);
    int64_t d = steerW_dense(w, a);
    if (d < 0) return STEER_ESTALE;
    const steerW_Turn *t = steerW_turn(w, (uint32_t)d);
    if (!t) return 0;
    out->model = t->craft ? STEER_MODEL_CRAFT : STEER_MODEL_POINT;
    out->min_speed = t->min_speed;
    out->min_turn_radius = t->min_turn_radius;
    out->max_turn_accel = t->max_turn_accel;
    return 1;
}

int steer_agent_turn_radius(const steer_World *w, steer_Agent a, double *out)
{
    STEERA_WORLD(w, STEER_EARG);
    STEERA_NONNULL(out, "a double to write", STEER_EARG);
    int64_t d = steerW_dense(w, a);
    if (d < 0) return STEER_ESTALE;
    const steerW_Turn *t = steerW_turn(w, (uint32_t)d);
    float v[3];
    steerW_load(w->v, (uint32_t)d, v);
    *out = t ? steerF_turn_radius(t, v3_len(v)) : 0.0;
    return STEER_OK;
}
