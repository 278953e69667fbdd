#!/bin/sh
# SPDX-License-Identifier: MIT
# The same bits across machines: cross-build the core and its C tests for
# aarch64 (Debian's gcc-aarch64-linux-gnu, static; -Dcore_only=true with
# tools/aarch64-linux-gnu.ini), run them under qemu-aarch64-static (meson
# test: CROSS_BUILD/meson-logs/testlog.json), then require the world hashes
# test-hashes prints there to equal those of the x86-64 build NATIVE_BUILD.
# Writes one line per workload to CROSS_BUILD/cross-hashes.json in the
# form of meson's testlog.json (run-tests.sh counts them); exits 1 when a
# test fails or a hash differs.
#   tools/cross-check.sh [CROSS_BUILD [NATIVE_BUILD]]   (build-aarch64, build)
set -u
cd "$(dirname "$0")/.."
cross="${1:-build-aarch64}"
native="${2:-build}"
tools/setup.sh --packages gcc-aarch64-linux-gnu qemu-user-static || exit 1
if [ ! -f "$cross/build.ninja" ]; then
    meson setup "$cross" --cross-file tools/aarch64-linux-gnu.ini -Dcore_only=true >/dev/null || exit 1
fi
ninja -C "$cross" >/dev/null || exit 1
ninja -C "$native" tests/test-hashes >/dev/null || exit 1
status=0
# qemu runs the tests several times slower than the machine
meson test -C "$cross" --print-errorlogs --timeout-multiplier 4 || status=1
"$native/tests/test-hashes" --print >"$cross/native-hashes.txt" || status=1
python3 - "$cross/meson-logs/testlog.json" "$cross/native-hashes.txt" "$cross/cross-hashes.json" <<'PY' || status=1
import json, re, sys
testlog, native_file, out = sys.argv[1:]
line = re.compile(r"^(\S+) (\d+) ([0-9a-f]{16})$")
def hashes(text):
    return {m.group(1): m.group(3) for m in map(line.match, text.splitlines()) if m}
# the hashes the aarch64 run of test-hashes printed (meson keeps its output)
arm = {}
for entry in open(testlog):
    r = json.loads(entry)
    # "hashes", or "steer:core / hashes" when meson prefixes the project and suite
    if r.get("name", "").split(" / ")[-1].split(":")[-1] == "hashes":
        arm = hashes(r.get("stdout", ""))
x86 = hashes(open(native_file).read())
ok = bool(x86)
with open(out, "w") as f:
    for name in x86 or ["hashes"]:
        same = arm.get(name) == x86.get(name) and name in x86
        ok = ok and same
        print(f"cross-check: {name} x86-64 {x86.get(name)} aarch64 {arm.get(name)}" + ("" if same else "  DIFFERS"))
        f.write(json.dumps({"name": "cross-" + name, "result": "OK" if same else "FAIL"}) + "\n")
sys.exit(0 if ok else 1)
PY
exit $status
