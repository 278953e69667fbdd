#!/bin/sh
# SPDX-License-Identifier: MIT
# Set up (packages, build) and run every test twice: in the release build
# the README makes, and in a debug build under AddressSanitizer and UBSan.
# Ends with the line "N passed, N failed".
set -u
cd "$(dirname "$0")"
tools/setup.sh build || exit 1
tools/setup.sh build-asan -Dbuildtype=debug -Db_sanitize=address,undefined -Db_lundef=false || exit 1
status=0
meson test -C build --print-errorlogs || status=1
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
    meson test -C build-asan --print-errorlogs || status=1
python3 - build/meson-logs/testlog.json build-asan/meson-logs/testlog.json <<'PY'
import json, sys
passed = failed = 0
for path in sys.argv[1:]:
    for line in open(path):
        r = json.loads(line)
        if r.get("result") in ("OK", "EXPECTEDFAIL"):
            passed += 1
        elif r.get("result") != "SKIP":
            failed += 1
            print("FAILED:", path.split("/")[0], r.get("name"))
print(f"{passed} passed, {failed} failed")
PY
exit $status
