#!/usr/bin/env bash
# greenline.sh — what verifying what lands together costs (issue 24, docs/running.md "The
# line stays green"), side by side in one run:
#
#   parallel   8 independent phases (--max-parallel 8) whose agent sleeps AGENT_S s and
#              writes its file, and whose one gate takes GATE_S s (`sleep`): median wall
#              time of --verify=landing against --verify=off (target: <= 1.3x)
#   culprit    the same 8 phases, two of which (L1P1, L1P5) break the gate together
#              (each passes alone): the one of them that lands second is the culprit. With
#              --max-parallel CULPRIT_PARALLEL (8): the rounds of gate runs its group took
#              to find it, from .autobuild/logs/verify.log (target: <= 3), and who it was
#   demo       bench/demo.sh's `autobuild demo --no-tui` with AB_BEFORE (a build of the
#              commit before; skipped when unset) and AB, round robin: median wall times
#              (target: < 15 % growth)
#
#   bench/greenline.sh     env: RUNS (3), AGENT_S (3), GATE_S (1), CULPRIT_PARALLEL (8), AB, AB_BEFORE,
#                               PARTS ("parallel culprit demo"), KEEP=1
set -euo pipefail

RUNS=${RUNS:-3}
AGENT_S=${AGENT_S:-3}
GATE_S=${GATE_S:-1}
PARTS=${PARTS:-parallel culprit demo}
CULPRIT_PARALLEL=${CULPRIT_PARALLEL:-8}
source "$(dirname "$0")/lib.sh"
bench_workdir greenline

median() { sort -n | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.2f", b - a }'; }

# repo DIR GATE: a repository holding an 8-phase plan whose gate is GATE.
repo() {
  local dir=$1 gate=$2
  mkdir -p "$dir"
  git -C "$dir" init -q -b main
  { layered_plan 1 8 "Eight"; printf '\n## Quality Gates\n\n- build: `%s`\n' "$gate"; } > "$dir/plan.md"
  git -C "$dir" add -A
  git -C "$dir" commit -q -m plan
}

agent=$work/agent.sh
cat > "$agent" <<AGENT
#!/bin/sh
sleep $AGENT_S
# A retry (the culprit's) gives its file up: its combination with the others is what fails.
if [ "\$AUTOBUILD_ATTEMPT" = 2 ]; then exit 0; fi
echo "\$AUTOBUILD_PHASE_ID" > "\$AUTOBUILD_PHASE_ID.txt"
AGENT
chmod +x "$agent"

# one NAME VERIFY GATE [PARALLEL]: one run; prints its wall seconds.
one() {
  local dir=$work/$1 start rc
  repo "$dir" "$3"
  start=$(now)
  set +e
  (cd "$dir" && "$AB" plan.md --no-tui --commit=auto --max-parallel "${4:-8}" --verify="$2" --agent "$agent" > "$dir.out" 2>&1)
  rc=$?
  set -e
  since "$start"
  echo " exit=$rc" >> "$dir.rc"
}

if [[ " $PARTS " == *" parallel "* ]]; then
  : > "$work/landing.times"; : > "$work/off.times"
  for ((i = 1; i <= RUNS; i++)); do
    for mode in landing off; do
      t=$(one "p-$mode-$i" "$mode" "sleep $GATE_S")
      echo "$t" >> "$work/$mode.times"
      echo "parallel  run $i  --verify=$mode  wall ${t}s"
    done
  done
  l=$(median < "$work/landing.times"); o=$(median < "$work/off.times")
  printf 'parallel  8 phases, agent %ss, gate %ss: median landing %.2fs, off %.2fs, ratio %.2fx (target <= 1.3x)\n' \
    "$AGENT_S" "$GATE_S" "$l" "$o" "$(awk -v a="$l" -v b="$o" 'BEGIN { print a / b }')"
fi

if [[ " $PARTS " == *" culprit "* ]]; then
  gate="sleep $GATE_S; ! { test -f l1p5.txt && test -f l1p1.txt; } || { echo 'l1p5.txt: l1p1.txt is in the way'; exit 1; }"
  for ((i = 1; i <= RUNS; i++)); do
    t=$(one "c-$i" landing "$gate" "$CULPRIT_PARALLEL")
    found=$(grep -h 'culprit phase' "$work/c-$i/.autobuild/logs/verify.log" || echo "no group bisected (the culprit landed alone)")
    echo "culprit   run $i  wall ${t}s  $found"
  done
fi

if [[ " $PARTS " == *" demo "* && -n ${AB_BEFORE:-} ]]; then
  : > "$work/demo-before.times"; : > "$work/demo-after.times"
  for ((i = 1; i <= RUNS; i++)); do
    for which in before after; do
      bin=$AB; [[ $which == before ]] && bin=$AB_BEFORE
      start=$(now)
      "$bin" demo --no-tui --dir "$work/demo-$which-$i" > "$work/demo-$which-$i.out" 2>&1 || true
      t=$(since "$start")
      echo "$t" >> "$work/demo-$which.times"
      echo "demo      run $i  $which  wall ${t}s"
    done
  done
  b=$(median < "$work/demo-before.times"); a=$(median < "$work/demo-after.times")
  printf 'demo      median before %.2fs, after %.2fs, growth %+.1f%% (target < 15%%)\n' "$b" "$a" \
    "$(awk -v a="$a" -v b="$b" 'BEGIN { print (a / b - 1) * 100 }')"
fi
[[ -z ${KEEP:-} ]] || echo "kept: $work"
