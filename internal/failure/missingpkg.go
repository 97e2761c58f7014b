package failure

import (
	"regexp"
	"strings"

	"github.com/autobuild-sh/autobuild/internal/lazyre"
)

// A gate that fails because a third-party package is not installed
// (python's "No module named 'httpx'", node's "Cannot find module
// 'left-pad'") is dependency_missing: the environment lacks it, and no
// change to the code under test fixes that. A module that is a file of the
// project ("No module named 'calc'" from tests/test_calc.py, node's
// "Cannot find module './calc'") is the code's own fault, a typecheck_error
// as before: the signal is "a package, not a file of the project".

// missingPackage is a package the gate's output says is not installed.
type missingPackage struct {
	name string // as the tool names it: httpx, left-pad, @scope/pkg
	eco  string // "python" or "node"
}

var (
	pythonMissing = lazyre.New(`(?m)(?:ModuleNotFoundError|ImportError): No module named '([^']+)'`)
	// node (require and import), jest ("Cannot find module 'x' from 'y'"),
	// tsc (TS2307 "Cannot find module 'x' or its corresponding type
	// declarations") and node's ESM "Cannot find package 'x' imported from".
	nodeMissing = lazyre.New(`Cannot find (?:module|package) '([^']+)'`)
	// vite and vitest: Failed to resolve import "x" from "src/a.ts".
	viteMissing = lazyre.New(`Failed to resolve import "([^"]+)"`)
)

// findMissingPackage reads the first missing module the output names and
// says whether it is a package rather than a file of the project.
// filesChanged are the attempt's files, a further sign of what is the
// project's.
func findMissingPackage(output string, filesChanged []string) (missingPackage, bool) {
	if m := pythonMissing().FindStringSubmatch(output); m != nil {
		top, _, _ := strings.Cut(m[1], ".")
		if top == "" || pythonProjectModule(top, output, filesChanged) {
			return missingPackage{}, false
		}
		return missingPackage{name: top, eco: "python"}, true
	}
	for _, re := range []func() *regexp.Regexp{nodeMissing, viteMissing} {
		if m := re().FindStringSubmatch(output); m != nil {
			name := nodePackageName(m[1])
			if name == "" {
				return missingPackage{}, false
			}
			return missingPackage{name: name, eco: "node"}, true
		}
	}
	return missingPackage{}, false
}

// pythonProjectModule reports whether top is a module of the project: a
// file or folder of that name appears in the output's paths or among the
// files the attempt changed, or a test file is named for it (test_calc.py
// imports calc, which the agent was to write).
func pythonProjectModule(top string, output string, filesChanged []string) bool {
	q := regexp.QuoteMeta(top)
	re := regexp.MustCompile(`(?:^|[\s/'"(])(?:` + q + `(?:/|\.py\b)|test_` + q + `\.py\b|` + q + `_test\.py\b)`)
	if re.MatchString(output) {
		return true
	}
	for _, f := range filesChanged {
		if re.MatchString("/" + f) {
			return true
		}
	}
	return false
}

// nodePackageName is the package a module specifier names (its first
// segment, or two for a scoped one), or "" when the specifier is a file of
// the project: a relative or absolute path, a subpath import (#x), a path
// alias (@/x, ~/x), or one of node's own modules.
func nodePackageName(spec string) string {
	switch {
	case spec == "", strings.HasPrefix(spec, "."), strings.HasPrefix(spec, "/"), strings.HasPrefix(spec, "#"),
		strings.HasPrefix(spec, "~"), strings.HasPrefix(spec, "@/"), strings.HasPrefix(spec, "node:"),
		strings.Contains(spec, `\`), len(spec) > 1 && spec[1] == ':':
		return ""
	}
	parts := strings.Split(spec, "/")
	if strings.HasPrefix(spec, "@") {
		if len(parts) < 2 {
			return ""
		}
		return parts[0] + "/" + parts[1]
	}
	return parts[0]
}

// installCommand is how to install the package, for the report's fix.
func (p missingPackage) installCommand() string {
	if p.eco == "python" {
		return "install the Python package " + p.name + ": pip install " + p.name +
			" (or add it to the project's dependencies, in pyproject.toml or requirements.txt, and install them)"
	}
	return "install the npm package " + p.name + ": npm install " + p.name +
		" (or npm install, when package.json already lists it)"
}

// lintFindings matches a linter's own findings made errors: clippy's
// "= note: `-D clippy::x` implied by `-D warnings`" and rustc's
// "#[deny(...)]" notes. A lint gate whose output shows them failed on lints,
// even though cargo ends it with "could not compile".
var lintFindings = lazyre.New("(?m)^\\s*= note: (?:`-D [^`]+` implied by `-D warnings`|`#\\[deny\\([^)]*\\)\\]` on by default)|^\\s*= help: for further information visit https://rust-lang\\.github\\.io/rust-clippy/")

// rustCompileError is a compiler error with a code (error[E0425]), which no
// lint prints: code that does not compile.
var rustCompileError = lazyre.New(`\berror\[E\d{4}\]`)

// lintOnly reports whether output shows lint findings and no compile error.
func lintOnly(output string) bool {
	return lintFindings().MatchString(output) && !rustCompileError().MatchString(output)
}
