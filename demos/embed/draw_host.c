// SPDX-License-Identifier: MIT
// draw_host.c — a C host that draws steer's debug view in its own
// "renderer", without SDL or Lua: the agents, the shapes and one agent's
// brain tree, all read through steer_debug.h (the arrays stay valid until
// the next step). The renderer is a character grid printed to stdout and,
// with --ppm OUT.ppm, a 240 x 160 picture.
//
// It also checks what it drew, so the test suite runs it: every agent it
// plotted is where steer_agent_vec says, the brain's nodes come in the
// order the host built them with their names, kinds and weights, and each
// node's force is the one steer_agent_contributions reports.
//   draw_host [--ticks N] [--ppm OUT.ppm]
#include "steer.h"
#include "steer_debug.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define W_M 60.0 // the world, metres
#define H_M 40.0
#define COLS 60 // the character grid: a cell is 1 x 2 m
#define ROWS 20
#define PX 4   // picture pixels per metre
#define PW 240 // W_M * PX
#define PH 160 // H_M * PX

static int failures;
#define EXPECT(cond, ...)                               \
    do {                                                \
        if (!(cond)) {                                  \
            fprintf(stderr, "draw_host: " __VA_ARGS__); \
            fputc('\n', stderr);                        \
            failures++;                                 \
        }                                               \
    } while (0)

static steer_Behavior *make(const char *kind, const char *name)
{
    steer_Behavior *b = NULL;
    if (steer_behavior_new(kind, &b) != STEER_OK) exit(1);
    steer_behavior_set_name(b, name);
    return b;
}

static void adopt(steer_Behavior *parent, steer_Behavior *child, double weight)
{
    steer_behavior_add_child(parent, child, weight);
    steer_behavior_release(child);
}

// The tree as the host built it, depth-first: what the iterator must list.
static const struct {
    const char *name, *kind;
    double weight; // given by a weighing parent (0: none)
} built[] = { { "guard", "priority", 0 }, { "shy", "flee", 0 },         { "walk", "blend", 0 },
              { "home", "arrive", 1 },    { "space", "separation", 2 }, { "roam", "wander", 0.5 } };

static steer_Behavior *guard_brain(void)
{
    double danger[3] = { 30, 20, 0 }, home[3] = { 50, 30, 0 };
    steer_Behavior *guard = make("priority", "guard"), *shy = make("flee", "shy"), *walk = make("blend", "walk");
    steer_Behavior *go = make("arrive", "home");
    steer_behavior_set_target_point(shy, "target", danger);
    steer_behavior_set_number(shy, "panic_radius", 6);
    steer_behavior_set_target_point(go, "target", home);
    adopt(walk, go, built[3].weight);
    adopt(walk, make("separation", "space"), built[4].weight);
    adopt(walk, make("wander", "roam"), built[5].weight);
    adopt(guard, shy, 1);
    adopt(guard, walk, 1);
    return guard;
}

static unsigned char picture[PH][PW][3];
static char grid[ROWS][COLS + 1];

static void pixel(int x, int y, const unsigned char rgb[3])
{
    if (x >= 0 && y >= 0 && x < PW && y < PH) memcpy(picture[PH - 1 - y][x], rgb, 3); // rows go down
}

// The shapes: a box filled, a circle as its outline.
static void draw_shapes(const steer_World *w)
{
    static const unsigned char grey[3] = { 110, 115, 130 };
    for (int s = 0, n = steer_debug_shape_slots(w); s < n; s++) {
        steer_DebugShape sh;
        if (steer_debug_shape(w, s, &sh) != 1) continue;
        for (int y = 0; y < PH; y++)
            for (int x = 0; x < PW; x++) {
                double mx = (x + 0.5) / PX, my = (y + 0.5) / PX;
                bool in = sh.kind == STEER_SHAPE_BOX ? mx >= sh.a[0] && mx <= sh.b[0] && my >= sh.a[1] && my <= sh.b[1]
                                                     : fabs(hypot(mx - sh.a[0], my - sh.a[1]) - sh.r) < 0.3;
                if (in) pixel(x, y, grey);
                if (in && x % (PW / COLS) == 0 && y % (PH / ROWS) == 0) grid[ROWS - 1 - y / (PH / ROWS)][x / PX] = '#';
            }
    }
}

// The agents from the arrays: a dot and a heading tick each, a letter in
// the grid. Checks each against the per-agent getters.
static void draw_agents(const steer_World *w, steer_Agent selected)
{
    steer_DebugAgents ag;
    EXPECT(steer_debug_agents(w, &ag) == STEER_OK, "no arrays");
    EXPECT(ag.count == steer_world_count(w), "%d entries for %d agents", ag.count, steer_world_count(w));
    for (int i = 0; i < ag.count; i++) {
        float x = ag.position[0][i], y = ag.position[1][i];
        steer_Agent a = steer_debug_agent_handle(w, i);
        double p[3];
        EXPECT(steer_agent_vec(w, a, STEER_PROP_POSITION, p) == STEER_OK && (float)p[0] == x && (float)p[1] == y,
               "agent %d drawn at (%g, %g), the getter says (%g, %g)", i, (double)x, (double)y, p[0], p[1]);
        bool sel = a.id == selected.id;
        const unsigned char col[3] = { sel ? 255 : 120, sel ? 220 : 200, sel ? 90 : 255 };
        int px = (int)(x * PX), py = (int)(y * PX);
        for (int dy = -1; dy <= 1; dy++)
            for (int dx = -1; dx <= 1; dx++) pixel(px + dx, py + dy, col);
        for (int k = 2; k <= 5; k++)
            pixel(px + (int)lroundf(ag.heading[0][i] * k), py + (int)lroundf(ag.heading[1][i] * k), col);
        int c = (int)(x * COLS / W_M), r = ROWS - 1 - (int)(y * ROWS / H_M);
        if (c >= 0 && c < COLS && r >= 0 && r < ROWS) grid[r][c] = sel ? '@' : 'o';
    }
}

typedef struct Contributions {
    double f[16][3];
    int n;
} Contributions;

static void on_contribution(void *ud, const char *name, const double f[3])
{
    Contributions *c = ud;
    (void)name;
    if (c->n < 16) memcpy(c->f[c->n], f, sizeof c->f[0]);
    c->n++;
}

// The selected agent's brain as an indented tree, checked against the
// tree the host built and the recorded contributions.
static void print_brain(const steer_World *w, steer_Agent a)
{
    steer_DebugAgent da;
    EXPECT(steer_debug_agent(w, a, &da) == STEER_OK, "the selected agent is gone");
    int want = (int)(sizeof built / sizeof built[0]);
    EXPECT(da.nodes == want && da.recorded, "%d nodes (recorded %d), built %d", da.nodes, da.recorded, want);
    Contributions c = { .n = 0 };
    steer_agent_contributions(w, a, on_contribution, &c);
    EXPECT(c.n == da.nodes, "%d contributions for %d nodes", c.n, da.nodes);
    printf("agent #%u's brain         force   (fx, fy)\n", (unsigned)(uint32_t)a.id + 1);
    for (int i = 0; i < da.nodes && i < want && i < 16; i++) {
        steer_DebugNode n;
        EXPECT(steer_debug_node(w, a, i, &n) == STEER_OK, "node %d", i);
        EXPECT(strcmp(n.name, built[i].name) == 0 && strcmp(n.kind, built[i].kind) == 0,
               "node %d is %s (%s), built %s (%s)", i, n.name, n.kind, built[i].name, built[i].kind);
        EXPECT(n.weighted == (built[i].weight > 0) && (!n.weighted || n.weight == (float)built[i].weight),
               "node %d's weight %g, built %g", i, (double)n.weight, built[i].weight);
        for (int k = 0; k < 3; k++)
            EXPECT(n.force[k] == (float)c.f[i][k], "node %d's force %d is %g, recorded %g", i, k, (double)n.force[k],
                   c.f[i][k]);
        char label[48];
        if (n.weighted) snprintf(label, sizeof label, "%*s%s x%g", 2 * n.depth, "", n.name, (double)n.weight);
        else snprintf(label, sizeof label, "%*s%s", 2 * n.depth, "", n.name);
        double len = sqrt((double)n.force[0] * n.force[0] + (double)n.force[1] * n.force[1]);
        printf("%-24s %6.2f (%5.1f,%5.1f)%s%s\n", label, len, (double)n.force[0], (double)n.force[1],
               n.note[0] ? "  " : "", n.note);
    }
}

int main(int argc, char **argv)
{
    int ticks = 240;
    const char *ppm = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--ticks") == 0 && i + 1 < argc) ticks = atoi(argv[++i]);
        else if (strcmp(argv[i], "--ppm") == 0 && i + 1 < argc) ppm = argv[++i];
        else {
            fprintf(stderr, "usage: draw_host [--ticks N] [--ppm OUT.ppm]\n");
            return 2;
        }
    }
    steer_World *w = NULL;
    steer_WorldDesc wd = { .size = { W_M, H_M } }; // records node outputs unless told not to
    if (steer_world_new(&wd, &w) != STEER_OK) return 1;
    double lo[3] = { 20, 5, 0 }, hi[3] = { 26, 12, 0 }, centre[3] = { 30, 20, 0 };
    steer_add_box(w, lo, hi, NULL);
    steer_add_circle(w, centre, 4, NULL);
    steer_Behavior *brain = guard_brain();
    steer_Agent first = STEER_NO_AGENT;
    for (int i = 0; i < 24; i++) {
        steer_AgentDesc ad = {
            .position = { 4 + (i % 6) * 3, 6 + (i / 6) * 7 }, .max_speed = 3, .max_force = 4, .brain = brain
        };
        steer_Agent a;
        if (steer_spawn(w, &ad, &a) != STEER_OK) return 1;
        if (i == 0) first = a;
    }
    steer_behavior_release(brain);
    steer_world_step(w, ticks);

    memset(picture, 24, sizeof picture);
    for (int r = 0; r < ROWS; r++) {
        memset(grid[r], '.', COLS);
        grid[r][COLS] = '\0';
    }
    draw_shapes(w);
    draw_agents(w, first);
    for (int r = 0; r < ROWS; r++) puts(grid[r]);
    print_brain(w, first);
    if (ppm) {
        FILE *f = fopen(ppm, "wb");
        if (!f || fprintf(f, "P6\n%d %d\n255\n", PW, PH) < 0 || fwrite(picture, sizeof picture, 1, f) != 1) {
            fprintf(stderr, "draw_host: cannot write %s\n", ppm);
            failures++;
        }
        if (f) fclose(f);
    }
    steer_world_free(w);
    if (failures) fprintf(stderr, "draw_host: %d checks failed\n", failures);
    return failures ? 1 : 0;
}
