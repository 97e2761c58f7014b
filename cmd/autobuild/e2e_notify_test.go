package main

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/failreport"
	"github.com/autobuild-sh/autobuild/internal/state"
)

const budgetPlan = "# Budget\n\n| Phase | Name | Depends On |\n|---|---|---|\n| 1 | One | - |\n| 2 | Two | 1 |\n| 3 | Three | 2 |\n\n" +
	"## Phase 1: One\n\n- [ ] write one.txt\n\n## Phase 2: Two\n\n- [ ] write two.txt\n\n## Phase 3: Three\n\n- [ ] write three.txt\n\n" +
	"## Quality Gates\n\n- test: `true`\n"

// costScenario is a sim scenario in which every phase writes its file and
// reports it spent $2.
func costScenario(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "scenario.json")
	attempt := func(file string) string {
		return `[{"steps": [{"write": "` + file + `", "content": "x\n"}], "result": {"status": "complete", "commit_message": "feat: ` + file +
			`", "usage": {"input_tokens": 1000, "output_tokens": 100, "cost_usd": 2}}}]`
	}
	writeFile(t, path, `{"phases": {"1": `+attempt("one.txt")+`, "2": `+attempt("two.txt")+`, "3": `+attempt("three.txt")+`}}`)
	return path
}

// hookReceiver is a webhook on 127.0.0.1 that keeps the documents it gets.
type hookReceiver struct {
	*httptest.Server
	mu   sync.Mutex
	docs []map[string]any
}

func newHookReceiver(t *testing.T) *hookReceiver {
	h := &hookReceiver{}
	h.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		var d map[string]any
		if err := json.Unmarshal(b, &d); err != nil {
			w.WriteHeader(http.StatusBadRequest)
			return
		}
		h.mu.Lock()
		h.docs = append(h.docs, d)
		h.mu.Unlock()
	}))
	t.Cleanup(h.Close)
	return h
}

func (h *hookReceiver) take() []map[string]any {
	h.mu.Lock()
	defer h.mu.Unlock()
	out := h.docs
	h.docs = nil
	return out
}

func notifications(docs []map[string]any) []string {
	var out []string
	for _, d := range docs {
		out = append(out, d["notification"].(string))
	}
	return out
}

// A run whose agents report $2 a phase under --max-cost 3: phase 3 never
// starts, the run halts with budget_exceeded, the webhook and the command
// get one budget_reached and one halted document, the summary offers the
// resume command with a higher budget, and the webhook's secret is in no
// output and no state file. The resume with that budget goes on to the
// end, and the webhook gets one complete document.
func TestBudgetHaltNotifiesAndResumeWithAHigherBudgetGoesOn(t *testing.T) {
	t.Parallel()
	repo := newRepo(t, budgetPlan)
	hook := newHookReceiver(t)
	secretURL := hook.URL + "/services/T0/B0/s3cr3t-token"
	docFile := filepath.Join(t.TempDir(), "docs.jsonl")
	scenario := costScenario(t)
	r := autobuild(t, repo, "plan.md", "--no-tui", "--commit=auto", "--agent", "sim", "--scenario", scenario,
		"--max-parallel", "1", "--max-cost", "3", "--notify", "webhook="+secretURL, "--notify", "command=cat >> "+docFile)
	require.Equal(t, 1, r.code, r.String())
	require.Contains(t, r.stdout, "BUDGET REACHED - the run spent $4.00, reaching its budget of $3.00 (--max-cost)")
	require.Contains(t, r.stdout, "Phase 1 .")
	require.Contains(t, r.stdout, "--max-cost 6 --resume", "the resume command raises the budget")
	require.Contains(t, r.stderr, "notifications go to webhook "+hook.URL+"/…")
	run := loadRun(t, repo)
	require.Equal(t, state.RunHalted, run.Status)
	require.Equal(t, failreport.BudgetExceeded, run.HaltType)
	require.Equal(t, 3.0, run.MaxCostUSD)
	require.Len(t, loadPhase(t, repo, "3").Attempts, 0, "no new attempt started")
	require.Equal(t, state.PhasePending, loadPhase(t, repo, "3").Status)

	docs := hook.take()
	require.Equal(t, []string{"budget_reached", "halted"}, notifications(docs))
	halted := docs[1]
	require.EqualValues(t, 1, halted["schema_version"])
	require.Equal(t, "run_halted", halted["event"])
	require.Equal(t, "budget_exceeded", halted["failure"].(map[string]any)["type"])
	require.Equal(t, map[string]any{"max_cost_usd": 3.0, "spent_usd": 4.0}, halted["budget"], "the budget rides along")
	require.Contains(t, halted["resume_command"], "--max-cost 6 --resume")
	require.NotContains(t, halted["resume_command"], "s3cr3t", "the printed commands leave the webhook out")
	require.Contains(t, halted["text"], "autobuild halted: budget_exceeded")

	lines, err := os.ReadFile(docFile)
	require.NoError(t, err)
	require.Equal(t, 2, strings.Count(string(lines), "\n"), "the command got the same two documents")
	var first map[string]any
	require.NoError(t, json.Unmarshal([]byte(strings.SplitN(string(lines), "\n", 2)[0]), &first))
	require.Equal(t, "budget_reached", first["notification"])

	for _, out := range []string{r.stdout, r.stderr} {
		require.NotContains(t, out, "s3cr3t")
	}
	requireNoSecret(t, filepath.Join(repo, ".autobuild"), "s3cr3t")

	// The resume command it offered, with the webhook from the
	// environment this time.
	cmd := command(repo, "plan.md", "--no-tui", "--agent", "sim", "--scenario", scenario, "--max-parallel", "1", "--max-cost", "6", "--resume")
	cmd.Env = append(cmd.Env, "AUTOBUILD_NOTIFY_WEBHOOK="+secretURL)
	r = runCmd(t, cmd)
	require.Equal(t, 0, r.code, r.String())
	require.Equal(t, state.PhaseComplete, loadPhase(t, repo, "3").Status)
	docs = hook.take()
	require.Equal(t, []string{"complete"}, notifications(docs))
	require.EqualValues(t, 3, docs[0]["commits"], "the run's commits, the earlier session's too")
	require.Equal(t, 6.0, docs[0]["cost_usd"])
	requireNoSecret(t, filepath.Join(repo, ".autobuild"), "s3cr3t")
}

// requireNoSecret fails when any file under dir holds secret.
func requireNoSecret(t *testing.T, dir, secret string) {
	t.Helper()
	require.NoError(t, filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		require.NotContains(t, string(b), secret, path)
		return nil
	}))
}

// In the UI, a run halted by its budget rings the bell and sends an OSC 9
// notification to the terminal, and the header showed the spend against
// the budget.
func TestTUIBudgetHaltSendsOSC9(t *testing.T) {
	t.Parallel()
	repo := newRepo(t, budgetPlan)
	scenario := costScenario(t)
	tm := startInPty(t, repo, "plan.md", "--commit=auto", "--agent", "sim", "--scenario", scenario,
		"--max-parallel", "1", "--max-cost", "3")
	tm.waitText("AUTOBUILD HALTED", 0, 60*time.Second)
	tm.waitText("of $3.00 budget", 0, 5*time.Second)
	osc := "\x1b]9;" // TERM=xterm-256color
	if os.Getenv("VTE_VERSION") != "" {
		osc = "\x1b]777;notify;autobuild halted;"
	}
	waitFor(t, "the OSC 9 notification", 5*time.Second, func() bool {
		return strings.Contains(tm.raw(), "\a"+osc+"autobuild halted: budget_exceeded: the run spent $4.00")
	})
	require.Equal(t, 1, strings.Count(tm.raw(), osc), "one notification")
	tm.send("q")
	require.Equal(t, 1, tm.exitCode(30*time.Second))
}
