// Package demo builds the sample project of `autobuild demo`: a git
// repository holding a small Go module, a six-phase plan with real quality
// gates (go build, gofmt, go test), and a scenario for the simulated agent in
// which phase 2B's first attempt breaks the tests and its retry fixes them.
package demo

import (
	"embed"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/autobuild-sh/autobuild/internal/gitenv"
)

//go:embed files
var files embed.FS

// Project is a demo set up on disk.
type Project struct {
	// Repo is the sample repository; Plan its plan (relative to Repo);
	// Scenario the simulated agent's script (outside the repository).
	Repo, Plan, Scenario string
}

// Setup creates the demo under dir (which must exist): dir/calc is the
// repository with its first commit, dir/scenario.json the agent's script.
func Setup(dir string, halt bool) (Project, error) {
	p := Project{Repo: filepath.Join(dir, "calc"), Plan: "plan.md", Scenario: filepath.Join(dir, "scenario.json")}
	initial := map[string]string{
		"go.mod":           "go.mod.txt",
		"calc/doc.go":      "doc.go.txt",
		"calc/env_test.go": "env_test.go.txt",
		"plan.md":          "plan.md",
		"README.md":        "",
		".gitignore":       "",
		"autobuild.toml":   "",
	}
	for dst, src := range initial {
		content := ""
		switch dst {
		case "README.md":
			content = "# calc\n\nA calculator built by `autobuild demo`. The plan is plan.md.\n"
		case ".gitignore":
			content = "*.test\n*.out\n.env\n"
		case "autobuild.toml":
			content = autobuildToml
		default:
			content = mustRead(src)
		}
		if err := write(filepath.Join(p.Repo, dst), content); err != nil {
			return p, err
		}
	}
	for _, args := range [][]string{
		{"init", "-q", "-b", "main"},
		{"add", "-A"},
		{"-c", "user.name=autobuild demo", "-c", "user.email=demo@autobuild.invalid", "commit", "-q", "-m", "chore: start the calculator with its plan"},
	} {
		cmd := exec.Command("git", args...)
		cmd.Dir = p.Repo
		cmd.Env = gitenv.WithoutLocation(os.Environ()) // the demo's repository, not a parent git's
		if out, err := cmd.CombinedOutput(); err != nil {
			return p, fmt.Errorf("git %s: %w: %s", strings.Join(args, " "), err, out)
		}
	}
	// Commits made by the run need an identity even on a machine without a
	// global git config.
	for _, kv := range [][2]string{{"user.name", "autobuild demo"}, {"user.email", "demo@autobuild.invalid"}} {
		cmd := exec.Command("git", "config", kv[0], kv[1])
		cmd.Dir = p.Repo
		cmd.Env = gitenv.WithoutLocation(os.Environ())
		if out, err := cmd.CombinedOutput(); err != nil {
			return p, fmt.Errorf("git config: %w: %s", err, out)
		}
	}
	// Ignored, as a .env is: each phase's worktree gets it from
	// autobuild.toml's [worktree] copy, and the tests need it.
	if err := write(filepath.Join(p.Repo, ".env"), "CALC_PRECISION=2\n"); err != nil {
		return p, err
	}
	data, err := json.MarshalIndent(Scenario(halt), "", "  ")
	if err != nil {
		return p, err
	}
	if err := write(p.Scenario, string(data)+"\n"); err != nil {
		return p, err
	}
	// The fix a person would write for the halting variant.
	return p, write(filepath.Join(dir, "fix", "format.go"), mustRead("format.go.txt"))
}

// autobuildToml is the demo's autobuild.toml: the ignored .env its tests
// read goes into every phase's worktree.
const autobuildToml = `# Each phase's worktree holds only what git tracks; the tests also read
# the ignored .env, which autobuild brings in before the agent starts.
[worktree]
copy = [".env"]
`

func write(path, content string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, []byte(content), 0o644)
}

func mustRead(name string) string {
	b, err := files.ReadFile("files/" + name)
	if err != nil {
		panic(fmt.Sprintf("demo file %s is not embedded: %v", name, err)) // a build defect, not user input
	}
	return string(b)
}
