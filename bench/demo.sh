#!/usr/bin/env bash
# demo.sh — measures the built-in demo end to end: `autobuild demo --no-tui` (six phases,
# simulated agent, real go build/gofmt/go test gates, one retry; expect exit 0) and
# `autobuild demo --halt --no-tui` (2B fails twice; expect exit 1). Prints wall time,
# max RSS and exit code of each.
#
#   bench/demo.sh          env: AB (binary; default: build /tmp/ab-bench), KEEP=1 keeps the dirs,
#                               AUTOBUILD_SIM_SPEED=10 plays the simulated agent 10x faster
set -euo pipefail

source "$(dirname "$0")/lib.sh"

bench_workdir demo

# run NAME EXPECTED_EXIT ARGS...: one demo run in $work/NAME, its output in $work/NAME.out.
status=0
run() {
  local name=$1 want=$2; shift 2
  local timer=() rc start end
  [[ -x /usr/bin/time ]] && timer=(/usr/bin/time -v -o "$work/$name.time")
  start=$(date +%s.%N)
  set +e
  "${timer[@]}" "$AB" demo --no-tui --dir "$work/$name" "$@" > "$work/$name.out" 2>&1
  rc=$?
  set -e
  end=$(date +%s.%N)
  printf '%-12s wall %6.2f s' "$name" "$(awk -v a="$start" -v b="$end" 'BEGIN {print b - a}')"
  [[ -f $work/$name.time ]] &&
    printf '   max RSS %s KiB' "$(awk -F': ' '/Maximum resident/ {print $2}' "$work/$name.time")"
  printf '   exit %d (expected %d)%s\n' "$rc" "$want" "$( ((rc == want)) || echo '  <-- UNEXPECTED')"
  if ((rc != want)); then
    status=1
    tail -n 30 "$work/$name.out"
  fi
}

run demo 0
run demo-halt 1 --halt
[[ -z ${KEEP:-} ]] || echo "kept: $work"
exit "$status"
