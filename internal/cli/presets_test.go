package cli

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/agent"
	"github.com/autobuild-sh/autobuild/internal/agent/adapters"
	"github.com/autobuild-sh/autobuild/internal/agent/preset"
	"github.com/autobuild-sh/autobuild/internal/config"
	"github.com/autobuild-sh/autobuild/internal/failure"
)

// TestPresetsAreConsistent walks the preset table (package preset) and
// checks that every place that knows a preset agrees with its row: a new
// preset is one row, one adapter and one fixture folder, and this test
// names whichever of them is missing.
func TestPresetsAreConsistent(t *testing.T) {
	t.Parallel()
	root := filepath.Join("..", "..")
	pins := npmPins(t, filepath.Join(root, "agents", "package.json"))
	installed := installScriptBins(t, filepath.Join(root, "scripts", "install-agent-clis.sh"))

	cmd := &cobra.Command{}
	(&runOptions{}).register(cmd)
	help := cmd.Flags().Lookup("agent").Usage
	_, steerHelp, _ := strings.Cut(newSteer(Streams{}).Long, "can go\non (")
	steerHelp, _, _ = strings.Cut(steerHelp, ")")
	resumable := strings.Split(steerHelp, ", ")

	empty := agent.System{Getenv: func(string) string { return "" }, Home: "/nonexistent", Dir: "/nonexistent", UID: 1000,
		Exists: func(string) bool { return false }, ReadFile: func(string) ([]byte, error) { return nil, os.ErrNotExist }}
	missing := func(string) (string, error) { return "", errors.New("not on PATH") }

	for _, p := range preset.All() {
		t.Run(p.Name, func(t *testing.T) {
			t.Parallel()
			require.True(t, p.Args != nil || p.ACP != nil, "a preset runs its CLI one way or the other")
			assert.Contains(t, help, p.Name, "--agent's help names it")

			// The agent resolves to the preset, with an adapter.
			a, err := agent.Resolve(p.Name, nil)
			require.NoError(t, err)
			assert.Equal(t, p.Name, a.Preset)
			ad := adapters.For(a)
			require.NotNil(t, ad, "an adapter (internal/agent/adapters) for %s", p.Name)
			assert.Equal(t, p.ACPOnly(), a.ACP)
			if !a.ACP {
				assert.Equal(t, p.Install.Program, ad.Name(), "the adapter's program is the row's")
				assert.Equal(t, p.Resumable, adapters.CanResume(a), "Resumable and the adapter's ResumeArgs agree")
				assert.Equal(t, p.Resumable, slices.Contains(resumable, p.Name), "steer's help names the presets that continue their session")
			}

			// Its login check: every CLI is checked before the run but
			// aider, whose keys come from too many places (README,
			// "Before the run"); claude's login is in the keychain off
			// Linux.
			if p.Name != "aider" && (p.Name != "claude" || runtime.GOOS == "linux") {
				assert.NotEmpty(t, ad.Check(empty), "%s's login check finds no login on an empty machine", p.Name)
			}
			// Not installed: Preflight names the row's install command.
			probs, err := adapters.Preflight([]agent.Agent{a}, func(agent.Agent) agent.System { return empty }, missing)
			require.NoError(t, err)
			require.NotEmpty(t, probs)
			want := p.Install.Command
			if a.ACP {
				want = p.ACPProgram().Command
			}
			assert.Contains(t, probs[0].Fix, want)

			// Its ACP mode, when it has one: an adapter with a login check.
			if p.ACP != nil {
				via, err := a.ViaACP()
				require.NoError(t, err)
				acp := adapters.ACPAdapterFor(via)
				require.NotNil(t, acp)
				assert.NotEmpty(t, acp.Check(empty), "the ACP mode of %s has a login check (adapters/acp_presets.go)", p.Name)
				assert.True(t, adapters.CanResume(via), "an ACP agent continues with session/load")
			} else {
				_, err := a.ViaACP()
				assert.Error(t, err)
			}

			// config accepts [agents.NAME], and acp = true only for a
			// preset with an ACP mode.
			_, err = config.Parse("[agents."+p.Name+"]\nargs = [\"--x\"]\n", "autobuild.toml")
			assert.NoError(t, err, "config accepts [agents.%s]", p.Name)
			_, err = config.Parse("[agents."+p.Name+"]\nacp = true\n", "autobuild.toml")
			assert.Equal(t, p.ACP != nil, err == nil, "acp = true for %s: %v", p.Name, err)

			// failure names how to install each of its programs, and
			// recognizes their installations.
			ins := []preset.Install{p.Install}
			if p.ACPInstall != nil {
				ins = append(ins, *p.ACPInstall)
			}
			for _, in := range ins {
				assert.Contains(t, failure.InstallHint(in.Program), in.Command, "failure's install hint for %s", in.Program)
				assert.NotEmpty(t, in.Markers, "markers of %s's installation", in.Program)
				assert.NotEmpty(t, in.Title)
			}

			// A CLI from npm is pinned for the end-to-end tests and
			// installed by the script, and has a fixture folder recorded
			// against the mock servers; so does its ACP program when its
			// ACP mode has fixtures.
			if p.Install.Package == "" {
				return // aider, from pip: no real-CLI tests
			}
			fixtures := filepath.Join(root, "testdata", "agents", p.Name)
			if p.ACPOnly() {
				fixtures = filepath.Join(root, "testdata", "agents", "acp", p.Name)
			}
			assert.DirExists(t, fixtures, "the fixture folder of %s (record with internal/agenttest)", p.Name)
			assert.Contains(t, pins, p.Install.Package, "agents/package.json pins %s", p.Install.Package)
			assert.Contains(t, installed, p.Install.Program, "scripts/install-agent-clis.sh checks %s", p.Install.Program)
			if p.ACPInstall != nil {
				if _, err := os.Stat(filepath.Join(root, "testdata", "agents", "acp", p.Name)); err == nil {
					assert.Contains(t, pins, p.ACPInstall.Package, "agents/package.json pins %s", p.ACPInstall.Package)
					assert.Contains(t, installed, p.ACPInstall.Program)
				}
			}
		})
	}
}

// TestPresetTableIsSound checks the table itself: names are unique and
// lower case, and no two presets share a program.
func TestPresetTableIsSound(t *testing.T) {
	t.Parallel()
	names := preset.Names()
	require.NotEmpty(t, names)
	seen := map[string]bool{}
	for _, n := range names {
		assert.Equal(t, strings.ToLower(n), n)
		assert.False(t, seen[n], "%s twice", n)
		seen[n] = true
	}
	progs := map[string]bool{}
	for _, in := range preset.Programs() {
		assert.False(t, progs[in.Program], "two presets install %s", in.Program)
		progs[in.Program] = true
	}
	for _, n := range preset.ACPNames() {
		p, ok := preset.Named(n)
		require.True(t, ok)
		q, ok := preset.OfACPProgram(p.ACP)
		require.True(t, ok)
		assert.Equal(t, n, q.Name, "acp:%s is %s", p.ACP[0], n)
	}
}

// npmPins are the packages agents/package.json pins.
func npmPins(t *testing.T, path string) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	var pkg struct {
		Dependencies map[string]string `json:"dependencies"`
	}
	require.NoError(t, json.Unmarshal(b, &pkg))
	var out []string
	for name := range pkg.Dependencies {
		out = append(out, name)
	}
	slices.Sort(out)
	return out
}

// installScriptBins are the programs the install script checks it
// installed (its bins="…" line).
func installScriptBins(t *testing.T, path string) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, "bins="); ok {
			return strings.Fields(strings.Trim(v, `"`))
		}
	}
	t.Fatalf("no bins= line in %s", path)
	return nil
}
