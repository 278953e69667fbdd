#!/bin/sh
# SPDX-License-Identifier: MIT
# Run a viewer test in a real window under a virtual X server. Exits 77
# (meson's SKIP) with the reason only when Xvfb cannot be started.
#   tests/view/xvfb.sh PROGRAM ARGS...
command -v xvfb-run >/dev/null 2>&1 || { echo "SKIP: xvfb-run not found (apt-get install xvfb)"; exit 77; }
out=$(mktemp)
# -a looks for a free display from -n on; starting from a number of our own
# keeps two runs (other checkouts' tests too) from racing for the same one.
# -noreset: a test opens and closes windows one after another, and a server
# that resets when its last client leaves refuses the next for a moment.
xvfb-run -a -n $((100 + $$ % 800)) -s "-screen 0 1600x900x24 -noreset" "$@" >"$out" 2>&1
status=$?
cat "$out"
if [ $status -ne 0 ] && grep -q "Xvfb failed to start" "$out"; then
    echo "SKIP: Xvfb failed to start"
    status=77
fi
rm -f "$out"
exit $status
