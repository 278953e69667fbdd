#!/bin/sh
# runv.sh NAME KNOBS... : steer knobs binary, doorway/bottleneck/fanin, both dts, 15 layouts
n=$1; shift
python3 /tmp/door4/ens.py /tmp/door4/v-$n.log steer /tmp/door4/steer-bench-knobs doorway,bottleneck,fanin 1/60,0.25 15 "$@"
echo "== $n $*" >> /tmp/door4/summary.txt
python3 /tmp/door4/med.py /tmp/door4/v-$n.log >> /tmp/door4/summary.txt
