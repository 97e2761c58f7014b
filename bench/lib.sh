# lib.sh — how every bench script starts; source it after `set -euo pipefail`:
#
#   source "$(dirname "$0")/lib.sh"
#   bench_workdir NAME      # $work: a temporary directory, removed on exit unless KEEP=1
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
