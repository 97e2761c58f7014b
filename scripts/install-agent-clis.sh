#!/usr/bin/env bash
# Installs the agent CLIs pinned in agents/package-lock.json (claude, codex, gemini, qwen,
# opencode, pi, copilot, and claude-code-acp, the ACP adapter of claude) for the end-to-end
# tests that run them against local mock model servers.
#
#   scripts/install-agent-clis.sh            # into ${AUTOBUILD_AGENT_CLIS:-$HOME/.cache/autobuild/agent-clis}
#   AUTOBUILD_AGENT_CLIS=/some/dir scripts/install-agent-clis.sh
#
# The binaries end up in <dir>/node_modules/.bin. The install is skipped when <dir> already
# holds exactly this lock file's packages. It is built in a fresh folder next to <dir> and moved
# into place, so a test running meanwhile never sees a half-installed tree.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
dest="${AUTOBUILD_AGENT_CLIS:-$HOME/.cache/autobuild/agent-clis}"
lock="$repo/agents/package-lock.json"
bins="claude codex gemini qwen opencode pi copilot claude-code-acp"

if ! command -v npm >/dev/null 2>&1; then
  echo "install-agent-clis: npm not found; install Node.js and npm to run the real-CLI tests" >&2
  exit 1
fi

installed() {
  for bin in $bins; do
    [ -x "$1/node_modules/.bin/$bin" ] || return 1
  done
}

if cmp -s "$lock" "$dest/package-lock.json" && installed "$dest"; then
  echo "install-agent-clis: up to date in $dest"
  exit 0
fi

mkdir -p "$(dirname "$dest")"
stage="$(mktemp -d "$dest.new.XXXXXX")"
trap 'rm -rf "$stage"' EXIT
cp "$repo/agents/package.json" "$repo/agents/package-lock.json" "$repo/agents/.npmrc" "$stage/"
# npm ci installs exactly the lock file. Scripts must run: claude's postinstall puts its native
# binary in place. Optional native modules that cannot build here (gemini's pty) are skipped by npm.
(cd "$stage" && npm ci --no-audit --no-fund --loglevel=error)
for bin in $bins; do
  [ -x "$stage/node_modules/.bin/$bin" ] || { echo "install-agent-clis: $bin missing after npm ci" >&2; exit 1; }
done

# Swap the new tree in; the old one is removed after the move.
old=""
if [ -e "$dest" ]; then
  old="$(mktemp -d "$dest.old.XXXXXX")"
  rmdir "$old"
  mv "$dest" "$old"
fi
mv "$stage" "$dest"
trap - EXIT
[ -n "$old" ] && rm -rf "$old"
echo "install-agent-clis: installed in $dest:"
# No update checks or telemetry from the version checks.
export DISABLE_AUTOUPDATER=1 DISABLE_TELEMETRY=1 CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1
export GEMINI_CLI_DISABLE_AUTO_UPDATE=true GEMINI_TELEMETRY_ENABLED=false
export COPILOT_AUTO_UPDATE=false OPENCODE_DISABLE_AUTOUPDATE=1 PI_OFFLINE=1
for bin in claude codex gemini qwen opencode pi copilot; do
  printf '  %s: ' "$bin"; "$dest/node_modules/.bin/$bin" --version
done
# claude-code-acp has no --version: it speaks ACP on stdin at once.
echo "  claude-code-acp: $(node -p "require('$dest/node_modules/@zed-industries/claude-code-acp/package.json').version")"
