#!/bin/sh
# SPDX-License-Identifier: MIT
# Set up (packages, builds) and run every test twice: in the release build
# the README makes, and in a debug build under AddressSanitizer and UBSan.
# Then the C tests under ThreadSanitizer with every world on 4 threads
# (STEER_THREADS=4, split into items of 64 agents: STEER_PAR_GRAIN=64).
# Then the exact-bits checks: every demo gives the same hash in those
# builds, in a clang release build, with STEER_NO_AVX2=1 and on 2, 3, 4 and
# 8 threads, as do the C workloads (tools/hashes.sh), and the core's C
# tests pass on aarch64 under qemu with the same world hashes as here
# (tools/cross-check.sh), and on Windows under Wine: the core's C tests,
# and every demo by steer.exe and by steer.dll under lua.exe
# (tools/windows-check.sh). Last, a minute and three quarters of coverage-guided fuzzing
# (tools/fuzz.sh smoke: clang, ASan+UBSan, libFuzzer, each target from its
# committed corpus; docs/fuzzing.md). Ends with the line "N passed, N
# failed", counting every one of them. STEER_BUILD, STEER_BUILD_ASAN,
# STEER_BUILD_TSAN, STEER_BUILD_CLANG, STEER_BUILD_AARCH64 and
# STEER_FUZZ_BUILD name other build directories (build, build-asan,
# build-tsan, build-clang, build-aarch64, build-fuzz); STEER_BUILD_WINDOWS
# the Windows check's directory (build-windows). The browser build
# (tools/web-check.sh: emscripten, every demo's hash under node, a page in
# headless Chromium) is in STEER_BUILD_WEB (build-web).
set -u
cd "$(dirname "$0")"
rel="${STEER_BUILD:-build}"
asan="${STEER_BUILD_ASAN:-build-asan}"
tsan="${STEER_BUILD_TSAN:-build-tsan}"
clang="${STEER_BUILD_CLANG:-build-clang}"
arm="${STEER_BUILD_AARCH64:-build-aarch64}"
fuzz="${STEER_FUZZ_BUILD:-build-fuzz}"
win="${STEER_BUILD_WINDOWS:-build-windows}"
web="${STEER_BUILD_WEB:-build-web}"
tools/setup.sh --packages clang clang-format gcc-aarch64-linux-gnu qemu-user-static || exit 1
tools/setup.sh "$rel" || exit 1
tools/setup.sh "$asan" -Dbuildtype=debug -Db_sanitize=address,undefined -Db_lundef=false || exit 1
tools/setup.sh "$tsan" -Dbuildtype=debugoptimized -Db_sanitize=thread -Db_lundef=false -Dviewer=disabled || exit 1
CC=clang tools/setup.sh "$clang" -Dtests=false || exit 1
rm -f "$rel/meson-logs/testlog.json" "$asan/meson-logs/testlog.json" "$tsan/meson-logs/testlog.json" \
    "$clang/hashes.json" "$arm/cross-hashes.json" "$arm/meson-logs/testlog.json" "$fuzz/fuzz-smoke.json" \
    "$win/windows-hashes.json" "$win/build/meson-logs/testlog.json"
status=0
meson test -C "$rel" --print-errorlogs || status=1
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
meson test -C "$asan" --print-errorlogs || status=1
# the C tests (suites core and engine), not the Lua specs: liblua is not
# instrumented, so ThreadSanitizer would see only steer's side of them
STEER_THREADS=4 STEER_PAR_GRAIN=64 TSAN_OPTIONS=halt_on_error=1 \
    meson test -C "$tsan" --suite core --suite engine --timeout-multiplier 3 --print-errorlogs || status=1
tools/hashes.sh "$clang/hashes.json" "$rel" "$asan" "$clang" || status=1
tools/cross-check.sh "$arm" "$rel" || status=1
tools/windows-check.sh "$win" "$rel" || status=1
STEER_FUZZ_BUILD="$fuzz" tools/fuzz.sh smoke 12 "$fuzz/fuzz-smoke.json" || status=1
tools/web-check.sh "$web" "$rel" || status=1 # writes $web/web-results.json anew
python3 - "$rel/meson-logs/testlog.json" "$asan/meson-logs/testlog.json" "$tsan/meson-logs/testlog.json" \
    "$clang/hashes.json" "$arm/meson-logs/testlog.json" "$arm/cross-hashes.json" "$fuzz/fuzz-smoke.json" \
    "$win/build/meson-logs/testlog.json" "$win/windows-hashes.json" "$web/web-results.json" <<'PY'
import json, sys
passed = failed = 0
for path in sys.argv[1:]:
    try:
        lines = open(path).readlines()
    except OSError:
        failed += 1 # a step that did not get as far as its results
        print("FAILED:", path, "was not written")
        continue
    for line in lines:
        r = json.loads(line)
        if r.get("result") in ("OK", "EXPECTEDFAIL"):
            passed += 1
        elif r.get("result") != "SKIP":
            failed += 1
            print("FAILED:", path.split("/")[0], r.get("name"))
print(f"{passed} passed, {failed} failed")
PY
exit $status
