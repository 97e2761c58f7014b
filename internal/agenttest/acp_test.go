package agenttest

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/agent"
	"github.com/autobuild-sh/autobuild/internal/agenttest/mockapi"
	"github.com/autobuild-sh/autobuild/internal/engine"
	"github.com/autobuild-sh/autobuild/internal/event"
	"github.com/autobuild-sh/autobuild/internal/failreport"
	"github.com/autobuild-sh/autobuild/internal/gittest"
	"github.com/autobuild-sh/autobuild/internal/plan"
	"github.com/autobuild-sh/autobuild/internal/schedule"
	"github.com/autobuild-sh/autobuild/internal/state"
)

// acpAgent is an agent run through the ACP adapter, pointed at srv: the
// preset name (qwen, opencode, copilot) or `acp:` with a command line whose
// program is an installed CLI.
func acpAgent(t *testing.T, spec string, srv *mockapi.Server) agent.Agent {
	t.Helper()
	a, err := agent.Resolve(spec, nil)
	require.NoError(t, err)
	require.True(t, a.ACP, spec)
	a.Args[0] = Require(t, a.Args[0])
	if srv.API() == mockapi.OpenAI {
		a.Env = append(a.Env, OpenAIEnv(t, srv, a.Name, Options{})...)
	} else {
		a.Env = append(a.Env, Env(t, srv, Options{Sandbox: true})...)
	}
	return a
}

// acpLog is the attempt's log.
func acpLog(t *testing.T, root string, ps *state.Phase, i int) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, ps.Attempts[i].LogPath))
	if err != nil {
		return ""
	}
	return string(b)
}

// acpCases are what every agent run through ACP is checked against.
type acpCase struct {
	name    string
	replies []mockapi.Reply
	check   func(t *testing.T, res string, ps *state.Phase)
}

func acpCases() []acpCase {
	failed := func(want failreport.Type) func(t *testing.T, res string, ps *state.Phase) {
		return func(t *testing.T, res string, ps *state.Phase) {
			require.NotEqual(t, string(state.RunComplete), res)
			require.NotEmpty(t, ps.Attempts)
			require.NotNil(t, ps.Attempts[0].Error, "%+v", ps.Attempts[0])
			require.Equal(t, want, ps.Attempts[0].Error.Type, "%+v", ps.Attempts[0].Error)
		}
	}
	return []acpCase{
		{"success", success(), func(t *testing.T, res string, ps *state.Phase) {
			require.Equal(t, string(state.RunComplete), res)
			require.Equal(t, "feat(hello): add hello.txt", strings.Split(ps.Commit.Message, "\n")[0])
		}},
		{"auth_401", times(8, mockapi.Fail(mockapi.Unauthorized)), failed(failreport.AgentSetup)},
		{"rate_429", times(12, mockapi.Fail(mockapi.RateLimited)), failed(failreport.RateLimited)},
		{"prompt_too_long", times(4, mockapi.Fail(mockapi.PromptTooLong)), failed(failreport.ContextExhausted)},
		{"no_result", []mockapi.Reply{mockapi.WriteFile("hello.txt", "hello\n"), mockapi.Text("I created hello.txt.")}, failed(failreport.ParseError)},
	}
}

// acpSink ends the run (as Ctrl-C does) once the first attempt failed, so
// a case checks how that attempt was classified without the retries and
// back-offs that follow; or, with onRequest, once the model got a request.
type acpSink struct {
	cancel context.CancelFunc
}

func (s acpSink) Emit(ev event.Event) {
	if ev.Kind == event.PhaseFailed || ev.Kind == event.PhaseWaiting {
		s.cancel()
	}
}

// runACPEngine runs helloPlan with a through the engine; the run is
// ended after the first failed attempt, or by interrupt when it is closed.
func runACPEngine(t *testing.T, a agent.Agent, interrupt <-chan struct{}) (engine.Result, *state.Phase) {
	t.Helper()
	repo := helloRepo(t)
	pl, err := plan.Parse(filepath.Join(repo, "plan.md"), []byte(helloPlan))
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		select {
		case <-interrupt:
			cancel()
		case <-ctx.Done():
		}
	}()
	c := newClock()
	res, err := engine.Run(ctx, engine.Config{Dir: repo, Plan: pl, CommitMode: "auto", Agents: []agent.Agent{a},
		Grace: time.Second, PhaseTimeout: 2 * time.Minute, Now: c.now, Sleep: c.sleep, NoJitter: true,
		WaitLimit: schedule.DefaultWaitLimit, Sink: acpSink{cancel}})
	require.NoError(t, err)
	ps, err := state.Open(repo).LoadPhase("1")
	require.NoError(t, err)
	return res, ps
}

// helloRepo is a fresh repository holding helloPlan.
func helloRepo(t *testing.T) string {
	t.Helper()
	return gittest.New(t, gittest.File("plan.md", helloPlan))
}

// processesWith lists the live processes whose environment holds kv: the
// agent's (its HOME is the test's own), to prove none is left.
func processesWith(kv string) []string {
	var out []string
	dirs, _ := os.ReadDir("/proc")
	for _, d := range dirs {
		if _, err := strconv.Atoi(d.Name()); err != nil {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", d.Name(), "environ"))
		if err != nil {
			continue
		}
		for _, e := range strings.Split(string(b), "\x00") {
			if e == kv {
				cmd, _ := os.ReadFile(filepath.Join("/proc", d.Name(), "cmdline"))
				out = append(out, d.Name()+" "+strings.ReplaceAll(string(cmd), "\x00", " "))
				break
			}
		}
	}
	return out
}

func homeOf(a agent.Agent) string {
	for _, kv := range a.Env {
		if strings.HasPrefix(kv, "HOME=") {
			return kv
		}
	}
	return ""
}

// ACPFixtureDir holds the agents' side of each recorded ACP conversation:
// testdata/agents/acp/<agent>/<case>.stream, replayed by internal/agent's
// tests.
var acpFixtureDir = filepath.Join(fixtureDir, "acp")

// recordACP keeps the first attempt's .stream as the case's fixture (with
// -record: go test ./internal/agenttest/ -run TestACPRealAgents -record).
func recordACP(t *testing.T, root string, ps *state.Phase, spec, name string) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, strings.TrimSuffix(ps.Attempts[0].LogPath, ".log")+".stream"))
	require.NoError(t, err)
	a, err := agent.Resolve(spec, nil)
	require.NoError(t, err)
	dir := filepath.Join(acpFixtureDir, a.Name)
	require.NoError(t, os.MkdirAll(dir, 0o755))
	// The agent's list of slash commands (qwen's is half a megabyte) says
	// nothing autobuild reads.
	var kept []string
	for _, l := range strings.SplitAfter(string(b), "\n") {
		if !strings.Contains(l, `"sessionUpdate":"available_commands_update"`) {
			kept = append(kept, l)
		}
	}
	require.NoError(t, os.WriteFile(filepath.Join(dir, name+".stream"), []byte(strings.Join(kept, "")), 0o644))
}

// allACPCases reports whether the whole real-agent matrix runs.
func allACPCases() bool { return os.Getenv("AUTOBUILD_ACP_CASES") == "all" || *record }

// acpAgents are the agents the real-CLI tests run through ACP, with the
// API each one's mock speaks.
var acpAgents = []struct {
	spec string
	api  mockapi.API
}{
	{"acp:gemini --acp", mockapi.Gemini},
	{"acp:claude-code-acp", mockapi.Claude},
	{"qwen", mockapi.OpenAI},
	{"opencode", mockapi.OpenAI},
	{"copilot", mockapi.OpenAI},
}

func TestACPRealAgents(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the real agent CLIs: skipped with -short")
	}
	// The whole matrix takes minutes with five CLIs starting (opencode
	// alone takes 10 to 50 s to start on a loaded machine): by default a
	// run checks each agent's success live, and the recorded conversations
	// of every case are replayed offline by internal/agent's tests (the
	// fake ACP agent covers Ctrl-C in internal/engine).
	// AUTOBUILD_ACP_CASES=all (and -record) runs every case and Ctrl-C.
	all := allACPCases()
	for _, ag := range acpAgents {
		for _, c := range acpCases() {
			if !all && c.name != "success" {
				continue
			}
			t.Run(ag.spec+"/"+c.name, func(t *testing.T) {
				t.Parallel()
				srv := mockapi.New(t, ag.api, c.replies...)
				a := acpAgent(t, ag.spec, srv)
				res, ps := runACPEngine(t, a, nil)
				defer func() {
					if t.Failed() || os.Getenv("ACP_TEST_LOGS") != "" {
						for i := range ps.Attempts {
							t.Logf("attempt %d log:\n%s", i+1, acpLog(t, res.Root, ps, i))
						}
					}
					if os.Getenv("ACP_TEST_LOGS") == "stream" {
						for i := range ps.Attempts {
							b, _ := os.ReadFile(filepath.Join(res.Root, strings.TrimSuffix(ps.Attempts[i].LogPath, ".log")+".stream"))
							t.Logf("attempt %d stream:\n%s", i+1, b)
						}
						for _, r := range srv.Requests() {
							t.Logf("request %s %s reply %d: %.3000s", r.Method, r.Path, r.Reply, r.Body)
							if os.Getenv("ACP_TEST_TOOLS") != "" {
								var q struct {
									Tools []struct {
										Function struct {
											Name       string
											Parameters any
										}
									}
								}
								_ = json.Unmarshal(r.Body, &q)
								for _, tl := range q.Tools {
									b, _ := json.Marshal(tl.Function.Parameters)
									t.Logf("TOOL %s %.300s", tl.Function.Name, b)
								}
							}
						}
					}
				}()
				c.check(t, string(res.Status), ps)
				require.Empty(t, processesWith(homeOf(a)), "no agent process is left")
				if *record {
					recordACP(t, res.Root, ps, ag.spec, c.name)
				}
			})
		}
		// Ctrl-C while the model is thinking: session/cancel, then the
		// process group is stopped; nothing is left.
		t.Run(ag.spec+"/interrupt", func(t *testing.T) {
			if !all {
				t.Skip("AUTOBUILD_ACP_CASES=all runs it")
			}
			t.Parallel()
			srv := mockapi.New(t, ag.api, mockapi.Text(SuccessText).After(time.Minute))
			a := acpAgent(t, ag.spec, srv)
			interrupt := make(chan struct{})
			go func() {
				for len(srv.ModelRequests()) == 0 {
					time.Sleep(50 * time.Millisecond)
				}
				close(interrupt)
			}()
			start := time.Now()
			res, ps := runACPEngine(t, a, interrupt)
			require.Equal(t, state.RunInterrupted, res.Status)
			require.Empty(t, processesWith(homeOf(a)), "no agent process is left")
			log := acpLog(t, res.Root, ps, 0)
			require.Contains(t, log, "sent session/cancel", log)
			t.Logf("interrupted after %s", time.Since(start).Round(time.Millisecond))
		})
	}
}
