#!/bin/sh
# SPDX-License-Identifier: MIT
# The specs under busted (.busted, tests/lua/spec.lua): a spec file gives
# busted real counts, and a failed expectation is a busted failure with a
# nonzero exit, not "0 successes / 0 failures" and 0. Skipped (77) without
# busted (Debian's lua-busted) or lua5.4.
#   tests/busted.sh BUILD_DIR SOURCE_DIR
set -eu
build=$1 src=$2
command -v busted >/dev/null && command -v lua5.4 >/dev/null || { echo "busted or lua5.4 not installed"; exit 77; }
cd "$src"
run() { busted --lua=lua5.4 --cpath="$build/?.so" --output=plainTerminal "$@"; }

out=$(run tests/lua/vec_spec.lua) || { echo "$out"; echo "vec_spec failed under busted"; exit 1; }
echo "$out" | grep -Eq '^[1-9][0-9]* success(es)? / 0 failures / 0 errors' || { echo "$out"; echo "no successes counted"; exit 1; }

# a spec with one failed expectation, beside one that passes
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat >"$tmp/fails_spec.lua" <<'EOF'
local spec = require "spec"
spec.describe("a spec", function()
  spec.it("passes", function() spec.expect(require "steer".vec(1, 2).y, "y"):eq(2) end)
  spec.it("fails", function() spec.expect(1 + 1, "sum"):eq(3) end)
end)
spec.report()
EOF
if out=$(run "$tmp/fails_spec.lua"); then echo "$out"; echo "a failed expectation exited 0"; exit 1; fi
echo "$out" | grep -q '^1 success / 1 failure / 0 errors' || { echo "$out"; echo "expected 1 success and 1 failure"; exit 1; }
echo "$out" | grep -q 'fails_spec.lua:4: sum: expected 3, got 2' || { echo "$out"; echo "the failure does not name the spec line"; exit 1; }
echo "busted: counts and failures as expected"
