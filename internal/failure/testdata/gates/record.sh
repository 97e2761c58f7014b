#!/usr/bin/env bash
# record.sh regenerates the recorded gate and agent outputs in this folder by
# running the real tools on small projects, as autobuild runs a gate: through
# `sh -c`, stdout and stderr together, not on a terminal. Each case writes
# <tool>/<case>.out (the output, untouched) and <tool>/<case>.cmd (the command,
# the tool's version and the exit status).
#
#   internal/failure/testdata/gates/record.sh [tool...]
#
# Needs go, python3 with pytest (Debian: apt-get install python3-pytest), node
# and npm (jest and vitest are installed into the work folder from npm), cargo
# and prove (perl). The projects are built in a fixed folder so that paths in
# the output stay the same from one recording to the next.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
work=/tmp/autobuild-gate-record
py=${PYTHON:-/usr/bin/python3}

# record TOOL CASE DIR VERSION COMMAND: runs COMMAND in DIR and records it.
record() {
	local tool=$1 name=$2 dir=$3 version=$4 cmd=$5 status=0
	mkdir -p "$here/$tool"
	(cd "$dir" && sh -c "$cmd") >"$here/$tool/$name.out" 2>&1 </dev/null || status=$?
	printf 'command: %s\nversion: %s\nexit: %d\n' "$cmd" "$version" "$status" >"$here/$tool/$name.cmd"
	echo "recorded $tool/$name (exit $status)"
}

# project DIR: a fresh, empty project folder.
project() {
	rm -rf "${work:?}/$1"
	mkdir -p "$work/$1"
	echo "$work/$1"
}

tools=("$@")
on() { [ ${#tools[@]} -eq 0 ] && return 0; local t; for t in "${tools[@]}"; do [ "$t" = "$1" ] && return 0; done; return 1; }

if on go; then
	v=$(go version)
	d=$(project go-compile)
	printf 'module example.com/calc\n\ngo 1.22\n' >"$d/go.mod"
	printf 'package calc\n\nimport "testing"\n\nfunc TestAdd(t *testing.T) {\n\tif got := Add(2, 2); got != 4 {\n\t\tt.Fatalf("Add(2, 2) = %%d, want 4", got)\n\t}\n}\n' >"$d/calc_test.go"
	printf 'package calc\n\n// Sub subtracts.\nfunc Sub(a, b int) int { return a - b }\n' >"$d/calc.go"
	record go compile_undefined "$d" "$v" 'go test ./...'

	d=$(project go-build)
	printf 'module example.com/calc\n\ngo 1.22\n' >"$d/go.mod"
	printf 'package calc\n\n// Double doubles.\nfunc Double(a int) int { return Add(a, a) }\n' >"$d/calc.go"
	printf 'package calc\n\nimport "testing"\n\nfunc TestDouble(t *testing.T) {\n\tif Double(2) != 4 {\n\t\tt.Fatal("Double(2) != 4")\n\t}\n}\n' >"$d/calc_test.go"
	record go build_undefined "$d" "$v" 'go build ./...'
	record go vet_undefined "$d" "$v" 'go vet ./...'
	record go test_build_undefined "$d" "$v" 'go test ./...'

	d=$(project go-fail)
	printf 'module example.com/calc\n\ngo 1.22\n' >"$d/go.mod"
	printf 'package calc\n\nfunc Add(a, b int) int { return a - b }\n\nfunc Sub(a, b int) int { return a - b }\n' >"$d/calc.go"
	cat >"$d/calc_test.go" <<'GO'
package calc

import "testing"

func TestAdd(t *testing.T) {
	if got := Add(2, 2); got != 4 {
		t.Errorf("Add(2, 2) = %d, want 4", got)
	}
}

func TestSub(t *testing.T) {
	if got := Sub(3, 1); got != 2 {
		t.Errorf("Sub(3, 1) = %d, want 2", got)
	}
}

func TestTable(t *testing.T) {
	for _, c := range []struct {
		name string
		a, b int
		want int
	}{{"zero", 0, 0, 0}, {"two", 1, 1, 2}} {
		t.Run(c.name, func(t *testing.T) {
			if got := Add(c.a, c.b); got != c.want {
				t.Errorf("Add(%d, %d) = %d, want %d", c.a, c.b, got, c.want)
			}
		})
	}
}
GO
	record go fail "$d" "$v" 'go test ./...'

	d=$(project go-timeout)
	printf 'module example.com/wait\n\ngo 1.22\n' >"$d/go.mod"
	cat >"$d/wait_test.go" <<'GO'
package wait

import (
	"testing"
	"time"
)

func TestQuick(t *testing.T) {}

func TestWaitGivesUp(t *testing.T) {
	time.Sleep(10 * time.Second)
}
GO
	record go timeout "$d" "$v" 'go test -timeout 1s ./...'

	d=$(project go-panic)
	printf 'module example.com/cache\n\ngo 1.22\n' >"$d/go.mod"
	printf 'package cache\n\nvar entries map[string]int\n\n// Put stores v under k.\nfunc Put(k string, v int) { entries[k] = v }\n' >"$d/cache.go"
	printf 'package cache\n\nimport "testing"\n\nfunc TestPut(t *testing.T) {\n\tPut("a", 1)\n}\n' >"$d/cache_test.go"
	record go panic "$d" "$v" 'go test ./...'
fi

if on pytest; then
	v=$($py -m pytest --version 2>&1)
	d=$(project py-syntax)
	mkdir -p "$d/tests"
	printf 'def add(a, b):\n    return a + b\n' >"$d/calc.py"
	printf 'from calc import add\n\n\ndef test_add()\n    assert add(2, 2) == 4\n' >"$d/tests/test_calc.py"
	record pytest syntax_error "$d" "$v" "$py -m pytest"

	touch "$d/tests/__init__.py"
	record python unittest_syntax_error "$d" "$($py --version 2>&1)" "$py -m unittest discover -s tests -t ."
	rm "$d/tests/__init__.py"

	d=$(project py-unittest)
	mkdir -p "$d/tests"
	touch "$d/tests/__init__.py"
	printf 'def add(a, b):\n    return a - b\n' >"$d/calc.py"
	cat >"$d/tests/test_calc.py" <<'PY'
import unittest

from calc import add


class TestCalc(unittest.TestCase):
    def test_add(self):
        self.assertEqual(add(2, 2), 4)

    def test_zero(self):
        self.assertEqual(add(0, 0), 0)

    def test_type(self):
        add(None, 1)
PY
	record python unittest_fail "$d" "$($py --version 2>&1)" "$py -m unittest discover -s tests -t ."

	d=$(project py-import)
	mkdir -p "$d/tests"
	printf 'from calc import add\n\n\ndef test_add():\n    assert add(2, 2) == 4\n' >"$d/tests/test_calc.py"
	record pytest import_error "$d" "$v" "$py -m pytest"

	# A third-party package that is not installed (not a file of the project).
	d=$(project py-dep)
	mkdir -p "$d/tests"
	printf 'import httpx\n\n\ndef fetch(url):\n    return httpx.get(url).text\n' >"$d/client.py"
	printf 'from client import fetch\n\n\ndef test_fetch():\n    assert callable(fetch)\n' >"$d/tests/test_client.py"
	record pytest missing_package "$d" "$v" "$py -m pytest"

	d=$(project py-fail)
	mkdir -p "$d/tests"
	printf 'def add(a, b):\n    return a - b\n' >"$d/calc.py"
	cat >"$d/tests/test_calc.py" <<'PY'
import pytest

from calc import add


def test_add():
    assert add(2, 2) == 4


def test_zero():
    assert add(0, 0) == 0


class TestCalc:
    @pytest.mark.parametrize("a,b,want", [(1, 1, 2), (2, 0, 2)])
    def test_param(self, a, b, want):
        assert add(a, b) == want
PY
	touch "$d/conftest.py"
	record pytest fail "$d" "$v" "$py -m pytest"
	record junit pytest_fail "$d" "$v" "$py -m pytest -q -p no:cacheprovider --junitxml=report.xml >/dev/null; status=\$?; cat report.xml; exit \$status"
fi

if on node; then
	v=$(node --version)
	d=$(project node-fail)
	cat >"$d/calc.test.js" <<'JS'
const test = require('node:test');
const assert = require('node:assert');

const add = (a, b) => a - b;

test('adds numbers', () => {
  assert.strictEqual(add(2, 2), 4);
});

test('adds zero', () => {
  assert.strictEqual(add(0, 0), 0);
});

test.describe('calc', () => {
  test.it('subtracts', () => {
    assert.strictEqual(add(3, 1), 2);
  });
});
JS
	record node fail_tap "$d" "$v" 'node --test'
	record node fail_spec "$d" "$v" 'node --test --test-reporter=spec'
	record junit node_fail "$d" "$v" 'node --test --test-reporter=junit'

	d=$(project node-syntax)
	printf "const test = require('node:test');\nconst { add } = require('./calc');\n\ntest('adds', () => {\n  if (add(2, 2) !== 4 {\n    throw new Error('bad');\n  }\n});\n" >"$d/calc.test.js"
	printf 'exports.add = (a, b) => a + b;\n' >"$d/calc.js"
	record node syntax_error "$d" "$v" 'node --test'

	d=$(project node-missing)
	printf "const test = require('node:test');\nconst { add } = require('./calc');\n\ntest('adds', () => {});\n" >"$d/calc.test.js"
	record node missing_module "$d" "$v" 'node --test'

	# A package from npm that is not installed (no node_modules).
	d=$(project node-dep)
	printf "const test = require('node:test');\nconst leftPad = require('left-pad');\n\ntest('pads', () => {\n  if (leftPad('1', 3, '0') !== '001') throw new Error('bad');\n});\n" >"$d/pad.test.js"
	record node missing_package "$d" "$v" 'node --test'
fi

if on jest || on vitest || on tsc; then
	js=$work/js-tools
	if [ ! -x "$js/node_modules/.bin/jest" ] || [ ! -x "$js/node_modules/.bin/vitest" ] || [ ! -x "$js/node_modules/.bin/tsc" ]; then
		rm -rf "$js"
		mkdir -p "$js"
		(cd "$js" && npm init -y >/dev/null && npm install --no-audit --no-fund jest vitest typescript >/dev/null)
	fi
	jsproject() {
		local d
		d=$(project "$1")
		ln -s "$js/node_modules" "$d/node_modules"
		printf '{"name": "%s", "version": "1.0.0", "private": true}\n' "$1" >"$d/package.json"
		printf 'exports.add = (a, b) => a - b;\n' >"$d/calc.js"
		echo "$d"
	}
	jsfail='const { add } = require("./calc");

describe("calc", () => {
  test("adds numbers", () => {
    expect(add(2, 2)).toBe(4);
  });
  test("adds zero", () => {
    expect(add(0, 0)).toBe(0);
  });
});

test("subtracts", () => {
  expect(add(3, 1)).toBe(2);
});
'
	jssyntax='const { add } = require("./calc");

test("adds numbers", () => {
  expect(add(2, 2).toBe(4);
});
'
	if on jest; then
		v="jest $("$js/node_modules/.bin/jest" --version)"
		d=$(jsproject jest-fail)
		printf '%s' "$jsfail" >"$d/calc.test.js"
		record jest fail "$d" "$v" 'npx jest'
		d=$(jsproject jest-syntax)
		printf '%s' "$jssyntax" >"$d/calc.test.js"
		record jest syntax_error "$d" "$v" 'npx jest'
	fi
	if on vitest; then
		v="vitest $("$js/node_modules/.bin/vitest" --version)"
		d=$(jsproject vitest-fail)
		{
			printf 'import { describe, test, expect } from "vitest";\nimport { add } from "./calc.mjs";\n'
			printf '%s' "$jsfail" | tail -n +2
		} >"$d/calc.test.mjs"
		printf 'export const add = (a, b) => a - b;\n' >"$d/calc.mjs"
		record vitest fail "$d" "$v" 'npx vitest run'
		d=$(jsproject vitest-syntax)
		printf 'import { test, expect } from "vitest";\nimport { add } from "./calc.mjs";\n\ntest("adds numbers", () => {\n  expect(add(2, 2).toBe(4);\n});\n' >"$d/calc.test.mjs"
		printf 'export const add = (a, b) => a - b;\n' >"$d/calc.mjs"
		record vitest syntax_error "$d" "$v" 'npx vitest run'
	fi
	if on tsc; then
		v="tsc $("$js/node_modules/.bin/tsc" --version)"
		d=$(jsproject tsc-error)
		printf 'export function add(a: number, b: number): number {\n  return a + b;\n}\n\nexport const four: number = add(2, "2");\n' >"$d/calc.ts"
		printf '{"compilerOptions": {"strict": true, "noEmit": true}, "files": ["calc.ts"]}\n' >"$d/tsconfig.json"
		record tsc type_error "$d" "$v" 'npx tsc --noEmit'
	fi
fi

if on cargo; then
	v=$(cargo --version)
	d=$(project cargo-fail)
	mkdir -p "$d/src"
	printf '[package]\nname = "calc"\nversion = "0.1.0"\nedition = "2021"\n' >"$d/Cargo.toml"
	cat >"$d/src/lib.rs" <<'RS'
pub fn add(a: i32, b: i32) -> i32 {
    a - b
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn adds() {
        assert_eq!(add(2, 2), 4);
    }

    #[test]
    fn adds_zero() {
        assert_eq!(add(0, 0), 0);
    }

    #[test]
    fn panics() {
        let v: Vec<i32> = Vec::new();
        let _ = v[3];
    }
}
RS
	record cargo fail "$d" "$v" 'cargo test --offline'

	d=$(project cargo-compile)
	mkdir -p "$d/src"
	printf '[package]\nname = "calc"\nversion = "0.1.0"\nedition = "2021"\n' >"$d/Cargo.toml"
	printf 'pub fn sub(a: i32, b: i32) -> i32 {\n    a - b\n}\n\n#[cfg(test)]\nmod tests {\n    use super::*;\n\n    #[test]\n    fn adds() {\n        assert_eq!(add(2, 2), 4);\n    }\n}\n' >"$d/src/lib.rs"
	record cargo compile_error "$d" "$v" 'cargo test --offline'

	# A lint gate: clippy's findings made errors by -D warnings.
	d=$(project cargo-clippy)
	mkdir -p "$d/src"
	printf '[package]\nname = "calc"\nversion = "0.1.0"\nedition = "2021"\n' >"$d/Cargo.toml"
	printf 'pub fn add(a: i32, b: i32) -> i32 {\n    return a + b;\n}\n\npub fn is_empty(v: &Vec<i32>) -> bool {\n    v.len() == 0\n}\n' >"$d/src/lib.rs"
	record cargo clippy_deny_warnings "$d" "$(cargo clippy --version)" 'cargo clippy --offline -- -D warnings'
fi

if on javac; then
	v=$(javac -version 2>&1)
	d=$(project javac-error)
	printf 'public class Calc {\n    static int twice(int a) {\n        return add(a, a);\n    }\n}\n' >"$d/Calc.java"
	record javac cannot_find_symbol "$d" "$v" 'javac -d out Calc.java'
fi

if on tap; then
	v=$(prove --version | head -n1)
	d=$(project tap-prove)
	mkdir -p "$d/t"
	printf '#!/bin/sh\necho "1..3"\necho "ok 1 - adds"\necho "not ok 2 - subtracts"\necho "#   Failed test at t/calc.t line 2."\necho "not ok 3 - divides # TODO not written yet"\n' >"$d/t/calc.t"
	chmod +x "$d/t/calc.t"
	record tap prove "$d" "$v" 'prove --exec sh t/'
	record tap prove_verbose "$d" "$v" 'prove -v --exec sh t/'
fi

if on agent; then
	# An agent CLI whose own installation is broken: the files the npm
	# package's launcher runs are gone.
	v=$(node --version)
	for c in claude:@anthropic-ai/claude-code/cli.js codex:@openai/codex/bin/codex.js gemini:@google/gemini-cli/dist/index.js \
		qwen:@qwen-code/qwen-code/cli-entry.js copilot:@github/copilot/npm-loader.js pi:@mariozechner/pi-coding-agent/dist/cli.js \
		claude-code-acp:@zed-industries/claude-code-acp/dist/index.js; do
		name=${c%%:*} pkg=${c#*:}
		d=$(project "agent-$name")
		mkdir -p "$d/lib/node_modules/${pkg%/*}"
		record agent "node_missing_$name" "$d" "$v" "node $d/lib/node_modules/$pkg"
	done
	# aider installed with pip, then its package removed: the launcher pip
	# wrote fails on its first import.
	v=$($py --version 2>&1)
	d=$(project agent-aider)
	cat >"$d/aider" <<PY
#!$py
# -*- coding: utf-8 -*-
import re
import sys
from aider.main import main
if __name__ == '__main__':
    sys.argv[0] = re.sub(r'(-script\.pyw|\.exe)?$', '', sys.argv[0])
    sys.exit(main())
PY
	chmod +x "$d/aider"
	record agent python_missing_aider "$d" "$v" "$d/aider --yes-always --message-file prompt.md"
	record agent python_m_aider_chat "$d" "$v" "$py -m aider_chat --yes-always"
fi
