// SPDX-License-Identifier: MIT
// pattern.c — formation patterns (see pattern.h).
#include "pattern.h"

#include "../core/pmath.h"

#include <math.h>
#include <string.h>

// A wedge's rows: sqrt(3)/2 spacings apart, so that a member is a spacing
// from its neighbours in its row and in the rows before and behind.
#define ROW_DEPTH 0.8660254f

static const char *const names[STEERU_PATTERN_COUNT] = { "line", "column", "wedge", "circle", "box", "vee" };

const char *steerU_pattern_name(SteerUPattern p) { return (int)p >= 0 && p < STEERU_PATTERN_COUNT ? names[p] : NULL; }

int steerU_pattern_find(const char *name)
{
    for (int p = 0; p < STEERU_PATTERN_COUNT; p++)
        if (!strcmp(names[p], name)) return p;
    return -1;
}

// Slot i of n: every pattern's slot follows from (i, n) alone.
static void slot(SteerUPattern p, int n, float s, int i, float *x, float *y)
{
    switch (p) {
    case STEERU_LINE: // the first on the left
        *x = 0;
        *y = s * ((float)(n - 1) * 0.5f - (float)i);
        return;
    case STEERU_COLUMN:
        *x = -s * (float)i;
        *y = 0;
        return;
    case STEERU_WEDGE: { // row r (from the tip) holds r + 1; the last row, when short, in its middle
        int r = 0;
        while ((r + 1) * (r + 2) / 2 <= i) r++;
        int first = r * (r + 1) / 2, in_row = n - first < r + 1 ? n - first : r + 1;
        int j = i - first + (r + 1 - in_row) / 2; // the place in a full row, from the left
        *x = -s * ROW_DEPTH * (float)r;
        *y = s * (0.5f * (float)r - (float)j);
        return;
    }
    case STEERU_VEE: {
        int k = (i + 1) / 2; // the pair's distance from the tip, in spacings
        *x = -s * (float)k;
        *y = i == 0 ? 0.0f : (i % 2 ? s * (float)k : -s * (float)k);
        return;
    }
    case STEERU_CIRCLE: {
        if (n == 1) {
            *x = *y = 0;
            return;
        }
        // neighbours s apart in a straight line (the chord)
        float r = s / (2 * steerM_sinf(3.14159265359f / (float)n)), c, sn;
        steerM_sincosf(6.28318530718f * (float)i / (float)n, &sn, &c);
        *x = r * c;
        *y = r * sn;
        return;
    }
    case STEERU_BOX: {
        int cols = 1;
        while (cols * cols < n) cols++;
        int row = i / cols, col = i % cols;
        int in_row = n - row * cols < cols ? n - row * cols : cols;
        *x = -s * (float)row;
        *y = s * ((float)(in_row - 1) * 0.5f - (float)col);
        return;
    }
    default: *x = *y = 0; return;
    }
}

void steerU_pattern_offsets(SteerUPattern p, int n, float s, float *x, float *y)
{
    for (int i = 0; i < n; i++) slot(p, n, s, i, x + i, y + i);
}

float steerU_pattern_width(SteerUPattern p, int n, float s)
{
    if (n <= 0) return 0;
    float lo = 0, hi = 0;
    for (int i = 0; i < n; i++) {
        float x, y;
        slot(p, n, s, i, &x, &y);
        lo = y < lo ? y : lo;
        hi = y > hi ? y : hi;
    }
    return hi - lo + s;
}
