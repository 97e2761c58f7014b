#!/usr/bin/env bash
# eager.sh — the batch barrier against make: four chains of five phases (dependencies only
# inside each chain) whose agent sleeps a phase's length, then writes a file. Two shapes:
#
#   staggered  each chain's long phase (LONG s, the others SHORT s) in a different layer:
#              chain A's in layer 1, B's in layer 2, … so every batch waits for one
#   random     lengths drawn from 1–5 s (whole seconds) with a fixed SEED
#
# Each shape runs RUNS times (median) three ways: `make -jPARALLEL` on a Makefile of the
# same graph whose recipes sleep the same lengths, and autobuild --schedule=batches and
# --schedule=eager with --max-parallel PARALLEL. A fourth run is autobuild's floor: the
# longest chain alone (five phases one after another: no schedule can beat it, so what it
# takes over make is autobuild's own cost per phase, not the schedule's). Prints the
# medians, the critical path and each median's ratio to make's.
#
#   bench/eager.sh            env: RUNS (3), PARALLEL (8), SHORT (1), LONG (4), SEED (14),
#                                  COMMIT (auto), AB (binary; default: build /tmp/ab-bench),
#                                  KEEP=1 (keep the temporary directory),
#                                  SHAPES ("staggered random"), ROWS ("batches eager floor"),
#                                  AB_BEFORE (another binary: adds a row "before", its eager
#                                  run, round robin with the others, for an A/B on one day)
set -euo pipefail

RUNS=${RUNS:-3}
PARALLEL=${PARALLEL:-8}
SHORT=${SHORT:-1}
LONG=${LONG:-4}
SEED=${SEED:-14}
COMMIT=${COMMIT:-auto}
source "$(dirname "$0")/lib.sh"
command -v make > /dev/null || { echo "eager.sh needs make" >&2; exit 2; }

bench_workdir eager
chains=(A B C D)

# lengths SHAPE: one "ID SECONDS" line per phase, ids A1…D5 in plan order.
lengths() {
  case $1 in
    staggered)
      for c in 0 1 2 3; do
        for k in 1 2 3 4 5; do
          d=$SHORT; ((k == c + 1)) && d=$LONG
          echo "${chains[c]}$k $d"
        done
      done ;;
    random)
      awk -v seed="$SEED" 'BEGIN { srand(seed); split("A B C D", ch, " ")
        for (c = 1; c <= 4; c++) for (k = 1; k <= 5; k++) printf "%s%d %d\n", ch[c], k, 1 + int(rand() * 5) }' ;;
  esac
}

# critical SHAPE-FILE: the longest chain's seconds.
critical() {
  awk '{ sum[substr($1, 1, 1)] += $2 } END { for (c in sum) if (sum[c] > m) m = sum[c]; print m }' "$1"
}

# longest SHAPE-FILE: the lines of the longest chain (the first of equals).
longest() {
  local c
  c=$(awk '{ sum[substr($1, 1, 1)] += $2 } END { for (c in sum) if (sum[c] > m || (sum[c] == m && c < best)) { m = sum[c]; best = c }; print best }' "$1")
  grep "^$c" "$1"
}

# repo DIR LENGTHS: a repository holding the plan of the four chains.
repo() {
  git init -q -b main "$1"
  (
    cd "$1"
    {
      echo "# Four chains"
      echo
      echo "| Phase | Name | Depends On |"
      echo "|---|---|---|"
      while read -r id _; do
        k=${id:1}; dep=-; ((k > 1)) && dep="${id:0:1}$((k - 1))"
        echo "| $id | Step $k of chain ${id:0:1} | $dep |"
      done < "$2"
      while read -r id _; do
        printf '\n## Phase %s: Step %s of chain %s\n\n- [ ] Write `%s.txt`.\n' "$id" "${id:1}" "${id:0:1}" "$id"
      done < "$2"
    } > plan.md
    git add plan.md && git commit -qm "add plan"
  )
}

# makefile DIR LENGTHS: the same graph for make; each recipe sleeps the phase's length.
makefile() {
  {
    printf 'all:'
    for c in "${chains[@]}"; do printf ' %s5' "$c"; done
    printf '\n'
    while read -r id d; do
      k=${id:1}; dep=; ((k > 1)) && dep="${id:0:1}$((k - 1))"
      printf '%s: %s\n\tsleep %s && touch %s\n' "$id" "$dep" "$d" "$id"
    done < "$2"
  } > "$1/Makefile"
}

now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.2f", b - a }'; }
median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }

# The agent sleeps its phase's length from the lengths file (outside the repository).
agent_for() {
  echo "sleep \"\$(awk -v id=\"\$AUTOBUILD_PHASE_ID\" 'tolower(\$1) == id { print \$2 }' '$1')\"; echo x > \"\$AUTOBUILD_PHASE_ID.txt\""
}

rows=${ROWS:-batches eager floor}
[[ -n ${AB_BEFORE:-} ]] && rows+=" before"
for shape in ${SHAPES:-staggered random}; do
  lens=$work/$shape.lengths
  lengths "$shape" > "$lens"
  longest "$lens" > "$lens.chain"
  cp=$(critical "$lens")
  declare -A times=()
  for ((i = 1; i <= RUNS; i++)); do
    mk=$work/$shape-make-$i
    mkdir -p "$mk" && makefile "$mk" "$lens"
    t=$(now); make -s -C "$mk" -j"$PARALLEL" > /dev/null; times[make]+="$(since "$t") "
    for sched in $rows; do
      r=$work/$shape-$sched-$i
      if [[ $sched == floor ]]; then repo "$r" "$lens.chain"; else repo "$r" "$lens"; fi
      bin=$AB schedule=$sched
      case $sched in
        floor) schedule=eager ;;
        before) bin=$AB_BEFORE schedule=eager ;;
      esac
      t=$(now)
      if ! (cd "$r" && "$bin" plan.md --agent "$(agent_for "$lens")" --commit="$COMMIT" --no-tui \
        --max-parallel "$PARALLEL" --schedule="$schedule" > "$work/out" 2>&1); then
        echo "autobuild --schedule=$sched failed on $shape (KEEP=1 keeps $r):" >&2
        tail -n 20 "$work/out" >&2
        exit 1
      fi
      times[$sched]+="$(since "$t") "
    done
  done
  # shellcheck disable=SC2086 # the lists split on purpose
  m=$(median ${times[make]})
  echo "$shape: critical path ${cp}s; lengths: $(awk '{ printf "%s=%s ", $1, $2 }' "$lens")"
  printf '  %-30s %6.2f s  %5s x make\n' "make -j$PARALLEL" "$m" "1.00"
  declare -A label=([batches]="autobuild --schedule=batches" [eager]="autobuild --schedule=eager"
    [floor]="autobuild, longest chain alone" [before]="AB_BEFORE --schedule=eager")
  runs="make ${times[make]}|"
  for sched in $rows; do
    v=$(median ${times[$sched]})
    printf '  %-30s %6.2f s  %5s x make\n' "${label[$sched]}" "$v" "$(ratio "$v" "$m")"
    runs+=" $sched ${times[$sched]}|"
  done
  if [[ " $rows " == *" eager "* && " $rows " == *" floor "* ]]; then
    echo "  eager / longest chain alone: $(ratio "$(median ${times[eager]})" "$(median ${times[floor]})")"
  fi
  echo "  (runs: $runs)"
  unset times
done
