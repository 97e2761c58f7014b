package gates

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
)

// packageJSON is the part of package.json that gates come from.
type packageJSON struct {
	Scripts        map[string]string `json:"scripts"`
	PackageManager string            `json:"packageManager"`
}

// nodeGates are the gates of package.json's scripts, run with the package
// manager its lockfile names. Only scripts that exist become gates; a
// "format" script counts only when it checks rather than rewrites.
func nodeGates(dir string) []Gate {
	data, err := os.ReadFile(filepath.Join(dir, "package.json"))
	if err != nil {
		return nil
	}
	var pkg packageJSON
	if json.Unmarshal(data, &pkg) != nil {
		return nil
	}
	pm := packageManager(dir, pkg.PackageManager)
	run := func(script string) string { return pm + " run " + script }
	var out []Gate
	add := func(kind, command string) { out = append(out, Gate{Kind: kind, Command: command, Tool: pm}) }
	if _, ok := pkg.Scripts["build"]; ok {
		add("build", run("build"))
	}
	if s := firstScript(pkg.Scripts, "typecheck", "type-check", "check-types", "tsc"); s != "" {
		add("typecheck", run(s))
	}
	if _, ok := pkg.Scripts["lint"]; ok {
		add("lint", run("lint"))
	}
	if s := firstScript(pkg.Scripts, "format:check", "format-check", "fmt:check", "prettier:check"); s != "" {
		add("format", run(s))
	} else if isFormatCheck(pkg.Scripts["format"]) {
		add("format", run("format"))
	}
	if t, ok := pkg.Scripts["test"]; ok && !strings.Contains(t, "no test specified") {
		add("test", testCommand(pm))
	}
	return out
}

// packageManager picks the package manager from the lockfile, else from
// package.json's "packageManager" field (corepack), else npm.
func packageManager(dir, field string) string {
	switch {
	case exists(dir, "pnpm-lock.yaml"):
		return "pnpm"
	case exists(dir, "yarn.lock"):
		return "yarn"
	case exists(dir, "bun.lockb"), exists(dir, "bun.lock"):
		return "bun"
	case exists(dir, "package-lock.json"), exists(dir, "npm-shrinkwrap.json"):
		return "npm"
	}
	name, _, _ := strings.Cut(field, "@")
	switch name {
	case "pnpm", "yarn", "bun", "npm":
		return name
	}
	return "npm"
}

// testCommand runs the "test" script. "bun test" would run bun's own test
// runner instead of the script, so bun gets "bun run test".
func testCommand(pm string) string {
	if pm == "bun" {
		return "bun run test"
	}
	return pm + " test"
}

// firstScript returns the first of names that is a script, or "".
func firstScript(scripts map[string]string, names ...string) string {
	for _, n := range names {
		if _, ok := scripts[n]; ok {
			return n
		}
	}
	return ""
}

// isFormatCheck reports whether a "format" script only checks (prettier
// --check or --list-different, biome without --write, ...). A script that
// rewrites files would make the gate pass while changing the phase's work.
func isFormatCheck(script string) bool {
	if script == "" {
		return false
	}
	check, write := false, false
	for _, w := range strings.Fields(script) {
		switch w {
		case "--check", "-c", "--list-different", "-l", "--verify-no-changes":
			check = true
		case "--write", "-w", "--fix", "--apply":
			write = true
		}
	}
	return check && !write
}
