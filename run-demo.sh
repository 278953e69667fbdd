#!/bin/sh
# SPDX-License-Identifier: MIT
# Set up (packages, build) and run a demo: in a window when there is a
# display, otherwise headless for 10 simulated seconds with a summary.
#   ./run-demo.sh [demos/NAME.lua]
set -eu
cd "$(dirname "$0")"
tools/setup.sh build
demo="${1:-demos/flock.lua}"
if [ -n "${DISPLAY:-}" ] || [ -n "${WAYLAND_DISPLAY:-}" ]; then
    exec build/steer run "$demo"
fi
exec build/steer run --headless --ticks 600 "$demo"
