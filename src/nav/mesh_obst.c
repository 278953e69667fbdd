// SPDX-License-Identifier: MIT
// mesh_obst.c — obstacles' footprints (mesh_dyn.h): the status texts, a
// circle's polygon, a footprint's quantized box and whether it encloses
// anything.
#include "mesh_dyn.h"

#include "mesh_geom.h"
#include "mesh_snap.h"
#include "predicates.h"

#include <math.h>

const char *steerN_obstacle_status_text(steerN_ObstacleStatus s)
{
    switch (s) {
    case STEERN_OBST_OK: return "";
    case STEERN_OBST_NOMEM: return "out of memory";
    case STEERN_OBST_BADPOINT: return "a point not finite or too far out";
    case STEERN_OBST_BADSHAPE: return "a polygon of fewer than 3 points, or all on one line (to the millimetre)";
    case STEERN_OBST_BADAREA: return "an area that is not one of the mesh's";
    case STEERN_OBST_GONE: return "the obstacle was removed";
    case STEERN_OBST_LIMIT: return "too many obstacles or points";
    case STEERN_OBST_INTERNAL: return "the mesh could not be rebuilt under it (the mesh is as it was)";
    case STEERN_OBST_SEAM:
        return "its footprint cuts where its floor meets another layer's ground (a stair's foot or head, a bridge's "
               "end): keep it to one floor";
    case STEERN_OBST_BADLAYER: return "a layer the mesh does not have";
    }
    return "?";
}

// The cosine and sine of k sixteenths of a turn, the same bits everywhere
// (square roots are correctly rounded; libm's cos and sin need not be).
static void turn16(int k, double *c, double *s)
{
    double h = sqrt(0.5), a = 0.5 * sqrt(2.0 + sqrt(2.0)), b = 0.5 * sqrt(2.0 - sqrt(2.0));
    const double q[5] = { 1.0, a, h, b, 0.0 }; // cos of 0 .. 4 sixteenths
    double x = q[k % 4], y = q[4 - k % 4];
    for (int i = 0; i < k / 4; i++) {
        double t = x;
        x = -y;
        y = t;
    }
    *c = x;
    *s = y;
}

void steerN_obstacle_circle(const double center[2], double radius, double out[2 * STEERN_CIRCLE_SIDES])
{
    double corner = radius / (0.5 * sqrt(2.0 + sqrt(2.0))); // radius / cos(half a side's angle)
    for (int k = 0; k < STEERN_CIRCLE_SIDES; k++) {
        double c, s;
        turn16(k, &c, &s);
        out[2 * k] = center[0] + corner * c;
        out[2 * k + 1] = center[1] + corner * s;
    }
}

// The quantized box of n points; false when a point does not quantize.
bool steerN_obstacle_box(const double *xy, uint32_t n, int64_t box[4])
{
    for (uint32_t i = 0; i < n; i++) {
        int64_t q[2];
        if (!steerN_mesh_quantize(xy[2 * i], &q[0]) || !steerN_mesh_quantize(xy[2 * i + 1], &q[1])) return false;
        if (!steerN_coord_ok(q)) return false;
        for (int j = 0; j < 2; j++) {
            if (i == 0 || q[j] < box[j]) box[j] = q[j];
            if (i == 0 || q[j] > box[2 + j]) box[2 + j] = q[j];
        }
    }
    return true;
}

// Whether n points enclose anything once quantized (3 not on one line).
bool steerN_obstacle_encloses(const double *xy, uint32_t n)
{
    int64_t a[2], b[2], c[2];
    uint32_t i = 1;
    steerN_mesh_quantize(xy[0], &a[0]);
    steerN_mesh_quantize(xy[1], &a[1]);
    for (; i < n; i++) {
        steerN_mesh_quantize(xy[2 * i], &b[0]);
        steerN_mesh_quantize(xy[2 * i + 1], &b[1]);
        if (b[0] != a[0] || b[1] != a[1]) break;
    }
    for (i++; i < n; i++) {
        steerN_mesh_quantize(xy[2 * i], &c[0]);
        steerN_mesh_quantize(xy[2 * i + 1], &c[1]);
        if (steerN_orient2d(a, b, c) != 0) return true;
    }
    return false;
}
