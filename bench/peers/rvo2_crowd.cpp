// SPDX-License-Identifier: MIT
// rvo2_crowd.cpp — rvo2-crowd: the RVO2 peer of `steer-bench crowd` (issue 18).
//
//   rvo2-crowd [--scenario NAME] [--dt 1/60|0.25] [--method rvo2|rvo2-noise] [--variants K] [--jitter K]
//
// Runs the scenarios of crowd_scen.h in RVO2 (the ORCA reference library)
// and scores them with crowd_scen.c, so its lines compare one for one with
// steer's. Prints crowd_scen's metric line per scenario x dt x method (all
// of them by default; the options pick one of each, --variants caps the
// runs of the obstacle fields, --jitter K runs layout K of each scene:
// crowd_scene_jitter, as `steer-bench crowd --jitter K`). bench/peers/rvo2.sh builds it from an RVO2
// source tree; it is not part of the meson build (RVO2 is not vendored).
//
// RVO2 is driven as its own examples drive it:
// - setTimeStep(dt); radius and max speed per agent from the scene, and
//   neighborDist, maxNeighbors, timeHorizon, timeHorizonObst: 15 m, 10, 10 s,
//   10 s (examples/Circle.cc's) for agents of radius 0.5 m and up (the
//   2 m/s scenes), 5 m, 10, 5 s, 2 s for the pedestrians (radius 0.3 m).
// - Before each doStep, the preferred velocity: max speed towards the goal
//   (towards its waypoint first, where the scene has one: crowd_scene_target,
//   always at max speed, so that it goes through it as steer's seek does),
//   shortened to land on the goal when it is nearer than max_speed * dt, zero
//   within kAtGoal. Method rvo2 adds nothing; rvo2-noise adds the examples'
//   symmetry-breaking perturbation (Blocks.cc: angle uniform in [0, 2 pi),
//   magnitude uniform in [0, 1e-4] m/s) from a fixed-seed xorshift32
//   instead of their time-seeded rand(), so a run repeats.
// - A circle obstacle becomes the 16-gon circumscribing it (vertices
//   counter-clockwise, as addObstacle wants), so staying out of the polygon
//   keeps an agent out of the circle; a wall segment becomes a 2-vertex
//   obstacle (RVO2's thin obstacle). Overlapping circles of the fields stay
//   overlapping polygons: RVO2 asks for non-intersecting ones, we give it
//   the scene as it is.
// - Heading for the metrics: the unit velocity, held from the last tick
//   below 1e-6 m/s (the goal direction before the first move).
// - ms per tick: the wall time of doStep alone, on one thread (RVO2 is
//   compiled without -fopenmp, so its parallel loops are serial).
#include "RVO.h"

#include "../crowd_scen.h"
#include "../timing.h"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace
{

// RVO2's per-agent avoidance parameters (see the header).
struct Params {
    float neighbor_dist;
    std::size_t max_neighbors;
    float time_horizon, time_horizon_obst;
};
const Params kCircleParams = { 15.0f, 10, 10.0f, 10.0f };  // examples/Circle.cc
const Params kPedestrianParams = { 5.0f, 10, 5.0f, 2.0f }; // r 0.3 m, 0.6-1.6 m/s
const double kPedestrianRadius = 0.4;                      // below this, kPedestrianParams

const double kAtGoal = 1e-4;            // m: nearer than this the preferred velocity is zero
const double kStill = 1e-6;             // m/s: below this the heading is held
const float kNoiseMagnitude = 1e-4f;    // m/s, examples/Blocks.cc
const std::uint32_t kNoiseSeed = 12345; // xorshift32, one stream per run, advanced per agent per tick
const int kPolygonSides = 16;

const double kTwoPi = 6.283185307179586;

// xorshift32 as docs/benchmarks.md has it; a uniform draw in [0, 1) from 24 bits.
float uniform(std::uint32_t *state)
{
    std::uint32_t x = *state;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    *state = x;
    return (float)(x >> 8) / 16777216.0f;
}

void add_obstacle(RVO::RVOSimulator *sim, const CrowdObstacle *o)
{
    std::vector<RVO::Vector2> v;
    if (o->kind == CROWD_SEGMENT) {
        v.push_back(RVO::Vector2((float)o->a[0], (float)o->a[1]));
        v.push_back(RVO::Vector2((float)o->b[0], (float)o->b[1]));
    } else {
        // Vertices at distance r / cos(pi / sides) put every edge tangent to the circle.
        double corner = o->r / std::cos(kTwoPi / (2 * kPolygonSides));
        for (int k = 0; k < kPolygonSides; k++) {
            double a = kTwoPi * k / kPolygonSides;
            v.push_back(RVO::Vector2((float)(o->c[0] + corner * std::cos(a)), (float)(o->c[1] + corner * std::sin(a))));
        }
    }
    sim->addObstacle(v);
}

void set_preferred_velocities(RVO::RVOSimulator *sim, const CrowdScene *s, double dt, std::uint32_t *noise,
                              unsigned char *past)
{
    for (int i = 0; i < s->n; i++) {
        const RVO::Vector2 &p = sim->getAgentPosition(i);
        double at[2] = { p.x(), p.y() };
        const double *goal = crowd_scene_target(s, i, at, &past[i]); // a waypoint first, where the scene has one
        double dx = goal[0] - p.x(), dy = goal[1] - p.y();
        double d = std::sqrt(dx * dx + dy * dy), reach = s->max_speed[i] * dt;
        double scale = d < kAtGoal ? 0.0 : d > reach ? s->max_speed[i] / d : 1.0 / dt;
        if (s->via && !past[i]) {
            // the waypoint at full speed, never landing on it: it is past only
            // on its normal's far side (on it: along the normal, unit length)
            if (d < kAtGoal) dx = goal[2], dy = goal[3], d = 1.0;
            scale = s->max_speed[i] / d;
        }
        RVO::Vector2 pref((float)(dx * scale), (float)(dy * scale));
        if (noise) {
            float angle = uniform(noise) * (float)kTwoPi, dist = uniform(noise) * kNoiseMagnitude;
            pref = pref + dist * RVO::Vector2(std::cos(angle), std::sin(angle));
        }
        sim->setAgentPrefVelocity(i, pref);
    }
}

// One run of a scene until crowd_metrics_finished; the caller frees the result.
CrowdMetrics *run(const CrowdScene *s, double dt, bool with_noise)
{
    RVO::RVOSimulator sim;
    sim.setTimeStep((float)dt);
    for (int i = 0; i < s->n; i++) {
        const Params &k = s->radius[i] < kPedestrianRadius ? kPedestrianParams : kCircleParams;
        sim.addAgent(RVO::Vector2((float)s->start[2 * i], (float)s->start[2 * i + 1]), k.neighbor_dist, k.max_neighbors,
                     k.time_horizon, k.time_horizon_obst, (float)s->radius[i], (float)s->max_speed[i]);
    }
    for (int o = 0; o < s->nobs; o++) add_obstacle(&sim, &s->obs[o]);
    sim.processObstacles();

    std::size_t n2 = 2 * (std::size_t)s->n;
    std::vector<double> pos(n2), vel(n2), heading(n2);
    for (int i = 0; i < s->n; i++) {
        double hx = s->goal[2 * i] - s->start[2 * i], hy = s->goal[2 * i + 1] - s->start[2 * i + 1];
        double len = std::sqrt(hx * hx + hy * hy);
        heading[2 * i] = len > 0 ? hx / len : 1.0;
        heading[2 * i + 1] = len > 0 ? hy / len : 0.0;
    }
    std::uint32_t noise = kNoiseSeed;
    std::vector<unsigned char> past((std::size_t)s->n, 0);
    CrowdMetrics *m = crowd_metrics_new(s, dt);
    while (!crowd_metrics_finished(m)) {
        set_preferred_velocities(&sim, s, dt, with_noise ? &noise : NULL, &past[0]);
        double t0 = bench_now_ms();
        sim.doStep();
        double ms = bench_now_ms() - t0;
        for (int i = 0; i < s->n; i++) {
            const RVO::Vector2 &p = sim.getAgentPosition(i), &v = sim.getAgentVelocity(i);
            pos[2 * i] = p.x();
            pos[2 * i + 1] = p.y();
            vel[2 * i] = v.x();
            vel[2 * i + 1] = v.y();
            double speed = std::sqrt(vel[2 * i] * vel[2 * i] + vel[2 * i + 1] * vel[2 * i + 1]);
            if (speed >= kStill) {
                heading[2 * i] = vel[2 * i] / speed;
                heading[2 * i + 1] = vel[2 * i + 1] / speed;
            }
        }
        crowd_metrics_tick(m, pos.data(), vel.data(), heading.data(), ms);
    }
    return m;
}

// Every variant of one scenario at one dt and method, pooled into one line.
int run_scenario(const char *name, double dt, const char *method, int max_variants, int jitter)
{
    int variants = crowd_scene_variants(name);
    if (max_variants > 0 && max_variants < variants) variants = max_variants;
    std::vector<CrowdMetrics *> runs;
    for (int v = 0; v < variants; v++) {
        CrowdScene s;
        if (crowd_scene_make(name, v, &s) != 0) {
            fprintf(stderr, "rvo2-crowd: cannot make %s variant %d\n", name, v);
            return -1;
        }
        crowd_scene_jitter(&s, jitter);
        runs.push_back(run(&s, dt, std::strcmp(method, "rvo2-noise") == 0));
        crowd_scene_free(&s);
    }
    crowd_metrics_print(stdout, runs.data(), (int)runs.size(), "rvo2", method);
    fflush(stdout);
    for (std::size_t r = 0; r < runs.size(); r++) crowd_metrics_free(runs[r]);
    return 0;
}

// "1/60" or a number of seconds.
double parse_dt(const char *text)
{
    const char *slash = std::strchr(text, '/');
    return slash ? std::atof(text) / std::atof(slash + 1) : std::atof(text);
}

int usage()
{
    fprintf(stderr, "usage: rvo2-crowd [--scenario NAME] [--dt 1/60|0.25] [--method rvo2|rvo2-noise] "
                    "[--variants K] [--jitter K]\n");
    return 2;
}

} // namespace

int main(int argc, char **argv)
{
    const char *only_scenario = NULL, *only_method = NULL;
    double only_dt = 0;
    int max_variants = 0, jitter = 0;
    for (int a = 1; a < argc; a++) {
        if (a + 1 >= argc) return usage();
        if (!std::strcmp(argv[a], "--scenario")) only_scenario = argv[++a];
        else if (!std::strcmp(argv[a], "--dt")) {
            only_dt = parse_dt(argv[++a]);
            if (!(only_dt > 0)) return usage();
        } else if (!std::strcmp(argv[a], "--method")) only_method = argv[++a];
        else if (!std::strcmp(argv[a], "--variants")) max_variants = std::atoi(argv[++a]);
        else if (!std::strcmp(argv[a], "--jitter")) {
            jitter = std::atoi(argv[++a]);
            if (jitter < 0) return usage();
        } else return usage();
    }
    if (only_scenario && crowd_scene_variants(only_scenario) == 0) {
        fprintf(stderr, "rvo2-crowd: unknown scenario %s\n", only_scenario);
        return 2;
    }
    if (only_method && std::strcmp(only_method, "rvo2") && std::strcmp(only_method, "rvo2-noise")) return usage();

    std::vector<double> dts;
    if (only_dt > 0) {
        dts.push_back(only_dt);
    } else {
        dts.push_back(1.0 / 60.0);
        dts.push_back(0.25);
    }
    const char *const methods[] = { "rvo2", "rvo2-noise" };
    for (const char *const *name = crowd_scene_names; *name; name++) {
        if (only_scenario && std::strcmp(*name, only_scenario)) continue;
        for (std::size_t d = 0; d < dts.size(); d++) {
            for (int k = 0; k < 2; k++) {
                if (only_method && std::strcmp(methods[k], only_method)) continue;
                if (run_scenario(*name, dts[d], methods[k], max_variants, jitter) != 0) return 1;
            }
        }
    }
    return 0;
}
