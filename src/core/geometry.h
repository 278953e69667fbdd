// SPDX-License-Identifier: MIT
// geometry.h — the static shapes (geometry.c): their grid, the queries
// that find them, closest points, rays.
#ifndef STEER_GEOMETRY_H
#define STEER_GEOMETRY_H

#include "world.h"

// Geometry (geometry.c)
// A wall's end points as stored: apart (the closest-point and ray tests
// divide by the squared length) and not so far apart that it overflows.
static inline bool steerO_wall_ok(const float a[3], const float b[3])
{
    float ex = b[0] - a[0], ey = b[1] - a[1], l2 = ex * ex + ey * ey;
    return l2 >= FLT_MIN && l2 <= FLT_MAX;
}
int steerO_geometry_ready(steer_World *w); // rebuild the shape grid if needed
void steerO_geometry_free(steer_World *w);
// Shapes whose boxes overlap [lo, hi] (and every plane) into loc->found
// (a worker's scratch during a pass, &w->loc between ticks; the shapes
// are only read); returns how many, or -1 when out of memory. Needs
// steerO_geometry_ready.
int steerO_shapes_near(const steer_World *w, steerW_Local *loc, const float lo[3], const float hi[3]);
// Closest point of a shape to p and the outward normal there.
void steerO_closest(const steer_World *w, const steerW_Shape *s, const float p[3], float out[3], float normal[3]);
// Distance from p to the shape's surface, negative inside.
float steerO_signed_distance(const steer_World *w, const steerW_Shape *s, const float p[3]);
// The nearest shape on the ray o + t dir (dir unit), t <= length (loc as
// for steerO_shapes_near).
bool steerO_ray_shapes(const steer_World *w, steerW_Local *loc, const float o[3], const float dir[3], float length,
                       float *t, float n[3], uint32_t *shape);
// Ray o + t dir (dir unit) against a shape: the first t >= 0 and the normal.
bool steerO_ray_shape(const steer_World *w, const steerW_Shape *s, const float o[3], const float dir[3], float *t,
                      float n[3]);

#endif
