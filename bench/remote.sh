#!/usr/bin/env bash
# remote.sh — issue 29's targets for the Temporal executor:
#   1. the autobuild binary's size, before (main at BEFORE_REF, or AB_BEFORE) and after (AB):
#      it may grow by no more than 25 MB;
#   2. `autobuild --version` start time (hyperfine if installed, else a loop; median and p90)
#      and the sum of its package initialisation times (GODEBUG=inittrace=1): under 50 ms;
#   3. a plan of PHASES (20) phases whose agent sleeps AGENT_S (1) s and writes a file, run
#      locally and with `--executor temporal` (a dev server from tools/temporal-dev, WORKERS (2)
#      `autobuild worker` processes with their own --dir, a bare repository as the remote),
#      medians of RUNS (3), round robin: the Temporal run may take at most 1.5x the local one.
#      It runs only when AB supports --executor temporal ("not available in this binary"
#      otherwise).
#
#   AB=/tmp/ab bench/remote.sh      env: AB_BEFORE (a binary) or BEFORE_REF (4f36da2, built from
#                                   git), PHASES, W (phases per layer: 20 = one layer),
#                                   PARALLEL (4), AGENT_S, RUNS, WORKERS, PARTS ("size version
#                                   plan"), AUTOBUILD_TEMPORAL_DEV (a built dev server),
#                                   VERSION_RUNS (201)
set -euo pipefail

BEFORE_REF=${BEFORE_REF:-4f36da2}
PHASES=${PHASES:-20}
W=${W:-$PHASES}
PARALLEL=${PARALLEL:-4}
AGENT_S=${AGENT_S:-1}
RUNS=${RUNS:-3}
WORKERS=${WORKERS:-2}
PARTS=${PARTS:-size version plan}
source "$(dirname "$0")/lib.sh"
bench_workdir remote

median() { sort -g | awk '{v[NR] = $1} END {if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.3f", b - a}'; }
has() { [[ " $PARTS " == *" $1 "* ]]; }

echo "machine:       $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg) (figures taken under load say little about the targets)"
# --- 1. binary size --------------------------------------------------------------------------
before=${AB_BEFORE:-}
if [[ -z $before ]] && { has size || has version; }; then
  before=$work/ab-before
  mkdir -p "$work/src-before"
  git -C "$ROOT" archive "$BEFORE_REF" | tar -x -C "$work/src-before"
  (cd "$work/src-before" && go build -o "$before" ./cmd/autobuild)
fi
if has size; then
  sb=$(stat -c %s "$before")
  sa=$(stat -c %s "$AB")
  echo "binary size:   before ${AB_BEFORE:-$BEFORE_REF} $(awk -v b="$sb" 'BEGIN {printf "%.1f", b / 1048576}') MB," \
    "after $(awk -v b="$sa" 'BEGIN {printf "%.1f", b / 1048576}') MB," \
    "grew $(awk -v a="$sa" -v b="$sb" 'BEGIN {printf "%+.1f", (a - b) / 1048576}') MB (target: <= +25 MB)"
fi

# --- 2. --version start time, before and after (the machine's load counts in both) -----------
# Wall time round robin (VERSION_RUNS each; $EPOCHREALTIME, so no process but the binary is
# timed), median and p90; and the sum of the package initialisation times GODEBUG=inittrace=1
# reports (median of 21 runs), which the machine's load moves less.
if has version; then
  VERSION_RUNS=${VERSION_RUNS:-201}
  "$AB" --version > /dev/null
  "$before" --version > /dev/null
  pct() { sort -g | awk -v p="$1" '{v[NR] = $1} END {i = int(NR * p + 0.5); if (i < 1) i = 1; printf "%.1f", v[i] / 1000}'; }
  if command -v hyperfine > /dev/null 2>&1; then
    hyperfine -N --warmup 5 --runs "$VERSION_RUNS" --export-json "$work/hf.json" "$before --version" "$AB --version" > /dev/null
    python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["results"]; [open(sys.argv[2+i],"w").write("".join("%d\n" % (t * 1e6) for t in x["times"])) for i, x in enumerate(r)]' \
      "$work/hf.json" "$work/v-before" "$work/v-after"
    how="hyperfine, $VERSION_RUNS runs each"
  else
    : > "$work/v-before"; : > "$work/v-after"
    for _ in $(seq 5); do "$AB" --version > /dev/null; "$before" --version > /dev/null; done
    for _ in $(seq "$VERSION_RUNS"); do # round robin
      a=$EPOCHREALTIME; "$before" --version > /dev/null; b=$EPOCHREALTIME; echo $((${b/./} - ${a/./})) >> "$work/v-before"
      a=$EPOCHREALTIME; "$AB" --version > /dev/null; b=$EPOCHREALTIME; echo $((${b/./} - ${a/./})) >> "$work/v-after"
    done
    how="a loop of $VERSION_RUNS runs each, round robin, no hyperfine"
  fi
  inits() { for _ in $(seq 21); do GODEBUG=inittrace=1 "$1" --version 2>&1 > /dev/null | awk '$1 == "init" {s += $5} END {print s * 1000}'; done | pct 0.5; }
  echo "--version:     median $(pct 0.5 < "$work/v-after") ms, p90 $(pct 0.9 < "$work/v-after") ms;" \
    "before: median $(pct 0.5 < "$work/v-before") ms, p90 $(pct 0.9 < "$work/v-before") ms ($how; target: < 50 ms)"
  echo "package init:  $(inits "$AB") ms, before $(inits "$before") ms (sum of GODEBUG=inittrace=1's clock times, median of 21)"
fi

# --- 3. the plan, local against --executor temporal ------------------------------------------
if has plan; then
  L=$(((PHASES + W - 1) / W))
  agent_cmd="sleep $AGENT_S; echo x > \"\$AUTOBUILD_PHASE_ID.txt\""
  seed=$work/seed
  git init -q -b main "$seed"
  (cd "$seed" && echo "# remote benchmark" > README.md && layered_plan "$L" "$W" "Remote plan" > plan.md &&
    git add README.md plan.md && git commit -qm "initial commit")

  temporal=no
  if "$AB" --help 2>&1 | grep -q -- '--executor' && "$AB" worker --help > /dev/null 2>&1; then
    temporal=yes
  fi

  # One local run in a fresh clone; prints its wall time.
  run_local() {
    local repo=$work/local-$1
    git clone -q "$seed" "$repo"
    local a b rc=0
    a=$(now)
    (cd "$repo" && "$AB" plan.md --agent "$agent_cmd" --commit=auto --no-tui --max-parallel "$PARALLEL") \
      > "$work/local-$1.out" 2>&1 || rc=$?
    b=$(now)
    ((rc == 0)) || { echo "local run $1 exited $rc:" >&2; tail -n 20 "$work/local-$1.out" >&2; exit 1; }
    elapsed "$a" "$b"
  }

  if [[ $temporal == yes ]]; then
    dev=${AUTOBUILD_TEMPORAL_DEV:-}
    if [[ -z $dev ]]; then
      dev=$work/temporal-dev
      a=$(now)
      (cd "$ROOT/tools/temporal-dev" && GOWORK=off go build -ldflags="-s -w" -o "$dev" .)
      echo "dev server:    built in $(elapsed "$a" "$(now)") s (tools/temporal-dev; AUTOBUILD_TEMPORAL_DEV skips this)"
    fi
    a=$(now)
    "$dev" --port 0 --ready-file "$work/ready" > "$work/dev.out" 2> "$work/dev.log" &
    dev_pid=$!
    for _ in $(seq 900); do [[ -s $work/ready ]] && break; sleep 0.1; done
    [[ -s $work/ready ]] || { echo "the dev server was not ready in 90 s:" >&2; tail "$work/dev.log" >&2; exit 1; }
    hostport=$(cat "$work/ready")
    echo "dev server:    ready on $hostport in $(elapsed "$a" "$(now)") s"
    worker_pids=()
    for i in $(seq "$WORKERS"); do
      mkdir -p "$work/worker-$i/home"
      HOME=$work/worker-$i/home "$AB" worker --temporal "$hostport" --dir "$work/worker-$i/dir" \
        --max-parallel "$PARALLEL" > "$work/worker-$i.log" 2>&1 &
      worker_pids+=($!)
    done
    trap 'kill "${worker_pids[@]}" "$dev_pid" 2> /dev/null; wait 2> /dev/null; [[ -n ${KEEP:-} ]] || rm -rf "$work"' EXIT
  fi

  run_temporal() {
    local repo=$work/temporal-$1 remote=$work/remote-$1.git
    git clone -q "$seed" "$repo"
    git clone -q --bare "$seed" "$remote"
    local a b rc=0
    a=$(now)
    (cd "$repo" && "$AB" plan.md --agent "$agent_cmd" --commit=auto --no-tui --max-parallel "$PARALLEL" \
      --executor temporal --remote "$remote" --temporal "$hostport") > "$work/temporal-$1.out" 2>&1 || rc=$?
    b=$(now)
    ((rc == 0)) || { echo "temporal run $1 exited $rc:" >&2; tail -n 20 "$work/temporal-$1.out" >&2; exit 1; }
    elapsed "$a" "$b"
  }

  locals=() temporals=()
  for r in $(seq "$RUNS"); do
    locals+=("$(run_local "$r")")
    [[ $temporal == yes ]] && temporals+=("$(run_temporal "$r")")
  done
  lm=$(printf '%s\n' "${locals[@]}" | median)
  echo "plan:          $PHASES phases ($L x $W), agent sleeps ${AGENT_S} s and writes a file, --max-parallel $PARALLEL, medians of $RUNS"
  echo "local:         $lm s (runs: ${locals[*]})"
  if [[ $temporal == yes ]]; then
    tm=$(printf '%s\n' "${temporals[@]}" | median)
    echo "temporal:      $tm s (runs: ${temporals[*]}; $WORKERS workers)"
    echo "ratio:         $(awk -v t="$tm" -v l="$lm" 'BEGIN {printf "%.2f", t / l}')x (target: <= 1.5x)"
  else
    echo "temporal:      not available in this binary (no --executor temporal)"
  fi
fi
