#!/usr/bin/env bash
# scale.sh — how autobuild's own work grows with the number of phases (issue 14): plans of
# SIZES phases (default 1000 5000 10000) in layers of W (default 10) chained phases, phase
# L<k>P<j> depending on L<k-1>P<j> and L<k-2>P<j>, run with the simulated agent. Measures
#   (a) `autobuild validate` at each size (best of REPEAT, default 3), and the ratio of the
#       largest size to the smallest;
#   (b) at START_SIZE (default 10000): from starting a run (`--json`) to the first
#       phase_started event line;
#   (c) at each of SIGINT_SIZES (default 5000 10000): from SIGINT, sent 1 s after the first
#       phase_started while the agents sleep, to the process's exit. A run that has not
#       exited after CAP seconds (default 900) is killed and reported as "> CAP".
#
#   bench/scale.sh                 env: SIZES, W, REPEAT, START_SIZE, SIGINT_SIZES, CAP,
#                                       AB (binary; default: build /tmp/ab-bench), KEEP=1
set -euo pipefail

SIZES=${SIZES:-1000 5000 10000}
W=${W:-10}
REPEAT=${REPEAT:-3}
START_SIZE=${START_SIZE:-10000}
SIGINT_SIZES=${SIGINT_SIZES:-5000 10000}
CAP=${CAP:-900}
source "$(dirname "$0")/lib.sh"
bench_workdir scale

now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.3f", b - a}'; }

# plan N writes a plan of N phases to stdout.
plan() {
  awk -v n="$1" -v w="$W" 'BEGIN {
    print "# Scale plan: " n " phases\n\n| Phase | Name | Depends On |\n|---|---|---|"
    for (i = 0; i < n; i++) {
      k = int(i / w) + 1; j = i % w + 1; dep = "-"
      if (k > 2) dep = sprintf("L%dP%d, L%dP%d", k - 1, j, k - 2, j)
      else if (k > 1) dep = sprintf("L%dP%d", k - 1, j)
      printf "| L%dP%d | Layer %d part %d | %s |\n", k, j, k, j, dep
    }
    for (i = 0; i < n; i++) {
      k = int(i / w) + 1; j = i % w + 1
      printf "\n## Phase L%dP%d: Layer %d part %d\n\n- [ ] Write `L%dP%d.txt`.\n", k, j, k, j, k, j
    }
  }'
}

# repo N makes a repository holding the plan of N phases and a scenario whose agents
# sleep (so a run is still going when it is interrupted); it prints the repository's path.
repo() {
  local dir=$work/repo-$1
  if [[ ! -d $dir ]]; then
    git init -q -b main "$dir"
    plan "$1" > "$dir/plan.md"
    echo '{"default": {"steps": [{"sleep": "600s"}]}}' > "$work/scenario.json"
    (cd "$dir" && git add plan.md && git commit -qm "add plan")
  fi
  echo "$dir"
}

# start N runs the plan of N phases in the background, --json to $work/out, and waits
# for the first phase_started line; it sets pid and the seconds it took in first.
start() {
  local dir t0
  dir=$(repo "$1")
  rm -rf "$dir/.autobuild"
  cd "$dir"
  t0=$(now)
  "$AB" plan.md --agent sim --scenario "$work/scenario.json" --commit=auto --json \
    --max-parallel 2 > "$work/out" 2> "$work/err" &
  pid=$!
  until grep -q '"event":"phase_started"' "$work/out" 2> /dev/null; do
    if ! kill -0 "$pid" 2> /dev/null; then
      echo "run of $1 phases exited before any phase started:" >&2
      tail -n 20 "$work/err" >&2
      exit 1
    fi
    sleep 0.01
  done
  first=$(elapsed "$t0" "$(now)")
  cd "$work"
}

# interrupt sends SIGINT to the run and sets stop to the seconds until it exited; a
# watchdog kills a run still there after CAP seconds.
interrupt() {
  local t0 t1 watchdog
  (sleep "$CAP" && kill -KILL "$pid" && touch "$work/killed") 2> /dev/null &
  watchdog=$!
  t0=$(now)
  kill -INT "$pid"
  wait "$pid" 2> /dev/null || true
  t1=$(now)
  pkill -P "$watchdog" 2> /dev/null || true # its sleep
  wait "$watchdog" 2> /dev/null || true
  stop=$(elapsed "$t0" "$t1")
  if [[ -e $work/killed ]]; then
    rm "$work/killed"
    stop="> $CAP"
  fi
}

echo "binary: $AB"
declare -A validate
for n in $SIZES; do
  dir=$(repo "$n")
  best=
  for ((r = 0; r < REPEAT; r++)); do
    t0=$(now)
    "$AB" validate "$dir/plan.md" > /dev/null
    t=$(elapsed "$t0" "$(now)")
    if [[ -z $best ]] || awk -v a="$t" -v b="$best" 'BEGIN {exit !(a < b)}'; then best=$t; fi
  done
  validate[$n]=$best
  printf 'validate, %6d phases:           %8s s\n' "$n" "$best"
done
read -r -a sizes <<< "$SIZES"
lo=${sizes[0]} hi=${sizes[${#sizes[@]} - 1]}
printf 'validate %d / %d:                  %8s x\n' "$hi" "$lo" \
  "$(awk -v a="${validate[$hi]}" -v b="${validate[$lo]}" 'BEGIN {printf "%.1f", a / b}')"

for n in $SIGINT_SIZES; do
  start "$n"
  printf 'first phase started, %6d phases: %6s s\n' "$n" "$first"
  sleep 1
  interrupt
  printf 'SIGINT to exit, %6d phases:      %8s s\n' "$n" "$stop"
done
if [[ " $SIGINT_SIZES " != *" $START_SIZE "* ]]; then
  start "$START_SIZE"
  printf 'first phase started, %6d phases: %6s s\n' "$START_SIZE" "$first"
  kill -KILL "$pid"
  wait "$pid" 2> /dev/null || true
fi
