// SPDX-License-Identifier: MIT
// test_shared.c — libsteer.so as a plug-in loader uses it (dlopen, as
// Godot's GDExtension or Unity's P/Invoke do): load it, resolve the API's
// functions with dlsym, step a world (tests/c/api_world.h), and compare its
// hash with the same world stepped by the core this program links
// statically. Run by tests/shared.sh after its symbol checks; built again
// by tests/install.sh against the installed steer.h and steer-core.pc, with
// libsteer.so and with libsteer.a.
//   test-shared [LIBSTEER_SO]   without an argument: print the linked core's hash
#define _GNU_SOURCE // dladdr
#include "api_world.h"

#include <dlfcn.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// This program holds two copies of the core: the static one it links and
// libsteer.so. A world or behaviour one made is refused by the other
// (STEER_EARG, and its steer_last_error names the function and says
// "another copy"), never stepped with the wrong struct. Returns non-zero
// and says why when a call crossed.
static int two_copies(void *lib, const ApiFns *loaded)
{
    const char *(*their_last_error)(void) = NULL;
    void *sym = dlsym(lib, "steer_last_error");
    if (!sym) {
        fprintf(stderr, "test-shared: dlsym steer_last_error: %s\n", dlerror());
        return 1;
    }
    memcpy(&their_last_error, &sym, sizeof sym);
    steer_World *theirs = NULL, *ours = NULL;
    steer_Behavior *their_seek = NULL;
    int bad = 0;
    if (loaded->world_new(NULL, &theirs) != STEER_OK || steer_world_new(NULL, &ours) != STEER_OK ||
        loaded->behavior_new("seek", &their_seek) != STEER_OK) {
        fprintf(stderr, "test-shared: could not make the two copies' objects\n");
        return 1;
    }
    if (steer_world_step(theirs, 1) != STEER_EARG || !strstr(steer_last_error(), "steer_world_step") ||
        !strstr(steer_last_error(), "another copy")) {
        fprintf(stderr, "test-shared: the static core stepped libsteer.so's world (\"%s\")\n", steer_last_error());
        bad = 1;
    }
    if (loaded->world_step(ours, 1) != STEER_EARG || !strstr(their_last_error(), "another copy")) {
        fprintf(stderr, "test-shared: libsteer.so stepped the static core's world (\"%s\")\n", their_last_error());
        bad = 1;
    }
    steer_AgentDesc d;
    memset(&d, 0, sizeof d);
    d.max_speed = d.max_force = 1;
    d.brain = their_seek;
    steer_Agent a = STEER_NO_AGENT;
    if (steer_spawn(ours, &d, &a) != STEER_EARG || steer_world_count(ours) != 0 ||
        !strstr(steer_last_error(), "brain")) {
        fprintf(stderr, "test-shared: the static core took libsteer.so's behaviour as a brain (\"%s\")\n",
                steer_last_error());
        bad = 1;
    }
    if (!bad) printf("two copies in one process: each refuses the other's world and behaviour\n");
    loaded->behavior_release(their_seek);
    loaded->world_free(theirs);
    steer_world_free(ours);
    return bad;
}

int main(int argc, char **argv)
{
    ApiFns linked = API_LINKED;
    uint64_t want = 0;
    int st = api_world(&linked, &want);
    if (st != STEER_OK) {
        fprintf(stderr, "test-shared: the linked core's world failed: %d\n", st);
        return EXIT_FAILURE;
    }
    if (argc < 2) {
        printf("%016" PRIx64 "\n", want);
        return EXIT_SUCCESS;
    }
    void *lib = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        fprintf(stderr, "test-shared: dlopen: %s\n", dlerror());
        return EXIT_FAILURE;
    }
    // the table's fields are function pointers in the order of API_NAMES;
    // ISO C has no cast from dlsym's void * to one, memcpy copies its bits
    static const char *const names[] = API_NAMES;
    ApiFns loaded;
    enum { NFNS = sizeof names / sizeof names[0] };
    _Static_assert(sizeof loaded == NFNS * sizeof(void (*)(void)), "API_NAMES names every field of ApiFns");
    for (int i = 0; i < NFNS; i++) {
        void *fn = dlsym(lib, names[i]);
        if (!fn) {
            fprintf(stderr, "test-shared: dlsym %s: %s\n", names[i], dlerror());
            return EXIT_FAILURE;
        }
        memcpy((char *)&loaded + i * sizeof fn, &fn, sizeof fn);
    }
    // the library's own functions, not this program's
    void *own = NULL;
    memcpy(&own, &loaded.world_step, sizeof own);
    Dl_info info;
    if (!dladdr(own, &info) || !strstr(info.dli_fname, "libsteer.so")) {
        fprintf(stderr, "test-shared: steer_world_step resolved to %s, not libsteer.so\n",
                own && dladdr(own, &info) ? info.dli_fname : "nothing");
        return EXIT_FAILURE;
    }
    uint64_t got = 0;
    st = api_world(&loaded, &got);
    int crossed = two_copies(lib, &loaded);
    dlclose(lib);
    if (crossed) return EXIT_FAILURE;
    if (st != STEER_OK || got != want) {
        fprintf(stderr,
                "test-shared: libsteer.so's world: status %d, hash %016" PRIx64 "; the linked core's %016" PRIx64 "\n",
                st, got, want);
        return EXIT_FAILURE;
    }
    printf("dlopen %s: %d functions by dlsym, a world stepped to hash %016" PRIx64 ", as the static core\n", argv[1],
           (int)NFNS, got);
    return EXIT_SUCCESS;
}
