package gates

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/BurntSushi/toml"
)

// pyproject is the part of pyproject.toml that gates come from.
type pyproject struct {
	Project struct {
		Dependencies         []string            `toml:"dependencies"`
		OptionalDependencies map[string][]string `toml:"optional-dependencies"`
	} `toml:"project"`
	DependencyGroups map[string][]any `toml:"dependency-groups"`
	Tool             map[string]any   `toml:"tool"`
}

// pythonGates are the gates of a pyproject.toml project: pytest when it is
// configured or there is a tests directory, ruff (lint and format check)
// when it is configured or a dependency, mypy when it is configured. In a
// uv or Poetry project the tools run through it, since they live in the
// project's environment.
func pythonGates(dir string) []Gate {
	data, err := os.ReadFile(filepath.Join(dir, "pyproject.toml"))
	if err != nil {
		return nil
	}
	var py pyproject
	if _, err := toml.Decode(string(data), &py); err != nil {
		return nil
	}
	runner := ""
	switch {
	case exists(dir, "uv.lock"):
		runner = "uv"
	case exists(dir, "poetry.lock"):
		runner = "poetry"
	}
	var out []Gate
	add := func(kind, command string) {
		tool := strings.Fields(command)[0]
		if runner != "" {
			command, tool = runner+" run "+command, runner
		}
		out = append(out, Gate{Kind: kind, Command: command, Tool: tool})
	}
	deps := py.dependencies()
	if py.hasTool("mypy") {
		add("typecheck", "mypy .")
	}
	ruff := py.hasTool("ruff") || deps["ruff"] || exists(dir, "ruff.toml") || exists(dir, ".ruff.toml")
	if ruff {
		add("lint", "ruff check .")
		add("format", "ruff format --check .")
	}
	if py.hasTool("pytest") || isDir(dir, "tests") || isDir(dir, "test") || exists(dir, "pytest.ini") {
		add("test", "pytest")
	}
	return out
}

// hasTool reports whether pyproject.toml has a [tool.<name>] table (or a
// subtable such as [tool.pytest.ini_options]).
func (py pyproject) hasTool(name string) bool {
	_, ok := py.Tool[name]
	return ok
}

// dependencies returns the normalized names of every dependency the
// project declares: runtime, optional, dependency groups and Poetry's.
func (py pyproject) dependencies() map[string]bool {
	deps := map[string]bool{}
	addSpec := func(spec string) { deps[requirementName(spec)] = true }
	for _, d := range py.Project.Dependencies {
		addSpec(d)
	}
	for _, group := range py.Project.OptionalDependencies {
		for _, d := range group {
			addSpec(d)
		}
	}
	for _, group := range py.DependencyGroups {
		for _, d := range group {
			if s, ok := d.(string); ok {
				addSpec(s)
			}
		}
	}
	poetry, _ := py.Tool["poetry"].(map[string]any)
	addKeys := func(m any) {
		if t, ok := m.(map[string]any); ok {
			for k := range t {
				deps[strings.ToLower(k)] = true
			}
		}
	}
	addKeys(poetry["dependencies"])
	addKeys(poetry["dev-dependencies"])
	if groups, ok := poetry["group"].(map[string]any); ok {
		for _, g := range groups {
			if gt, ok := g.(map[string]any); ok {
				addKeys(gt["dependencies"])
			}
		}
	}
	return deps
}

// requirementName is the package name of a PEP 508 requirement
// ("ruff>=0.5; python_version>'3.8'" → "ruff"), lowercased.
func requirementName(spec string) string {
	spec = strings.TrimSpace(spec)
	end := strings.IndexFunc(spec, func(r rune) bool {
		return !(r == '-' || r == '_' || r == '.' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z')
	})
	if end >= 0 {
		spec = spec[:end]
	}
	return strings.ToLower(spec)
}
