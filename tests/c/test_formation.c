// SPDX-License-Identifier: MIT
// test_formation.c — a formation's bytes (issue 35; the resource's encode
// and decode, src/behaviors/formation.c): a round trip gives the same
// formation (and the same bytes again); damaged bytes are refused with a
// message, never a formation holding NaN, an unsorted member list or a slot
// past the last (a snapshot's checksum guards its bytes, but a host may
// hand any). Out of memory at any allocation, a join or a leave leaves every
// member a distinct slot of the shape, and nothing leaked.
#include "check.h"
#include "counting.h"
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
    // the end: the n offsets (2 f32 each); narrow, narrowed (u8 each), clear (u32), the odometer and the last
    // narrow place (f32); then (no mesh) a u8 0, replan (u8), the way's points and the next (u32 each: 0 here);
    // the trail's points (u32: 0); the last narrow place (2 f32) and the 5 members' ways (u8 0 each); the way
    // through it (2 f32), its queue's metres and speed (f32 each) and the 5 members' places in it (u32 each);
    // the ticks it has stood for its members past the gate (u32) and whether it is setting off in shape (u8)
    const size_t queue = 8 + 8 + 5 * 4 + 4 + 1, tail = 8 + 5 + queue, end = b.n - 14 - tail;
    refused_with(&b, end - 18, &nan, 4, "offset is not finite");
    uint8_t narrow = 9, narrowed = 2, wide = STEERB_FORMATION_WIDE, one = 1;
    refused_with(&b, end - 14, &narrow, 1, "narrow shape 9");
    refused_with(&b, end - 13, &narrowed, 1, "narrowed 2");
    refused_with(&b, end - 8, &inf, 4, "odometer");
    steerS_Writer c = { 0 };
    steerS_put(&c, b.p, b.n);
    memcpy(c.p + end - 14, &wide, 1);
    refused_with(&c, end - 13, &one, 1, "narrowed 1 with narrow shape 254");
    steerS_writer_free(&c);
    uint32_t nway = 1, kway = 2, ntrail = 8;
    refused_with(&b, end + 2, &nway, 4, "a way of 1 points"); // a way without a mesh
    refused_with(&b, end + 6, &kway, 4, "the next 2");        // the next point past the last
    refused_with(&b, end + 10, &ntrail, 4, "a trail of 8 points");
    uint8_t two = 2;
    refused_with(&b, b.n - queue - 1, &two, 1, "member 4's way: 2");
    refused_with(&b, b.n - queue - 13, &nan, 4, "the last narrow place is not finite");
    refused_with(&b, b.n - queue + 8, &inf, 4, "the queue through the last narrow place is not finite");
    uint32_t place = 6;
    refused_with(&b, b.n - 9, &place, 4, "member 4's place 6 in the queue of 5");
    refused_with(&b, b.n - 1, &two, 1, "its setting off is 2");
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

// Every member has a distinct slot point (the slots a permutation).
static bool slots_distinct(const steerB_Formation *f, uint32_t n)
{
    float p[64][3];
    for (uint32_t i = 0; i < n; i++)
        if (!steerB_formation_slot_of(f, steerB_formation_member(f, i), p[i])) return false;
    for (uint32_t i = 0; i < n; i++)
        for (uint32_t j = i + 1; j < n; j++)
            if (p[i][0] == p[j][0] && p[i][1] == p[j][1]) return false;
    return true;
}

static void test_out_of_memory(void)
{
    steer_World *w;
    REQUIRE(steer_world_new(&(steer_WorldDesc){ .seed = 1 }, &w) == STEER_OK, "world");
    steer_Agent a[12];
    for (int i = 0; i < 12; i++)
        steer_spawn(w, &(steer_AgentDesc){ .position = { (float)(i * 7 % 12), (float)(i * 5 % 12), 0 } }, &a[i]);
    for (long fail = 1; fail < 40; fail++) {
        Counting c = { 0, 0, 0 };
        steerB_Formation *f = steerB_formation_new(counting_alloc, &c);
        REQUIRE(f, "formation");
        c.fail_from = c.calls + fail;
        uint32_t n = 0;
        // join in an order that is not the handles' (so the member list shifts), then leave
        for (int k = 0; k < 12; k++) {
            int i = (k * 5) % 12;
            int st = steerB_formation_add(f, w, a[i], NULL, NULL);
            CHECK(st == STEER_OK || st == STEER_ENOMEM, "add %d: %d", i, st);
            steerB_FormationInfo in;
            steerB_formation_info(f, &in);
            n = in.n;
            CHECK(slots_distinct(f, n), "failing at %ld: distinct slots after joining %d (%u members)", fail, i, n);
        }
        for (int k = 0; k < 12; k += 3) {
            steerB_formation_remove(f, w, a[k], NULL, NULL);
            steerB_FormationInfo in;
            steerB_formation_info(f, &in);
            CHECK(slots_distinct(f, in.n), "failing at %ld: distinct slots after %d left", fail, k);
        }
        steerB_formation_release(f);
        CHECK(c.live == 0, "failing at %ld: %ld blocks leaked", fail, c.live);
    }
    steer_world_free(w);
}

int main(void)
{
    RUN(test_round_trip);
    RUN(test_bad_bytes);
    RUN(test_out_of_memory);
    return check_report_("formation");
}
