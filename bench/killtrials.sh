#!/usr/bin/env bash
# killtrials.sh — kill -9 a run at a random instant, resume it, and check that nothing was
# lost or landed twice. Each trial: a fresh repository with a plan of L layers of W phases
# (default 4 x 3), an agent that sleeps a little and writes its phase's file, autobuild
# --commit=auto (or COMMIT) --schedule=SCHEDULE started and killed with SIGKILL after a
# random delay within the run's usual length, then the same command with --resume until
# the run completes. The trial passes when every phase has exactly one commit carrying its
# trailer, every phase's file is in HEAD (auto, single) or the work tree (message-only),
# the work tree holds nothing else uncommitted (auto, single), and every state file is
# valid JSON. A run that ends before its kill counts as a trial too.
#
#   bench/killtrials.sh [TRIALS]   env: L (4), W (3), COMMIT (auto), SCHEDULE (eager),
#                                  MAXDELAY_MS (1000), AB, KEEP=1, GATE (a quality gate
#                                  for the plan, e.g. "sleep 0.2": landings are then
#                                  verified together, and kills land mid-verification)
# Prints one line per failed trial and a summary; exits 1 when any trial failed.
set -euo pipefail

TRIALS=${1:-20}
L=${L:-4}
W=${W:-3}
COMMIT=${COMMIT:-auto}
SCHEDULE=${SCHEDULE:-eager}
MAXDELAY_MS=${MAXDELAY_MS:-1000}
source "$(dirname "$0")/lib.sh"
bench_workdir killtrials

agent='sleep 0.$((RANDOM % 3)); echo "$AUTOBUILD_PHASE_ID" > "$AUTOBUILD_PHASE_ID.txt"'
ids=$(layered_plan "$L" "$W" ids | awk -F'|' '/^\| L/ { gsub(/ /, "", $2); print tolower($2) }')
failed=0
killed=0
ended_late=0

# run_status DIR: the status run.json records, "" without one.
run_status() {
  python3 -c 'import json, sys; print(json.load(open(sys.argv[1])).get("status", ""))' "$1/.autobuild/run.json" 2> /dev/null || true
}

# keep_failed DIR: a failed trial's repository and outputs, kept for a look.
keep_failed() {
  local keep=${TMPDIR:-/tmp}/killtrial-failed-$$-$t
  cp -a "$1" "$keep" && cp "$1".out* "$keep"/ 2> /dev/null
  echo "  kept in $keep"
}
for ((t = 1; t <= TRIALS; t++)); do
  r=$work/trial-$t
  git init -q -b main "$r"
  layered_plan "$L" "$W" "Kill trial" > "$r/plan.md"
  [[ -z ${GATE:-} ]] || printf '\n## Quality Gates\n\n- build: `%s`\n' "$GATE" >> "$r/plan.md"
  (cd "$r" && git add plan.md && git commit -qm plan)
  delay_ms=$((RANDOM % MAXDELAY_MS))
  (cd "$r" && exec "$AB" plan.md --no-tui --commit="$COMMIT" --schedule="$SCHEDULE" --agent "$agent" > "$r.out1" 2>&1) &
  pid=$!
  sleep "$(awk -v ms="$delay_ms" 'BEGIN { printf "%.3f", ms / 1000 }')"
  kill -9 "$pid" 2> /dev/null || true
  first=0
  wait "$pid" 2> /dev/null || first=$?
  ((first == 0)) || killed=$((killed + 1))
  again=(--resume)
  [[ -f $r/.autobuild/run.json ]] || again=(--commit="$COMMIT" --schedule="$SCHEDULE")
  # Killed after the run recorded itself complete (while it printed its summary or ran
  # git's maintenance): nothing is left to resume, and a resume would rightly refuse.
  if ((first != 0)) && [[ $(run_status "$r") == complete ]]; then first=0 ended_late=$((ended_late + 1)); fi
  # A run that completed before the kill has nothing to resume. One killed while it brought
  # a finished message-only or single run's changes into the work tree says so and what to
  # do: put them aside and run again (the documented recovery, done here).
  resumed=0
  if ((first != 0)); then
    (cd "$r" && "$AB" plan.md --no-tui "${again[@]}" --agent "$agent" > "$r.out2" 2>&1) || resumed=$?
    if ((resumed != 0)) && grep -q "was stopped while it brought the finished run's changes" "$r.out2"; then
      git -C "$r" stash -q -u && git -C "$r" stash drop -q
      resumed=0
      (cd "$r" && "$AB" plan.md --no-tui --resume --agent "$agent" > "$r.out2" 2>&1) || resumed=$?
    fi
  fi
  if ((resumed != 0)); then
    echo "trial $t (killed after ${delay_ms} ms): the resume failed: $(head -c 300 "$r.out2" | tr '\n' ' ')"
    failed=$((failed + 1))
    keep_failed "$r"
    continue
  fi
  problems=()
  for f in "$r"/.autobuild/run.json "$r"/.autobuild/phases/*.json; do
    python3 -m json.tool "$f" > /dev/null 2>&1 || problems+=("$(basename "$f") is not valid JSON")
  done
  if [[ $COMMIT != message-only ]]; then
    for id in $ids; do
      n=$(git -C "$r" log --format=%H --grep "^Autobuild-Phase: $id\$" | wc -l)
      ((n == 1)) || problems+=("phase $id has $n commits")
      git -C "$r" cat-file -e "HEAD:$(echo "$id" | tr a-z A-Z).txt" 2> /dev/null ||
        git -C "$r" cat-file -e "HEAD:$id.txt" 2> /dev/null || problems+=("HEAD lacks phase $id's file")
    done
    dirty=$(git -C "$r" status --porcelain)
    [[ -z $dirty ]] || problems+=("uncommitted: $(echo "$dirty" | tr '\n' ' ')")
  else
    for id in $ids; do
      ls "$r" | grep -qix "$id.txt" || problems+=("the work tree lacks phase $id's file")
    done
  fi
  if ((${#problems[@]} > 0)); then
    echo "trial $t (killed after ${delay_ms} ms): ${problems[*]}"
    failed=$((failed + 1))
    keep_failed "$r"
  fi
done
echo "kill trials: $TRIALS ($killed killed before the run ended, $ended_late of them after it recorded itself complete), failed: $failed (L=$L W=$W commit=$COMMIT schedule=$SCHEDULE, kill within ${MAXDELAY_MS} ms)"
((failed == 0))
