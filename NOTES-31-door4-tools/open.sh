#!/bin/sh
# open.sh NAME BIN [KEY=VAL...]: open scenes, both dts, 2 at a time
cd /tmp/door4
n=$1; b=$2; shift 2
for sc in circle250 circle500 circle500w blocks packed; do
  env "$@" nice $b crowd --scenario $sc --dt 0.0167 --method orca >> open-$n.log &
  env "$@" nice $b crowd --scenario $sc --dt 0.25 --method orca >> open-$n.log
  wait
done
echo done > open-$n.done
