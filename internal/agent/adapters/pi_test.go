package adapters

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/agent"
	"github.com/autobuild-sh/autobuild/internal/failreport"
)

// pi's recorded streams (testdata/agents/pi, recorded by
// internal/agenttest's TestPiThroughTheEngine -record): the result object
// from its last assistant message, its tool calls, usage, and its API
// errors (it exits 0 after one) classified from their status.
func TestPiRecordedStreams(t *testing.T) {
	dir := filepath.Join("..", "..", "..", "testdata", "agents", "pi")
	want := map[string]failreport.Type{"auth_401": failreport.AgentSetup, "rate_429": failreport.RateLimited, "prompt_too_long": failreport.ContextExhausted}
	for _, name := range []string{"success", "no_result", "auth_401", "rate_429", "prompt_too_long"} {
		t.Run(name, func(t *testing.T) {
			b, err := os.ReadFile(filepath.Join(dir, name+".stdout"))
			require.NoError(t, err)
			a, err := agent.Resolve("pi", nil)
			require.NoError(t, err)
			p := For(a).NewParser("Create hello.txt.", "/nonexistent")
			var notes []agent.Note
			for _, l := range strings.Split(string(b), "\n") {
				notes = append(notes, p.Stdout(l)...)
			}
			out := p.Finish(0)
			res, perr := agent.ParseResult(out.Final)
			switch name {
			case "success":
				require.NoError(t, perr, out.Final)
				assert.Equal(t, "complete", res.Status)
				assert.Nil(t, out.Signal)
				require.NotEmpty(t, notes)
				assert.Equal(t, "Write", notes[0].Tool)
				assert.NotEmpty(t, out.Session)
			case "no_result":
				assert.ErrorIs(t, perr, agent.ErrNoResult)
				assert.Nil(t, out.Signal)
			default:
				require.NotNil(t, out.Signal, out.Said)
				assert.Equal(t, want[name], out.Signal.Type, out.Signal.Message)
				assert.NotEmpty(t, out.Said)
			}
		})
	}
}

func TestPiPreflight(t *testing.T) {
	a, err := agent.Resolve("pi --model x", nil)
	require.NoError(t, err)
	assert.Equal(t, []string{"pi", "--mode", "json", "--model", "x"}, a.Args)
	assert.False(t, a.ACP)
	sys := func(env map[string]string) func(agent.Agent) agent.System {
		return func(agent.Agent) agent.System {
			return agent.System{Getenv: func(k string) string { return env[k] }, Home: "/nonexistent",
				Exists: func(string) bool { return false }, ReadFile: func(string) ([]byte, error) { return nil, os.ErrNotExist }}
		}
	}
	found := func(string) (string, error) { return "/bin/pi", nil }
	probs, err := Preflight([]agent.Agent{a}, sys(nil), found)
	require.NoError(t, err)
	require.Len(t, probs, 1)
	assert.Contains(t, probs[0].Problem, "pi is not logged in")
	probs, _ = Preflight([]agent.Agent{a}, sys(map[string]string{"ANTHROPIC_API_KEY": "k"}), found)
	assert.Empty(t, probs)
	probs, _ = Preflight([]agent.Agent{a}, sys(nil), func(string) (string, error) { return "", os.ErrNotExist })
	require.Len(t, probs, 1)
	assert.Contains(t, probs[0].Fix, "@mariozechner/pi-coding-agent")
}
