package tui

import (
	"context"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/autobuild-sh/autobuild/internal/event"
	"github.com/autobuild-sh/autobuild/internal/failreport"
	goldenfile "github.com/autobuild-sh/autobuild/internal/golden"
	"github.com/autobuild-sh/autobuild/internal/phaseid"
	"github.com/autobuild-sh/autobuild/internal/runctl"
	"github.com/autobuild-sh/autobuild/internal/state"
)

// t0 is when the test run starts; the clock reads t0+3m12s unless a test
// moves it.
var t0 = time.Date(2025, 6, 1, 9, 0, 0, 0, time.UTC)

// clock is a settable clock for Options.Now.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) now() time.Time  { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) set(t time.Time) { c.mu.Lock(); c.t = t; c.mu.Unlock() }

// goroutineID returns the current goroutine's id, parsed from its stack
// header; the fake controller uses it to catch calls made from Update.
func goroutineID() string {
	buf := make([]byte, 64)
	buf = buf[:runtime.Stack(buf, false)]
	f := strings.Fields(string(buf))
	return f[1]
}

// fakeController is a Controller for tests. Every method fails the test
// when called on the goroutine that runs Update: the model may only call it
// from a tea.Cmd.
type fakeController struct {
	t        testing.TB
	updateGo string // the goroutine that calls Update

	mu         sync.Mutex
	starts     []runctl.Mode
	interrupts int
	runs       []chan event.Event // one per Start, handed out in order
	snap       *state.Snapshot
	snapErr    error
	startErr   error
}

func (f *fakeController) check(method string) {
	if goroutineID() == f.updateGo {
		f.t.Errorf("Controller.%s called synchronously from Update", method)
	}
}

func (f *fakeController) Start(_ context.Context, mode runctl.Mode) (<-chan event.Event, error) {
	f.check("Start")
	f.mu.Lock()
	defer f.mu.Unlock()
	f.starts = append(f.starts, mode)
	if f.startErr != nil {
		return nil, f.startErr
	}
	if len(f.runs) == 0 {
		ch := make(chan event.Event)
		close(ch)
		return ch, nil
	}
	ch := f.runs[0]
	f.runs = f.runs[1:]
	return ch, nil
}

func (f *fakeController) Interrupt() {
	f.check("Interrupt")
	f.mu.Lock()
	f.interrupts++
	f.mu.Unlock()
}

func (f *fakeController) Snapshot() (*state.Snapshot, error) {
	f.check("Snapshot")
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.snap, f.snapErr
}

func (f *fakeController) setSnapshot(s *state.Snapshot) {
	f.mu.Lock()
	f.snap = s
	f.mu.Unlock()
}

func (f *fakeController) counts() (starts []runctl.Mode, interrupts int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]runctl.Mode(nil), f.starts...), f.interrupts
}

// harness is a small Bubble Tea runtime for tests: Update runs on the test
// goroutine, every Cmd on its own goroutine (as in tea.Program), and the
// test decides when to process the messages they return.
type harness struct {
	t     *testing.T
	m     *Model
	fake  *fakeController
	clock *clock
	msgs  chan tea.Msg
	quit  bool
}

func newHarness(t *testing.T, o Options, w, h int) *harness {
	t.Helper()
	c := &clock{t: t0.Add(3*time.Minute + 12*time.Second)}
	if o.Now == nil {
		o.Now = c.now
	}
	fake, _ := o.Controller.(*fakeController)
	if fake != nil {
		fake.t, fake.updateGo = t, goroutineID()
	}
	m := New(o)
	m.noTick = true
	hs := &harness{t: t, m: m, fake: fake, clock: c, msgs: make(chan tea.Msg, 1024)}
	hs.send(tea.WindowSizeMsg{Width: w, Height: h})
	return hs
}

func (h *harness) init() { h.run(h.m.Init()) }

// send calls Update with msg and starts the Cmd it returns.
func (h *harness) send(msg tea.Msg) {
	h.t.Helper()
	_, cmd := h.m.Update(msg)
	h.run(cmd)
}

func (h *harness) run(cmd tea.Cmd) {
	if cmd == nil {
		return
	}
	go func() { h.msgs <- cmd() }()
}

// key presses a key given as its name ("q", "enter", "ctrl+c", "down").
func (h *harness) key(name string) {
	h.t.Helper()
	h.send(keyPress(name))
}

func keyPress(name string) tea.KeyPressMsg {
	switch name {
	case "enter":
		return tea.KeyPressMsg{Code: tea.KeyEnter}
	case "esc":
		return tea.KeyPressMsg{Code: tea.KeyEscape}
	case "tab":
		return tea.KeyPressMsg{Code: tea.KeyTab}
	case "up":
		return tea.KeyPressMsg{Code: tea.KeyUp}
	case "down":
		return tea.KeyPressMsg{Code: tea.KeyDown}
	case "right":
		return tea.KeyPressMsg{Code: tea.KeyRight}
	case "left":
		return tea.KeyPressMsg{Code: tea.KeyLeft}
	case "end":
		return tea.KeyPressMsg{Code: tea.KeyEnd}
	case "pgup":
		return tea.KeyPressMsg{Code: tea.KeyPgUp}
	case "pgdown":
		return tea.KeyPressMsg{Code: tea.KeyPgDown}
	case "home":
		return tea.KeyPressMsg{Code: tea.KeyHome}
	case "shift+tab":
		return tea.KeyPressMsg{Code: tea.KeyTab, Mod: tea.ModShift}
	case "space":
		return tea.KeyPressMsg{Code: tea.KeySpace, Text: " "}
	case "backspace":
		return tea.KeyPressMsg{Code: tea.KeyBackspace}
	case "ctrl+c":
		return tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl}
	}
	r := []rune(name)[0]
	k := tea.KeyPressMsg{Code: r, Text: name}
	if r >= 'A' && r <= 'Z' {
		k.ShiftedCode, k.Mod = r, tea.ModShift
		k.Code = r + ('a' - 'A')
	}
	return k
}

// typeText types s into the model, one key per rune.
func (h *harness) typeText(s string) {
	for _, r := range s {
		h.send(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
}

// until processes Cmd results until cond holds, failing after a timeout.
func (h *harness) until(what string, cond func(m *Model) bool) {
	h.t.Helper()
	deadline := time.After(5 * time.Second)
	for !cond(h.m) {
		select {
		case msg := <-h.msgs:
			h.handle(msg)
		case <-deadline:
			h.t.Fatalf("timed out waiting for %s", what)
		}
	}
}

// drain processes Cmd results until none arrives for a short while.
func (h *harness) drain() {
	for {
		select {
		case msg := <-h.msgs:
			h.handle(msg)
		case <-time.After(50 * time.Millisecond):
			return
		}
	}
}

func (h *harness) handle(msg tea.Msg) {
	h.t.Helper()
	switch msg := msg.(type) {
	case nil:
	case tea.QuitMsg:
		h.quit = true
	case tea.BatchMsg:
		for _, c := range msg {
			h.run(c)
		}
	default:
		h.send(msg)
	}
}

// screen is the rendered view without styles.
func (h *harness) screen() string { return ansi.Strip(h.m.View().Content) }

// golden compares got with testdata/<name>.golden (rewritten with -update).
func golden(t *testing.T, name, got string) {
	t.Helper()
	goldenfile.Equal(t, filepath.Join("testdata", name+".golden"), got)
}

// The test plan: four batches, three phases in parallel in the third.
func testBatches() [][]PhaseInfo {
	return [][]PhaseInfo{
		{{ID: "0", DisplayID: "0", Name: "Bootstrap", Batch: 1}},
		{{ID: "1", DisplayID: "1", Name: "Data model", DependsOn: []phaseid.ID{"0"}, Batch: 2}},
		{
			{ID: "2a", DisplayID: "2A", Name: "Backend API", DependsOn: []phaseid.ID{"1"}, Batch: 3},
			{ID: "2b", DisplayID: "2B", Name: "Frontend", DependsOn: []phaseid.ID{"1"}, Batch: 3},
			{ID: "2c", DisplayID: "2C", Name: "Docs", DependsOn: []phaseid.ID{"1"}, Batch: 3},
		},
		{{ID: "3", DisplayID: "3", Name: "Integration", DependsOn: []phaseid.ID{"2a", "2b", "2c"}, Batch: 4}},
	}
}

func liveOptions(fake *fakeController) Options {
	return Options{
		Title: "Todo app", PlanPath: "plan.md", CommitMode: "auto", Agent: "sim",
		Batches: testBatches(), Controller: fake,
		Commands: runctl.Commands{Resume: "autobuild plan.md --resume", Fresh: "autobuild plan.md --fresh --commit=auto"},
	}
}

// ev builds an event at t0+sec.
func ev(kind event.Kind, id phaseid.ID, sec float64) event.Event {
	display := phaseid.Display(strings.ToUpper(string(id)))
	return event.Event{Kind: kind, Time: t0.Add(time.Duration(sec * float64(time.Second))), PhaseID: id, DisplayID: display}
}

func started(id phaseid.ID, sec float64, attempt int) event.Event {
	e := ev(event.PhaseStarted, id, sec)
	e.Attempt, e.MaxAttempts, e.Agent = attempt, 2, "sim"
	return e
}

func output(id phaseid.ID, sec float64, line string) event.Event {
	e := ev(event.PhaseOutput, id, sec)
	e.Line, e.Stream = line, "agent"
	return e
}

func gate(id phaseid.ID, sec float64, kind, cmd, status string, exit int) event.Event {
	e := ev(event.GateResult, id, sec)
	e.Gate = &event.Gate{Kind: kind, Command: cmd, Status: status, ExitCode: exit, DurationSeconds: 3}
	return e
}

func completed(id phaseid.ID, sec, dur float64, sha, msg string) []event.Event {
	c := ev(event.PhaseCompleted, id, sec)
	c.DurationSeconds = dur
	i := ev(event.PhaseIntegrated, id, sec)
	i.Commit = &state.Commit{SHA: sha, Message: msg}
	return []event.Event{c, i}
}

func failed(id phaseid.ID, sec float64, attempt int, msg string) event.Event {
	e := ev(event.PhaseFailed, id, sec)
	e.Attempt, e.MaxAttempts = attempt, 2
	e.Failure = &failreport.Report{Type: failreport.TestFailure, Message: msg, Attempt: attempt, Retryable: true,
		Gate: "test", GateCommand: "npm test", GateOutput: "FAIL src/ProfileCard.test.tsx\n  ✕ formats the join date",
		FailingTests: []string{"ProfileCard formats the join date"}, DurationSeconds: 48,
		SuggestedActions: []string{"Read the failing tests' output in the log and fix the code or the tests"}}
	return e
}

func batch(n int, sec float64, ids ...phaseid.Display) event.Event {
	return event.Event{Kind: event.BatchStarted, Time: t0.Add(time.Duration(sec) * time.Second), Batch: n, Phases: ids}
}

// midRun is a run 3m12s in: 0 and 1 done, 2A and 2C running, 2B on its
// retry after a test failure, 3 pending.
func midRun() []event.Event {
	var evs []event.Event
	add := func(e ...event.Event) { evs = append(evs, e...) }
	add(event.Event{Kind: event.RunStarted, Time: t0, Line: "Todo app"})
	add(batch(1, 0, "0"), started("0", 0, 1), output("0", 1, "Creating go.mod"),
		gate("0", 40, "build", "go build ./...", state.GatePassed, 0))
	add(completed("0", 42, 42, "a1b2c3d4e5f6", "chore(repo): bootstrap the module")...)
	add(batch(2, 43, "1"), started("1", 43, 1), output("1", 50, "Adding the Todo type"))
	add(completed("1", 101, 58, "b2c3d4e5f6a7", "feat(model): add the data model")...)
	add(batch(3, 102, "2A", "2B", "2C"))
	add(started("2a", 102, 1), output("2a", 110, "Writing handlers for /todos"), output("2a", 180, "go test ./api/... ok"))
	add(started("2b", 102, 1), output("2b", 120, "Rendering the ProfileCard"),
		gate("2b", 148, "test", "npm test", state.GateFailed, 1), failed("2b", 150, 1, "1 test failed: ProfileCard formats the join date"))
	retry := ev(event.PhaseRetrying, "2b", 151)
	retry.Line = "retrying with the failure report"
	add(retry, started("2b", 160, 2), output("2b", 170, "Fixing the date formatting in ProfileCard"))
	add(started("2c", 102, 1), output("2c", 150, "Updating README.md with the API section"))
	return evs
}

// haltEnd finishes midRun with 2B failing again: 3 is blocked, the run halts.
func haltEnd() []event.Event {
	var evs []event.Event
	evs = append(evs, completed("2a", 200, 98, "c3d4e5f6a7b8", "feat(api): add the todo endpoints")...)
	evs = append(evs, completed("2c", 205, 103, "d4e5f6a7b8c9", "docs: document the API")...)
	evs = append(evs, output("2b", 230, "npm test"), gate("2b", 238, "test", "npm test", state.GateFailed, 1),
		failed("2b", 240, 2, "1 test still fails: ProfileCard formats the join date"))
	blocked := ev(event.PhaseBlocked, "3", 240)
	blocked.BlockedBy = []phaseid.Display{"2B"}
	halted := event.Event{Kind: event.RunHalted, Time: t0.Add(241 * time.Second), Line: "Phase 2B failed twice (test_failure)"}
	return append(evs, blocked, halted)
}

// completeEnd finishes midRun successfully.
func completeEnd() []event.Event {
	var evs []event.Event
	evs = append(evs, completed("2a", 200, 98, "c3d4e5f6a7b8", "feat(api): add the todo endpoints")...)
	evs = append(evs, completed("2c", 205, 103, "d4e5f6a7b8c9", "docs: document the API")...)
	evs = append(evs, completed("2b", 230, 70, "e5f6a7b8c9d0", "feat(ui): add the profile card")...)
	evs = append(evs, batch(4, 231, "3"), started("3", 231, 1), output("3", 240, "Wiring it together"))
	evs = append(evs, completed("3", 290, 59, "f6a7b8c9d0e1", "feat(app): integrate the API and the UI")...)
	return append(evs, event.Event{Kind: event.RunComplete, Time: t0.Add(291 * time.Second)})
}

// feed sends events straight into the model, as one batch.
func (h *harness) feed(evs []event.Event) {
	h.t.Helper()
	h.send(eventsMsg{gen: h.m.life.gen, events: evs})
}

// finish sends the last events of a run and closes its channel.
func (h *harness) finish(evs []event.Event) {
	h.t.Helper()
	h.send(eventsMsg{gen: h.m.life.gen, events: evs, closed: true})
}

// snapshotOf is the state the engine would have written for the model's
// rows, with a run of the given status.
func snapshotOf(m *Model, status state.RunStatus, reason string) *state.Snapshot {
	finished := m.run.ended
	if finished.IsZero() {
		finished = m.now()
	}
	run := &state.Run{SchemaVersion: 1, PlanPath: "plan.md", PlanTitle: "Todo app", CommitMode: "auto",
		Agents: []string{"sim"}, Branch: "main", Status: status, HaltReason: reason, Started: t0, Updated: finished}
	if status != state.RunRunning {
		run.Finished = &finished
	}
	phases := phasesFromRows(m.phases.rows)
	for _, p := range phases {
		if p.Status == state.PhaseFailed {
			p.Attempts = []state.Attempt{
				{Number: 1, Agent: "sim", Outcome: state.OutcomeFailed, LogPath: ".autobuild/logs/phase-" + string(p.PhaseID) + ".attempt-1.log"},
				{Number: 2, Agent: "sim", Outcome: state.OutcomeFailed, LogPath: ".autobuild/logs/phase-" + string(p.PhaseID) + ".attempt-2.log"},
			}
			p.Worktree = ".autobuild/worktrees/phase-" + string(p.PhaseID)
		}
	}
	return &state.Snapshot{Run: run, Phases: phases}
}

// watchCommands are the commands of `autobuild watch`, as cli makes them:
// autobuild run where the run is, after prefix ("cd repo && ").
func watchCommands(prefix string) runctl.Commands {
	return runctl.Commands{Launch: func(args ...string) string {
		return prefix + "autobuild " + strings.Join(args, " ")
	}}
}
