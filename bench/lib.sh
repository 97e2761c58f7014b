# lib.sh — how every bench script starts; source it after `set -euo pipefail`:
#
#   source "$(dirname "$0")/lib.sh"
#   bench_workdir NAME      # $work: a temporary directory, removed on exit unless KEEP=1
#   layered_plan L W TITLE  # prints a plan of L layers of W phases, L<k>P<j> depending on L<k-1>P<j>
#
# It sets ROOT (the repository) and AB (the binary: $AB if set, else a fresh build at
# /tmp/ab-bench), and gives git an identity unless the environment has one.
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
if [[ -z ${AB:-} ]]; then
  AB=/tmp/ab-bench
  (cd "$ROOT" && go build -o "$AB" ./cmd/autobuild)
fi

: "${GIT_AUTHOR_NAME:=bench}" "${GIT_AUTHOR_EMAIL:=bench@example.invalid}"
: "${GIT_COMMITTER_NAME:=$GIT_AUTHOR_NAME}" "${GIT_COMMITTER_EMAIL:=$GIT_AUTHOR_EMAIL}"
export GIT_AUTHOR_NAME GIT_AUTHOR_EMAIL GIT_COMMITTER_NAME GIT_COMMITTER_EMAIL

bench_workdir() {
  work=$(mktemp -d "${TMPDIR:-/tmp}/ab-$1-XXXXXX")
  [[ -n ${KEEP:-} ]] || trap 'rm -rf "$work"' EXIT
}

layered_plan() {
  local L=$1 W=$2 title=$3 k j dep
  echo "# $title: $L layers x $W phases"
  echo
  echo "| Phase | Name | Depends On |"
  echo "|---|---|---|"
  for ((k = 1; k <= L; k++)); do
    for ((j = 1; j <= W; j++)); do
      dep=-; ((k > 1)) && dep="L$((k - 1))P$j"
      echo "| L${k}P${j} | Layer $k part $j | $dep |"
    done
  done
  for ((k = 1; k <= L; k++)); do
    for ((j = 1; j <= W; j++)); do
      printf '\n## Phase L%dP%d: Layer %d part %d\n\n- [ ] Write `L%dP%d.txt`.\n' "$k" "$j" "$k" "$j" "$k" "$j"
    done
  done
}
