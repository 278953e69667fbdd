# SPDX-License-Identifier: MIT
# The steps of the hot reload tests (reload.sh, mod_reload.sh), sourced:
# the runner ($pid) appends to $out, and so does each step's marker; a
# step waits for what the runner prints (at most $TIMEOUT seconds).

fail() {
  cat "$out"
  echo "FAIL: $*"
  exit 1
}

# The output since the marker of step $1.
since() { awk -v m="== step $1" 'seen; $0 == m { seen = 1 }' "$out"; }

# Wait until the awk program $2 (which sets ok) holds for the output since
# step $1's marker; $3 says what is awaited.
await() {
  i=0
  until since "$1" | awk "$2"' END { exit !ok }'; do
    kill -0 $pid 2>/dev/null || fail "the runner exited while waiting for $3"
    i=$((i + 1))
    [ $i -le $((TIMEOUT * 20)) ] || fail "no $3 within $TIMEOUT s"
    sleep 0.05
  done
}

step() { echo "== step $1" >> "$out"; }

count() { since "$1" | awk '/^== step/ { exit } '"$2"' { n++ } END { print n + 0 }'; }

# Interrupt the runner, which must exit 0, and say test $1 passed.
finish() {
  kill -INT $pid
  wait $pid
  status=$?
  pid=
  [ $status -eq 0 ] || fail "the runner exited with $status"
  cat "$out"
  echo "$1: ok"
}
