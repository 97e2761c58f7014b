#!/usr/bin/env bash
# gitfloor.sh — what committing phases costs in git: a plan of L layers of W phases
# (default 20 x 10 = 200), each phase writing one file that is committed and landed on the
# branch, run by autobuild --commit=auto against two scripts that do the same git work with
# no agent, no gates and no state files:
#
#   porcelain  per phase: worktree add, write, add + commit, cherry-pick onto the run's line
#              in its worktree, fast-forward the checkout, worktree remove, branch -D
#   floor      a pool of W worktrees made once and re-pointed per phase (reset --hard +
#              clean), add + write-tree + commit-tree, merge-tree --write-tree + commit-tree
#              + update-ref for the line (no integration worktree; git 2.38+), the checkout moved once
#              per layer
#
# Each runs in a fresh repository whose first commit holds FILES files (default 200), so
# the cost's growth with the tree shows: FILES=10000 bench/gitfloor.sh. Prints the median
# of RUNS (default 3) rounds, run round robin, per-phase milliseconds and the ratios.
#
#   bench/gitfloor.sh [L] [W]     env: FILES (200), RUNS (3), PARALLEL (8), AB, KEEP=1,
#                                 AB_BEFORE (another binary, run as a fourth row "before"),
#                                 MARGINAL=1 (each row also at 2L layers: prints what a phase
#                                 adds once the run is going, the pool made),
#                                 ROWS (which to run, default "floor porcelain autobuild";
#                                 floor is needed for the ratios; porcelain takes ~10 s a
#                                 phase at FILES=10000)
set -euo pipefail

L=${1:-${L:-20}}
W=${2:-${W:-10}}
FILES=${FILES:-200}
RUNS=${RUNS:-3}
PARALLEL=${PARALLEL:-8}
source "$(dirname "$0")/lib.sh"
bench_workdir gitfloor

# seed DIR: a repository whose first commit holds FILES files in 20 directories, and the plan.
seed() {
  local dir=$1
  git init -q -b main "$dir"
  (
    cd "$dir"
    for ((d = 0; d < 20; d++)); do mkdir -p "src/d$d"; done
    for ((i = 0; i < FILES; i++)); do echo "file $i" > "src/d$((i % 20))/f$i.txt"; done
    layered_plan "$layers" "$W" "Git floor" > plan.md
    git add -A && git commit -qm "initial commit"
  )
}

run_autobuild() { run_binary "$AB" "$1"; }
run_before() { run_binary "$AB_BEFORE" "$1"; }
run_binary() {
  (cd "$2" && "$1" plan.md --agent 'echo x > "$AUTOBUILD_PHASE_ID.txt"' --commit=auto --no-tui \
    --max-parallel "$PARALLEL" > "$work/out" 2>&1) || { echo "autobuild failed:" >&2; tail -20 "$work/out" >&2; exit 1; }
}

run_porcelain() {
  local repo=$1 line=bench/line
  cd "$repo"
  git worktree add -q -b "$line" "$work/pline" HEAD
  for ((k = 1; k <= layers; k++)); do
    for ((j = 1; j <= W; j++)); do
      local id="l${k}p${j}" wt="$work/pwt"
      git worktree add -q -f -B "bench/$id" "$wt" "$line"
      echo x > "$wt/$id.txt"
      git -C "$wt" add -A
      git -C "$wt" commit -qm "phase $id"
      git -C "$work/pline" cherry-pick "$(git -C "$wt" rev-parse HEAD)" > /dev/null
      git merge -q --ff-only "$line"
      git worktree remove --force "$wt"
      git branch -q -D "bench/$id"
    done
  done
  cd - > /dev/null
}

run_floor() {
  local repo=$1 line=refs/heads/bench/line tip base id wt tree c merged
  cd "$repo"
  git config maintenance.auto false
  git config gc.auto 0
  tip=$(git rev-parse HEAD)
  git update-ref "$line" "$tip"
  for ((j = 1; j <= W; j++)); do git worktree add -q --detach "$work/fwt$j" "$tip"; done
  for ((k = 1; k <= layers; k++)); do
    base=$tip
    for ((j = 1; j <= W; j++)); do
      id="l${k}p${j}" wt="$work/fwt$j"
      git -C "$wt" reset -q --hard "$base"
      git -C "$wt" clean -qfdx
      echo x > "$wt/$id.txt"
      git -C "$wt" add -A
      tree=$(git -C "$wt" write-tree)
      c=$(git commit-tree "$tree" -p "$base" -m "phase $id")
      merged=$(git merge-tree --write-tree "$tip" "$c") # the merge base is $base: git 2.39 has no --merge-base
      tip=$(git commit-tree "$merged" -p "$tip" -m "phase $id")
      git update-ref "$line" "$tip"
    done
    git merge -q --ff-only "$tip"
  done
  for ((j = 1; j <= W; j++)); do git worktree remove --force "$work/fwt$j"; done
  cd - > /dev/null
}

# time_of NAME: seconds that run_NAME took on a fresh seeded repository.
time_of() {
  local repo=$work/$1-$round
  seed "$repo"
  local start end
  start=$(date +%s.%N)
  "run_$1" "$repo"
  end=$(date +%s.%N)
  local commits
  commits=$(git -C "$repo" rev-list --count HEAD)
  ((commits == layers * W + 1)) || { echo "$1: $((commits - 1)) commits on main, want $((layers * W))" >&2; exit 1; }
  rm -rf "$repo" "$work"/pwt "$work"/pline "$work"/fwt*
  awk -v a="$start" -v b="$end" 'BEGIN { printf "%.3f", b - a }'
}

names=${ROWS:-floor porcelain autobuild}
[[ -n ${AB_BEFORE:-} && " $names " != *" before "* ]] && names+=" before"
declare -A times
for ((round = 1; round <= RUNS; round++)); do
  for name in $names; do
    times[$name]+="$(layers=$L time_of $name) "
    if [[ -n ${MARGINAL:-} ]]; then times[$name@2]+="$(layers=$((2 * L)) time_of $name) "; fi
  done
done

median() { tr ' ' '\n' <<< "$1" | grep . | sort -g | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }

# walk_ms: milliseconds of one `git status` of a seeded tree, median of 21: the stat walk
# of every file that re-pointing a checkout, checking what an agent changed and checking
# the user's checkout each pay once. Its growth from 200 to 10,000 files is the unit in
# which a checkout-backed phase's growth is counted.
walk_ms() {
  local repo=$work/walk t0 all=
  layers=1 seed "$repo"
  sleep 1.1 # past the index's second, so no entry is racily clean and re-read
  git -C "$repo" status --porcelain > /dev/null
  for ((i = 0; i < 21; i++)); do
    t0=$(date +%s%N)
    git -C "$repo" status --porcelain > /dev/null
    all+="$((($(date +%s%N) - t0) / 1000)) "
  done
  rm -rf "$repo"
  awk -v us="$(median "$all")" 'BEGIN { printf "%.1f", us / 1000 }'
}
phases=$((L * W))
floor=$(median "${times[floor]}")
echo "git floor: $L x $W phases, each committing one file, tree of $FILES files, median of $RUNS"
echo "run         wall      per phase   ratio to floor"
for name in $names; do
  m=$(median "${times[$name]}")
  awk -v n="$name" -v s="$m" -v f="$floor" -v p="$phases" \
    'BEGIN { printf "%-10s %7.2f s  %7.1f ms   %5.2fx\n", n, s, 1000 * s / p, s / f }'
done
if [[ -n ${MARGINAL:-} ]]; then
  # The cost of a phase once the run is going: what L more layers add, divided by their
  # phases. The pool's worktrees, the run's start and its end are in both runs and cancel.
  echo "per added phase ($L x $W more phases, the pool already made):"
  f2=$(median "${times[floor@2]}")
  for name in $names; do
    m=$(median "${times[$name]}")
    m2=$(median "${times[$name@2]}")
    awk -v n="$name" -v a="$m" -v b="$m2" -v fa="$floor" -v fb="$f2" -v p="$phases" \
      'BEGIN { printf "%-10s %7.1f ms   %5.2fx\n", n, 1000 * (b - a) / p, (b - a) / (fb - fa) }'
  done
fi
walk=$(walk_ms)
echo "one stat walk of the tree (git status, median of 21): $walk ms"
echo -n "(all rounds:"
for name in $names; do echo -n " $name ${times[$name]}|"; [[ -n ${MARGINAL:-} ]] && echo -n " $name@2 ${times[$name@2]}|"; done
echo ")"
