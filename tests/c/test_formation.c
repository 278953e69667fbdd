// SPDX-License-Identifier: MIT
// test_formation.c — a formation's bytes (issue 35; the resource's encode
// and decode, src/behaviors/formation.c): a round trip gives the same
// formation (and the same bytes again); damaged bytes are refused with a
// message, never a formation holding NaN, an unsorted member list or a slot
// past the last (a snapshot's checksum guards its bytes, but a host may
// hand any).
#include "check.h"
#include "behaviors/behavior.h"

#include <math.h>
#include <string.h>

// The bytes of a formation of 5 agents of w in a wedge, going somewhere.
static steerS_Writer formation_bytes(steer_World *w)
{
    steerB_Formation *f = steerB_formation_new(NULL, NULL);
    steerB_formation_reshape(f, NULL, 2, NULL, NULL); // wedge
    steerB_formation_set_target(f, (const float[3]){ 30, 5, 0 });
    for (int i = 0; i < 5; i++) {
        steer_Agent a;
        steer_spawn(w, &(steer_AgentDesc){ .position = { (float)i, (float)-i, 0 } }, &a);
        CHECK(steerB_formation_add(f, w, a, NULL, NULL) == STEER_OK, "add %d", i);
    }
    steerS_Writer out;
    steerS_writer_init(&out, NULL, NULL);
    steerB_formation_resource.encode(f, &out);
    steerB_formation_release(f);
    return out;
}

// Decode n bytes at p: the formation or NULL with the message in err.
static steerB_Formation *decode(const unsigned char *p, size_t n, char *err, size_t len)
{
    steerS_Reader r;
    steerS_reader_init(&r, p, n, err, len);
    bool oom = false;
    steerB_Formation *f = steerB_formation_resource.decode(&r, NULL, NULL, &oom);
    if (f && steerS_left(&r)) {
        steerB_formation_release(f);
        f = NULL;
    }
    CHECK(!oom, "out of memory");
    return f;
}

static void test_round_trip(void)
{
    steer_World *w;
    REQUIRE(steer_world_new(&(steer_WorldDesc){ .seed = 1 }, &w) == STEER_OK, "world");
    steerS_Writer b = formation_bytes(w);
    char err[256] = "";
    steerB_Formation *f = decode(b.p, b.n, err, sizeof err);
    REQUIRE(f, "decode: %s", err);
    steerB_FormationInfo in;
    steerB_formation_info(f, &in);
    CHECK(in.n == 5 && in.pattern == 2 && in.has_target && in.target[0] == 30.0f, "what came back");
    steerS_Writer again;
    steerS_writer_init(&again, NULL, NULL);
    steerB_formation_resource.encode(f, &again);
    CHECK(again.n == b.n && memcmp(again.p, b.p, b.n) == 0, "the same bytes again");
    steerS_writer_free(&again);
    steerB_formation_release(f);
    steerS_writer_free(&b);
    steer_world_free(w);
}

// Put float v at byte offset at of a copy of the bytes and decode them.
static bool refused_with(const steerS_Writer *b, size_t at, const void *v, size_t vlen, const char *what)
{
    unsigned char copy[1024];
    if (b->n > sizeof copy) {
        CHECK(0, "%zu bytes", b->n);
        return false;
    }
    memcpy(copy, b->p, b->n);
    memcpy(copy + at, v, vlen);
    char err[256] = "";
    steerB_Formation *f = decode(copy, b->n, err, sizeof err);
    if (f) {
        steerB_formation_release(f);
        CHECK(0, "%s: decoded", what);
        return false;
    }
    CHECK(strstr(err, what) != NULL, "the message names %s: %s", what, err);
    return true;
}

static void test_bad_bytes(void)
{
    steer_World *w;
    REQUIRE(steer_world_new(&(steer_WorldDesc){ .seed = 1 }, &w) == STEER_OK, "world");
    steerS_Writer b = formation_bytes(w);
    // the layout: 4 u8, spacing, leader u64, target, position, velocity (3 f32 each), heading (2 f32), n
    const size_t spacing = 4, target = 16, pos = 28, head = 52, n = 60, members = 64;
    float nan = NAN, zero = 0.0f, inf = INFINITY;
    uint8_t pattern = 7, mode = 9;
    refused_with(&b, 0, &pattern, 1, "pattern 7");
    refused_with(&b, 1, &mode, 1, "assignment mode 9");
    refused_with(&b, spacing, &zero, 4, "spacing");
    refused_with(&b, target, &nan, 4, "not finite");
    refused_with(&b, pos + 4, &inf, 4, "not finite");
    refused_with(&b, head, &zero, 4, "no direction");
    refused_with(&b, b.n - 4, &nan, 4, "offset is not finite");
    uint32_t big = 1000000, slot = 5;
    refused_with(&b, n, &big, 4, "members");
    refused_with(&b, members + 8, &slot, 4, "slot 5 of 5"); // member 0's slot
    uint64_t id0;
    memcpy(&id0, b.p + members + 12, 8); // member 1's id as member 0's: out of order
    refused_with(&b, members, &id0, 8, "out of order");
    char err[256] = "";
    CHECK(decode(b.p, b.n - 3, err, sizeof err) == NULL, "truncated bytes decoded");
    steerS_writer_free(&b);
    steer_world_free(w);
}

int main(void)
{
    RUN(test_round_trip);
    RUN(test_bad_bytes);
    return check_report_("formation");
}
