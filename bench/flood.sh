#!/usr/bin/env bash
# flood.sh — one phase whose agent prints SIZE bytes of 100-byte lines (default 1 GB), run
# three ways against the pipe alone: `yes | head -c SIZE | cat > /dev/null`. Prints the wall
# time, the ratio to the pipe and the max RSS of each.
#
#   bench/flood.sh [SIZE]         env: AB (binary; default: build /tmp/ab-bench), KEEP=1
#   plain   autobuild --no-tui: plain lines, no -v (output lines are not shown, only the
#           heartbeat's latest line per phase)
#   json    autobuild --json > /dev/null: every line becomes a JSON event
#   tui     the terminal UI under script(1)'s pty (120x40); q is sent once run.json says
#           the run ended, so its wall is the run's own (started to finished in run.json)
set -euo pipefail

SIZE=${1:-${SIZE:-1000000000}}
source "$(dirname "$0")/lib.sh"
[[ -x /usr/bin/time ]] || { echo "flood.sh needs GNU time (/usr/bin/time) for the RSS" >&2; exit 2; }
command -v script > /dev/null || { echo "flood.sh needs script(1) (util-linux) for the TUI run" >&2; exit 2; }

bench_workdir flood
repo=$work/repo
git init -q -b main "$repo"
cd "$repo"
printf '# Flood\n\n| Phase | Name | Depends On |\n|---|---|---|\n| 1 | Flood | - |\n\n## Phase 1: Flood\n\n- [ ] Print a lot.\n' > plan.md
git add plan.md && git commit -qm "add plan"

line=$(printf '%099d' 0) # 99 characters and the newline: 100 bytes a line
agent="yes $line | head -c $SIZE"

# seconds and max RSS (MB) of the command line in "$@", from GNU time's report.
measure() {
  /usr/bin/time -f '%e %M' -o "$work/time" "$@" > "$work/out" 2> "$work/err" || {
    echo "failed: $*" >&2; tail -5 "$work/err" >&2; exit 1; }
  read -r secs kb < "$work/time"
  echo "$secs $((kb / 1024))"
}

pipe=$(measure sh -c "$agent | cat > /dev/null")

fresh() { rm -rf .autobuild; }
fresh; plain=$(measure "$AB" plan.md --agent "$agent" --commit=auto --no-tui)
fresh; json=$(measure sh -c "'$AB' plan.md --agent '$agent' --commit=auto --json > /dev/null")

# The TUI stays on its summary after the run: q quits once run.json says it ended.
fresh
fifo=$work/keys
mkfifo "$fifo"
(
  exec 3> "$fifo"
  until grep -qE '"status": "(complete|halted|interrupted)"' .autobuild/run.json 2> /dev/null; do sleep 0.1; done
  sleep 0.5
  printf q >&3
  sleep 5
) &
keys=$!
tui=$(COLUMNS=120 LINES=40 measure sh -c "stty cols 120 rows 40 2>/dev/null; script -qfec \"'$AB' plan.md --agent '$agent' --commit=auto\" /dev/null < '$fifo'")
kill "$keys" 2> /dev/null || true
# The UI's wall includes waiting for q; the run's own time is in run.json.
stamp() { date -d "$(sed -n "s/^  \"$1\": \"\(.*\)\",\{0,1\}$/\1/p" .autobuild/run.json)" +%s.%N; }
read -r _ tuim <<< "$tui"
tuirun="$(awk -v a="$(stamp started)" -v b="$(stamp finished)" 'BEGIN { printf "%.2f", b - a }') $tuim"

read -r ps pm <<< "$pipe"
row() {
  read -r s m <<< "$2"
  awk -v n="$1" -v s="$s" -v p="$ps" -v m="$m" 'BEGIN { printf "%-7s %7.2f s  %5.2fx  %5d MB\n", n, s, s / p, m }'
}
echo "flood: $SIZE bytes in 100-byte lines, one phase"
echo "run      wall     ratio    max RSS"
row pipe "$pipe"
row plain "$plain"
row json "$json"
row tui "$tuirun"
echo "(tui: the run's time from run.json; with the UI's start and the wait for q: ${tui%% *} s)"
