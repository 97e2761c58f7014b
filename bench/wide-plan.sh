#!/usr/bin/env bash
# wide-plan.sh — measures the engine's own overhead on a large plan: L layers of W
# phases (default 20 x 10 = 200 phases), each phase of layer k depending on one phase of
# layer k-1, run with a trivial agent and no quality gates. Prints phases, wall time,
# phases/second, max RSS, exit code and the number of commits the run made.
#
#   bench/wide-plan.sh [L] [W]               env: L, W, PARALLEL (4), AGENT (true|write),
#                                                 AB (binary; default: build /tmp/ab-bench)
#   AGENT=true   the agent is `true`: it changes nothing, so nothing is committed.
#   AGENT=write  the agent writes <phase-id>.txt: every phase commits and is integrated
#                (the realistic cost of a phase).
#   KEEP=1       keep the temporary repository (its .autobuild/logs) for inspection.
set -euo pipefail

L=${1:-${L:-20}}
W=${2:-${W:-10}}
PARALLEL=${PARALLEL:-4}
AGENT=${AGENT:-true}
source "$(dirname "$0")/lib.sh"

case $AGENT in
  true) agent_cmd=true ;;
  write) agent_cmd='echo x > "$AUTOBUILD_PHASE_ID.txt"' ;; # more than one word: run with sh -c
  *) echo "AGENT must be true or write" >&2; exit 2 ;;
esac

# The run's output and timings go next to the repository, not in it: the tree must be clean.
bench_workdir wide
repo=$work/repo
git init -q -b main "$repo"
cd "$repo"
echo "# wide plan benchmark" > README.md
git add README.md && git commit -qm "initial commit"

# Ids are L<k>P<j> (normalized to l<k>p<j>); phase L<k>P<j> depends on L<k-1>P<j>.
layered_plan "$L" "$W" "Wide plan" > plan.md
git add plan.md && git commit -qm "add plan"
before=$(git rev-list --count HEAD)

timer=()
[[ -x /usr/bin/time ]] && timer=(/usr/bin/time -v -o "$work/time")
start=$(date +%s.%N)
set +e
"${timer[@]}" "$AB" plan.md --agent "$agent_cmd" --commit=auto --no-tui \
  --max-parallel "$PARALLEL" > "$work/out" 2>&1
rc=$?
set -e
end=$(date +%s.%N)

phases=$((L * W))
wall=$(awk -v a="$start" -v b="$end" 'BEGIN {print b - a}')
echo "plan:          ${L} layers x ${W} phases, agent=$AGENT, --max-parallel $PARALLEL"
echo "phases:        $phases"
printf 'wall time:     %.2f s\n' "$wall"
printf 'phases/second: %.2f\n' "$(awk -v n="$phases" -v t="$wall" 'BEGIN {print n / t}')"
if [[ -f $work/time ]]; then
  echo "max RSS:       $(awk -F': ' '/Maximum resident/ {print $2}' "$work/time") KiB"
fi
echo "exit code:     $rc"
echo "commits made:  $(($(git rev-list --count HEAD) - before))"
if ((rc != 0)); then
  echo "--- last output lines (repo: $repo; KEEP=1 keeps it) ---"
  tail -n 30 "$work/out"
fi
exit "$rc"
