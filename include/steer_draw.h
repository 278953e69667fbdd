// SPDX-License-Identifier: MIT
// steer_draw.h — a debug-draw command list: lines, arrows, circles, points
// and text in world coordinates. Scripts fill it (the Lua `d` of a
// scenario's draw(d, w)); a viewer, or a host's own renderer, reads it.
// Debug drawing is data: nothing here draws, nothing includes SDL or Lua.
#ifndef STEER_DRAW_H
#define STEER_DRAW_H

#include "steer.h"

#ifdef __cplusplus
extern "C" { // a C++ host links the C symbols
#endif

typedef enum steer_DrawKind {
    STEER_DRAW_LINE = 1,
    STEER_DRAW_ARROW,
    STEER_DRAW_CIRCLE,
    STEER_DRAW_POINT,
    STEER_DRAW_TEXT
} steer_DrawKind;

typedef struct steer_DrawCmd {
    uint8_t kind; // steer_DrawKind
    uint8_t rgba[4];
    float a[3], b[3]; // line and arrow ends; circle, point and text at a
    float r;          // circle radius (metres)
    uint32_t text;    // TEXT: offset of its NUL-terminated string in the list's text
} steer_DrawCmd;

typedef struct steer_DrawList {
    steer_DrawCmd *cmds;
    uint32_t n, cap;
    char *text;
    uint32_t ntext, cap_text;
} steer_DrawList;

// The most commands a list takes; further ones are dropped (a script that
// draws in a runaway loop must not eat the machine's memory).
#define STEER_DRAW_MAX (1u << 20)

STEER_API void steer_draw_clear(steer_DrawList *d); // keeps the memory
STEER_API void steer_draw_free(steer_DrawList *d);  // frees it; the list is empty after
// Append a command (text: the string of a TEXT command, copied).
// STEER_ENOMEM when out of memory, STEER_EFULL past STEER_DRAW_MAX.
STEER_API int steer_draw_push(steer_DrawList *d, const steer_DrawCmd *c, const char *text);

#ifdef __cplusplus
}
#endif

#endif
