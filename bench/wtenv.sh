#!/usr/bin/env bash
# wtenv.sh — a phase's worktree made ready (issue 30): a repository of TRACKED tracked files
# and an ignored node_modules of NM_FILES files of FILE_KB kB each (20,000 x 10 kB: 200 MB)
# plus an ignored .env. Measured side by side, RUNS times each (median):
#
#   add        `git worktree add` of the tree alone (what a phase's worktree cost before)
#   bring      a new worktree made as a phase's is (bench/wtenvtime -new: registered, then its
#              tracked files written while .env and node_modules are put in beside them, then
#              checked), with autobuild's copy in .autobuild/ already made; `first` is the
#              one-time making of that copy; `bare` the same worktree creation without files
#   floor      the same worktree with standard tools: git's checkout with `cp -al` of
#              autobuild's copy of node_modules beside it, one link per file (hard-link mode
#              only): what no per-file method beats; autobuild's figure against it
#   reused     the same worktree brought up to date again in the same run (a pooled worktree,
#              the verification worktree): nothing changed, nothing put
#   disk       8 worktrees with their files: what they add over one copy of node_modules
#   run        a whole run of 8 parallel phases (--max-parallel 8, agent: sleep SLEEP s, write a
#              file) whose test gate needs .env and node_modules ([worktree] copy), against
#              the same run whose gate needs nothing copied (no [worktree])
#
#   bench/wtenv.sh        env: RUNS (3), TRACKED (2000), NM_FILES (20000), FILE_KB (10),
#                              SLEEP (5), AB (binary; default: build /tmp/ab-bench), KEEP=1
set -euo pipefail

RUNS=${RUNS:-3}
TRACKED=${TRACKED:-2000}
NM_FILES=${NM_FILES:-20000}
FILE_KB=${FILE_KB:-10}
SLEEP=${SLEEP:-5}
source "$(dirname "$0")/lib.sh"
command -v python3 > /dev/null || { echo "wtenv.sh needs python3" >&2; exit 2; }
WT=/tmp/ab-bench-wtenvtime
(cd "$ROOT" && go build -o "$WT" ./bench/wtenvtime)

bench_workdir wtenv
ms() { echo $(( $(date +%s%N) / 1000000 )); }
median() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }

# The repository: tracked files in folders of 10, the ignored files beside them.
repo=$work/repo
mkdir -p "$repo"
git -C "$repo" init -q -b main
printf 'node_modules/\n.env\n' > "$repo/.gitignore"
python3 - "$repo" "$TRACKED" "$NM_FILES" "$FILE_KB" << 'PY'
import os, sys
root, tracked, nm, kb = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
for i in range(tracked):
    d = os.path.join(root, "src", "d%d" % (i // 10))
    os.makedirs(d, exist_ok=True)
    open(os.path.join(d, "f%d.txt" % i), "w").write("tracked file %d\n" % i)
data = os.urandom(kb * 1024)
for i in range(nm):
    d = os.path.join(root, "node_modules", "pkg%d" % (i // 10), "lib")
    os.makedirs(d, exist_ok=True)
    open(os.path.join(d, "f%d.js" % i), "wb").write(data)
open(os.path.join(root, ".env"), "w").write("SECRET=1\n")
PY
git -C "$repo" add -A
git -C "$repo" commit -q -m "the tree"
wts=$repo/.autobuild/worktrees
mkdir -p "$wts"
nm_kb=$(du -sk "$repo/node_modules" | cut -f1)
echo "repository: $TRACKED tracked files; node_modules: $NM_FILES files, $((nm_kb / 1024)) MB on disk; .env (load average $(cut -d' ' -f1-3 /proc/loadavg))"
n=0
# add makes worktree number n+1 ($last); not in a subshell, so n counts.
add() { n=$((n + 1)); last=$wts/w$n; git -C "$repo" worktree add -q -b "w$n" "$last" 2> /dev/null; }

# The one-time copy, then each measurement on a new worktree. wtenvtime brings into a
# worktree that is up to date first (its run's check of autobuild's copy), then makes the new
# one with its files, then brings that one up to date again (reused).
add; warm=$last
t0=$(ms); "$WT" "$repo" .env,node_modules "$warm" > "$work/first"; t1=$(ms)
echo "first worktree ever (autobuild's copy made, then the links): $((t1 - t0)) ms ($(cut -f2 "$work/first"))"
: > "$work/add"; : > "$work/floor"; : > "$work/bare"; : > "$work/bring"; : > "$work/check"; : > "$work/reused"
for ((r = 1; r <= RUNS; r++)); do
  t0=$(ms); add; t1=$(ms); echo $((t1 - t0)) >> "$work/add"
  n=$((n + 1)); "$WT" -new-bare "$repo" .env,node_modules "$wts/w$n" | cut -f3 >> "$work/bare"
  n=$((n + 1)); w=$wts/w$n
  "$WT" -new "$repo" .env,node_modules "$warm" "$w" "$w" > "$work/out"
  sed -n 1p "$work/out" | cut -f3 >> "$work/check"
  sed -n 2p "$work/out" | cut -f3 >> "$work/bring"
  sed -n 3p "$work/out" | cut -f3 >> "$work/reused"
  # The floor with standard tools: git's checkout with `cp -al` of autobuild's copy of
  # node_modules beside it (one link per file, as autobuild's hard-link mode makes). What
  # a worktree with its files cannot beat without a folder-level clone.
  if grep -q "hard links" "$work/first"; then
    n=$((n + 1)); w=$wts/w$n
    t0=$(ms)
    git -C "$repo" worktree add -q --no-checkout -b "w$n" "$w" 2> /dev/null
    (cd "$w" && git reset -q --hard) &
    cp -al "$repo/.autobuild/worktree-files/node_modules" "$w/node_modules"
    cp "$repo/.env" "$w/.env"
    wait
    t1=$(ms); echo $((t1 - t0)) >> "$work/floor"
  fi
done
add_ms=$(median < "$work/add")
bare_ms=$(median < "$work/bare")
bring=$(median < "$work/bring")
check_ms=$(median < "$work/check")
reused_ms=$(median < "$work/reused")
echo "git worktree add alone:           ${add_ms} ms (median of $RUNS; autobuild's own worktree creation alone: ${bare_ms} ms)"
echo "git worktree add + files brought: ${bring} ms (checkout and files side by side); ratio $(awk -v a="$add_ms" -v b="$bring" 'BEGIN { printf "%.2f", b / a }')x"
if [[ -s $work/floor ]]; then
  floor_ms=$(median < "$work/floor")
  echo "floor, git's checkout with cp -al of autobuild's copy beside it: ${floor_ms} ms = $(awk -v a="$add_ms" -v b="$floor_ms" 'BEGIN { printf "%.2f", b / a }')x add; autobuild $(awk -v f="$floor_ms" -v b="$bring" 'BEGIN { printf "%.2f", b / f }')x the floor"
fi
echo "reused worktree brought up to date: ${reused_ms} ms"
echo "per run, checking autobuild's copy against your checkout: ${check_ms} ms"

# Disk: 8 worktrees with their files, against one copy of node_modules. du counts a hard
# link once per call but a clone whole: on a file system that clones (btrfs, xfs) the
# file system's own count is read (df; keep nothing else writing to it meanwhile).
git -C "$repo" worktree remove --force "$warm"
for w in "$wts"/w*; do git -C "$repo" worktree remove --force "$w"; done
git -C "$repo" worktree prune
eight=()
for ((i = 1; i <= 8; i++)); do add; eight+=("$last"); done
cache_kb=0
[[ -d $repo/.autobuild/worktree-files ]] && cache_kb=$(du -sk "$repo/.autobuild/worktree-files" | cut -f1)
case $(stat -f -c %T "$repo") in
  btrfs | xfs)
    used() { sync; df -k --output=used "$repo" | tail -1; }
    u0=$(used)
    "$WT" "$repo" .env,node_modules "${eight[@]}" > /dev/null
    extra_kb=$(($(used) - u0)) ;;
  *)
    t0_kb=$(du -sk -c "${eight[@]}" | tail -1 | cut -f1)
    "$WT" "$repo" .env,node_modules "${eight[@]}" > /dev/null
    # The copy first: the links in the worktrees are then counted as the copy's.
    extra_kb=$(($(du -sk -c "$repo/.autobuild/worktree-files" "${eight[@]}" | tail -1 | cut -f1) - cache_kb - t0_kb)) ;;
esac
case $(stat -f -c %T "$repo") in
  btrfs | xfs) copy_note="autobuild's copy: clones of your files, whose blocks are yours (du counts $((cache_kb / 1024)) MB)" ;;
  *) copy_note="autobuild's copy: $((cache_kb / 1024)) MB; with it $(awk -v e="$((extra_kb + cache_kb))" -v o="$nm_kb" 'BEGIN { printf "%.2f", e / o }')x" ;;
esac
echo "disk: 8 worktrees' files add $((extra_kb / 1024)) MB = $(awk -v e="$extra_kb" -v o="$nm_kb" 'BEGIN { printf "%.2f", e / o }')x one copy of node_modules ($((nm_kb / 1024)) MB); $copy_note"
for w in "${eight[@]}"; do git -C "$repo" worktree remove --force "$w"; done

# The floor of what 8 phases starting together add, with standard tools: 8 worktrees
# checked out at once, against the same with `cp -al` of autobuild's copy beside each.
eightadd() { # $1: with | without
  local t0 t1 ws=()
  for ((i = 1; i <= 8; i++)); do n=$((n + 1)); ws+=("$wts/w$n"); git -C "$repo" worktree add -q --no-checkout -b "w$n" "$wts/w$n" 2> /dev/null; done
  t0=$(ms)
  for w in "${ws[@]}"; do
    (cd "$w" && git reset -q --hard) &
    [[ $1 == with ]] && cp -al "$repo/.autobuild/worktree-files/node_modules" "$w/node_modules" &
  done
  wait
  t1=$(ms)
  for w in "${ws[@]}"; do git -C "$repo" worktree remove --force "$w"; done
  echo $((t1 - t0))
}
if grep -q "hard links" "$work/first"; then
  : > "$work/eight-with"; : > "$work/eight-without"
  for ((r = 1; r <= RUNS; r++)); do eightadd without >> "$work/eight-without"; eightadd with >> "$work/eight-with"; done
  e0=$(median < "$work/eight-without"); e1=$(median < "$work/eight-with")
  echo "floor, 8 worktrees checked out at once: ${e0} ms; with cp -al of node_modules beside each: ${e1} ms (+$((e1 - e0)) ms)"
fi

# Whole runs: 8 parallel phases, with and without files to bring in.
plan=$work/plan.md
{
  echo "# Eight"; echo; echo "| Phase | Depends On | Parallel With |"; echo "|---|---|---|"
  for i in 1 2 3 4 5 6 7 8; do echo "| $i | - | $(seq -s, 1 8 | sed "s/\b$i\b,\?//; s/,$//") |"; done
  for i in 1 2 3 4 5 6 7 8; do printf '\n## Phase %d: P%d\n\n- [ ] write p%d.txt\n' "$i" "$i" "$i"; done
} > "$plan"
cp "$plan" "$repo/plan.md"
git -C "$repo" add plan.md
git -C "$repo" commit -q -m plan
base=$(git -C "$repo" rev-parse HEAD)
agent=$work/agent.sh
printf '#!/bin/sh\nsleep %s\necho done > "p$AUTOBUILD_PHASE_ID.txt"\n' "$SLEEP" > "$agent"
chmod +x "$agent"
onerun() { # $1: with | without
  # The background removal of the last run's worktree files (which the run itself does not
  # wait for) would slow the next run: it is waited for, outside the timing.
  while compgen -G "$repo/.autobuild/worktree-files-trash.removing-*" > /dev/null; do sleep 0.2; done
  git -C "$repo" reset -q --hard "$base"
  rm -rf "$repo/.autobuild/worktrees" "$repo/.autobuild/run.json" "$repo/.autobuild/phases" "$repo/.autobuild/logs"
  if [[ $1 == with ]]; then
    printf '[gates]\ntest = "test -f .env && test -f node_modules/pkg1/lib/f10.js"\n\n[worktree]\ncopy = [".env", "node_modules"]\n' > "$repo/autobuild.toml"
  else
    printf '[gates]\ntest = "true"\n' > "$repo/autobuild.toml"
  fi
  git -C "$repo" add autobuild.toml
  git -C "$repo" commit -q -m config
  local t0 t1
  t0=$(ms)
  (cd "$repo" && "$AB" plan.md --no-tui --fresh --commit=auto --max-parallel 8 --agent "$agent" > "$work/run-$1.log" 2>&1) ||
    { echo "run $1 failed:"; tail -20 "$work/run-$1.log"; exit 1; }
  t1=$(ms)
  echo $((t1 - t0))
}
: > "$work/with"; : > "$work/without"
for ((r = 1; r <= RUNS; r++)); do
  onerun without >> "$work/without"
  onerun with >> "$work/with"
done
w=$(median < "$work/with"); wo=$(median < "$work/without")
echo "8-phase run, nothing to copy:       ${wo} ms (median of $RUNS)"
echo "8-phase run, .env + node_modules:   ${w} ms (+$((w - wo)) ms); ratio $(awk -v a="$wo" -v b="$w" 'BEGIN { printf "%.2f", b / a }')x"
grep -h "WORKTREES" "$work/run-with.log" | sed 's/^\[[^]]*\] /  /'
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
