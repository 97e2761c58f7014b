package adapters

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/agent"
	"github.com/autobuild-sh/autobuild/internal/failreport"
)

// acpFixtureDir holds the agents' side of real ACP conversations recorded
// against the mock model servers (internal/agenttest, -record).
var acpFixtureDir = filepath.Join("..", "..", "..", "testdata", "agents", "acp")

// replayACP plays a recorded agent side to a session: notifications and
// the agent's own requests as they come, each response once the client
// has sent the request it answers (the client numbers its requests as it
// did when recorded).
func replayACP(t *testing.T, stream []byte, s *ACPSession) {
	t.Helper()
	toAgentR, toAgentW := io.Pipe()
	fromAgentR, fromAgentW := io.Pipe()
	var mu sync.Mutex
	cond := sync.NewCond(&mu)
	sent := map[string]bool{}
	closed := false
	go func() {
		sc := bufio.NewScanner(toAgentR)
		sc.Buffer(make([]byte, 1<<20), 16<<20)
		for sc.Scan() {
			var m struct {
				ID     json.RawMessage `json:"id"`
				Method string          `json:"method"`
			}
			if json.Unmarshal(sc.Bytes(), &m) == nil && m.Method != "" && m.ID != nil {
				mu.Lock()
				sent[string(m.ID)] = true
				cond.Broadcast()
				mu.Unlock()
			}
		}
		mu.Lock()
		closed = true
		cond.Broadcast()
		mu.Unlock()
	}()
	go func() {
		defer fromAgentW.Close()
		for _, line := range strings.Split(string(stream), "\n") {
			if strings.TrimSpace(line) == "" {
				continue
			}
			var m struct {
				ID     json.RawMessage `json:"id"`
				Method string          `json:"method"`
			}
			_ = json.Unmarshal([]byte(line), &m)
			if m.Method == "" && m.ID != nil {
				mu.Lock()
				for !sent[string(m.ID)] && !closed {
					cond.Wait()
				}
				mu.Unlock()
			}
			if _, err := io.WriteString(fromAgentW, line+"\n"); err != nil {
				return
			}
		}
	}()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	s.Run(ctx, toAgentW, fromAgentR)
	toAgentW.Close()
}

// Each agent's recorded conversations, replayed: its result object read
// from its final message, and its failures classified from its own
// structured errors.
func TestACPRecordedConversations(t *testing.T) {
	agents, err := os.ReadDir(acpFixtureDir)
	if os.IsNotExist(err) {
		t.Skip("no recorded ACP conversations")
	}
	require.NoError(t, err)
	want := map[string]failreport.Type{"auth_401": failreport.AgentSetup, "rate_429": failreport.RateLimited, "prompt_too_long": failreport.ContextExhausted}
	seen := 0
	for _, ag := range agents {
		files, err := filepath.Glob(filepath.Join(acpFixtureDir, ag.Name(), "*.stream"))
		require.NoError(t, err)
		for _, f := range files {
			name := strings.TrimSuffix(filepath.Base(f), ".stream")
			t.Run(ag.Name()+"/"+name, func(t *testing.T) {
				b, err := os.ReadFile(f)
				require.NoError(t, err)
				var notes []agent.Note
				s := NewACPSession(ACPConfig{Dir: t.TempDir(), Prompt: "p", Agent: ag.Name(),
					Show: func(n agent.Note) { notes = append(notes, n) }})
				if p, ok := acpChecks[ag.Name()]; ok {
					s.cfg.Fixes = p.fixes
				}
				replayACP(t, b, s)
				out, code := s.Outcome(0)
				res, perr := agent.ParseResult(out.Final)
				switch name {
				case "success":
					require.Equal(t, 0, code, out.Said)
					require.NoError(t, perr, out.Final)
					assert.Equal(t, "complete", res.Status)
					tools := 0
					for _, n := range notes {
						if n.Tool != "" {
							tools++
						}
					}
					assert.Positive(t, tools, "the write is shown as a tool line")
				case "no_result":
					assert.Equal(t, 0, code, out.Said)
					assert.ErrorIs(t, perr, agent.ErrNoResult)
				default:
					typ, ok := want[name]
					if !ok {
						t.Skipf("no expectation for %s", name)
					}
					assert.Equal(t, 1, code)
					require.NotNil(t, out.Signal, "said: %s", out.Said)
					assert.Equal(t, typ, out.Signal.Type, out.Signal.Message)
					if typ == failreport.AgentSetup {
						assert.NotEmpty(t, out.Signal.Fix)
					}
				}
			})
			seen++
		}
	}
	require.Positive(t, seen)
}
