package gates

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/plan"
)

// repo writes files (name → content) into a new temporary directory.
func repo(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		path := filepath.Join(dir, name)
		require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
		require.NoError(t, os.WriteFile(path, []byte(content), 0o644))
	}
	return dir
}

// installed is a lookPath that finds only the named tools.
func installed(tools ...string) func(string) (string, error) {
	return func(name string) (string, error) {
		for _, t := range tools {
			if t == name {
				return "/usr/bin/" + name, nil
			}
		}
		return "", errors.New("not found")
	}
}

// commands returns "kind: command" for each gate.
func commands(gs []Gate) []string {
	var out []string
	for _, g := range gs {
		out = append(out, g.Kind+": "+g.Command)
	}
	return out
}

func TestDetectEcosystems(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		files map[string]string
		want  []string
	}{
		{"empty", nil, nil},
		{"go", map[string]string{"go.mod": "module x\n"}, []string{
			"build: go build -o /dev/null ./...", "lint: go vet ./...",
			`format: test -z "$(gofmt -l . 2>&1 | tee /dev/stderr)"`, "test: go test ./...",
		}},
		{"rust", map[string]string{"Cargo.toml": "[package]\nname = \"x\"\n"}, []string{
			"build: cargo build", "lint: cargo clippy -- -D warnings", "format: cargo fmt --check", "test: cargo test",
		}},
		{"node with every script", map[string]string{"package.json": `{"scripts": {
			"build": "tsc -p .", "typecheck": "tsc --noEmit", "lint": "eslint .",
			"format:check": "prettier --check .", "format": "prettier --write .", "test": "vitest run", "dev": "vite"}}`},
			[]string{"build: npm run build", "typecheck: npm run typecheck", "lint: npm run lint",
				"format: npm run format:check", "test: npm test"}},
		{"node format script that checks", map[string]string{"package.json": `{"scripts": {"format": "prettier --check src"}}`},
			[]string{"format: npm run format"}},
		{"node format script that writes", map[string]string{"package.json": `{"scripts": {"format": "prettier --write src"}}`}, nil},
		{"node placeholder test script", map[string]string{"package.json": `{"scripts": {"test": "echo \"Error: no test specified\" && exit 1"}}`}, nil},
		{"node without scripts", map[string]string{"package.json": `{"name": "x"}`}, nil},
		{"node garbled package.json", map[string]string{"package.json": `{"scripts": `}, nil},
		{"python with pytest, ruff and mypy config", map[string]string{"pyproject.toml": `
[project]
name = "x"
[tool.pytest.ini_options]
addopts = "-q"
[tool.ruff]
line-length = 100
[tool.mypy]
strict = true
`}, []string{"typecheck: mypy .", "lint: ruff check .", "format: ruff format --check .", "test: pytest"}},
		{"python with ruff as a dependency and a tests dir", map[string]string{
			"pyproject.toml":  "[project]\nname = \"x\"\n[project.optional-dependencies]\ndev = [\"ruff>=0.5\", \"pytest\"]\n",
			"tests/test_x.py": "",
		}, []string{"lint: ruff check .", "format: ruff format --check .", "test: pytest"}},
		{"python with ruff in a dependency group", map[string]string{
			"pyproject.toml": "[project]\nname = \"x\"\n[dependency-groups]\ndev = [\"Ruff ; python_version > '3.8'\"]\n",
		}, []string{"lint: ruff check .", "format: ruff format --check ."}},
		{"python with poetry dev dependencies", map[string]string{
			"pyproject.toml": "[tool.poetry]\nname = \"x\"\n[tool.poetry.group.dev.dependencies]\nruff = \"^0.5\"\n",
			"poetry.lock":    "",
		}, []string{"lint: poetry run ruff check .", "format: poetry run ruff format --check ."}},
		{"python uv project", map[string]string{"pyproject.toml": "[project]\nname = \"x\"\n[tool.pytest]\n", "uv.lock": ""},
			[]string{"test: uv run pytest"}},
		{"python with nothing to run", map[string]string{"pyproject.toml": "[project]\nname = \"x\"\n"}, nil},
		{"several ecosystems", map[string]string{"go.mod": "module x\n", "package.json": `{"scripts": {"lint": "eslint ."}}`}, []string{
			"build: go build -o /dev/null ./...", "lint: go vet ./...", "lint: npm run lint",
			`format: test -z "$(gofmt -l . 2>&1 | tee /dev/stderr)"`, "test: go test ./...",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got := Resolve(nil, nil, repo(t, tt.files), installed())
			require.Equal(t, tt.want, commands(got))
			for _, g := range got {
				require.False(t, g.Declared)
				require.NotEmpty(t, g.Tool)
			}
		})
	}
}

func TestPackageManagerFromLockfile(t *testing.T) {
	t.Parallel()
	pkg := `{"scripts": {"build": "tsc", "test": "jest"}}`
	tests := []struct {
		lockfile, field string
		want            []string
	}{
		{"", "", []string{"build: npm run build", "test: npm test"}},
		{"package-lock.json", "", []string{"build: npm run build", "test: npm test"}},
		{"pnpm-lock.yaml", "", []string{"build: pnpm run build", "test: pnpm test"}},
		{"yarn.lock", "", []string{"build: yarn run build", "test: yarn test"}},
		{"bun.lockb", "", []string{"build: bun run build", "test: bun run test"}},
		{"bun.lock", "", []string{"build: bun run build", "test: bun run test"}},
		{"", "pnpm@9.1.0", []string{"build: pnpm run build", "test: pnpm test"}},
		{"yarn.lock", "pnpm@9.1.0", []string{"build: yarn run build", "test: yarn test"}},
	}
	for _, tt := range tests {
		t.Run(tt.lockfile+tt.field, func(t *testing.T) {
			t.Parallel()
			files := map[string]string{"package.json": pkg}
			if tt.field != "" {
				files["package.json"] = `{"packageManager": "` + tt.field + `", "scripts": {"build": "tsc", "test": "jest"}}`
			}
			if tt.lockfile != "" {
				files[tt.lockfile] = ""
			}
			got := Resolve(nil, nil, repo(t, files), installed())
			require.Equal(t, tt.want, commands(got))
			require.Equal(t, got[0].Tool, got[1].Tool)
		})
	}
}

func TestMissingTools(t *testing.T) {
	t.Parallel()
	dir := repo(t, map[string]string{"go.mod": "module x\n", "Cargo.toml": "[package]\n"})
	got := Resolve(nil, nil, dir, installed("go", "cargo", "cargo-fmt"))
	missing := map[string]bool{}
	for _, g := range got {
		missing[g.Command] = g.ToolMissing
	}
	require.Equal(t, map[string]bool{
		"go build -o /dev/null ./...": false, "go vet ./...": false, `test -z "$(gofmt -l . 2>&1 | tee /dev/stderr)"`: true,
		"go test ./...": false, "cargo build": false, "cargo clippy -- -D warnings": true,
		"cargo fmt --check": false, "cargo test": false,
	}, missing)

	declared := Resolve([]plan.Gate{
		{Kind: "test", Command: "pytest -q"},
		{Kind: "lint", Command: "cd web && npm run lint"},
		{Kind: "build", Command: "./scripts/build.sh"},
		{Kind: "format", Command: `test -z "$(gofmt -l .)"`},
	}, nil, dir, installed("npm"))
	require.Equal(t, []Gate{
		{Kind: "build", Command: "./scripts/build.sh", Declared: true, Tool: "./scripts/build.sh"},
		{Kind: "lint", Command: "cd web && npm run lint", Declared: true, Tool: "npm"},
		{Kind: "format", Command: `test -z "$(gofmt -l .)"`, Declared: true, Tool: "gofmt", ToolMissing: true},
		{Kind: "test", Command: "pytest -q", Declared: true, Tool: "pytest", ToolMissing: true},
	}, declared)
}

func TestResolvePrecedence(t *testing.T) {
	t.Parallel()
	dir := repo(t, map[string]string{"go.mod": "module x\n"})
	planGates := []plan.Gate{{Kind: "test", Command: "make test", Line: 40}, {Kind: "build", Command: "make", Line: 41}}
	configGates := []plan.Gate{{Kind: "test", Command: "go test -race ./..."}}
	all := installed("make", "go", "gofmt")

	got := Resolve(planGates, configGates, dir, all)
	require.Equal(t, []string{"build: make", "test: make test"}, commands(got), "the plan's gates win, sorted by kind")
	require.True(t, got[0].Declared)

	got = Resolve(nil, configGates, dir, all)
	require.Equal(t, []string{"test: go test -race ./..."}, commands(got), "then the config's")
	require.True(t, got[0].Declared)

	got = Resolve(nil, nil, dir, all)
	require.Len(t, got, 4, "then detection")
	require.False(t, got[0].Declared)
}

func TestResolveKeepsTheOrderOfOneKind(t *testing.T) {
	t.Parallel()
	got := Resolve([]plan.Gate{
		{Kind: "test", Command: "go test ./a"}, {Kind: "lint", Command: "golangci-lint run"},
		{Kind: "test", Command: "go test ./b"}, {Kind: "build", Command: "go build ./..."},
		{Kind: "typecheck", Command: "tsc --noEmit"}, {Kind: "format", Command: "gofmt -l ."},
	}, nil, t.TempDir(), installed())
	require.Equal(t, []string{
		"build: go build ./...", "typecheck: tsc --noEmit", "lint: golangci-lint run",
		"format: gofmt -l .", "test: go test ./a", "test: go test ./b",
	}, commands(got))
}

func TestDetectUsesPath(t *testing.T) {
	t.Parallel()
	// Detect looks tools up on the real PATH: the Go toolchain running this
	// test is there.
	got := Detect(repo(t, map[string]string{"go.mod": "module x\n"}))
	require.Len(t, got, 4)
	require.Equal(t, "go", got[0].Tool)
}

func TestMissingLooksAtPathNow(t *testing.T) {
	t.Parallel()
	require.False(t, Missing("sh"))
	require.True(t, Missing("autobuild-no-such-tool"))
	require.False(t, Missing("cd"), "a shell builtin is never missing")
	require.False(t, Missing("./scripts/check.sh"), "a path is the phase's business")
}

// The plan's gates win over autobuild.toml's; with neither, the run
// detects them.
func TestDeclaredSaysWhereTheGatesComeFrom(t *testing.T) {
	fromPlan := []plan.Gate{{Kind: "test", Command: "make test"}}
	fromToml := []plan.Gate{{Kind: "lint", Command: "make lint"}}
	gs, from := Declared(fromPlan, fromToml)
	require.Equal(t, fromPlan, gs)
	require.Equal(t, FromPlan, from)
	gs, from = Declared(nil, fromToml)
	require.Equal(t, fromToml, gs)
	require.Equal(t, FromConfig, from)
	gs, from = Declared(nil, nil)
	require.Empty(t, gs)
	require.Equal(t, FromDetected, from)
}
