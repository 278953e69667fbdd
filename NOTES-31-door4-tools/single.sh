#!/bin/sh
cd /tmp/door4
for sc in doorway bottleneck fanin; do
  for dt in 1/60 0.25; do
    sdt=$dt; [ $dt = 1/60 ] && sdt=0.0167
    nice ./steer-bench-main crowd --scenario $sc --dt $sdt --method orca >> single.log &
    nice /work/build-rvo2-door4/rvo2-crowd --scenario $sc --dt $dt --method rvo2 >> single.log
    wait
  done
done
echo done > single.done
