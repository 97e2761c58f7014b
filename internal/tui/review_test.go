package tui

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/event"
	"github.com/autobuild-sh/autobuild/internal/phaseid"
	"github.com/autobuild-sh/autobuild/internal/review"
	"github.com/autobuild-sh/autobuild/internal/state"
	"github.com/autobuild-sh/autobuild/internal/watch"
)

const reviewDiff = `diff --git a/api/todos.go b/api/todos.go
new file mode 100644
index 0000000..1111111
--- /dev/null
+++ b/api/todos.go
@@ -0,0 +1,6 @@
+package api
+
+// List returns every todo.
+func List() []Todo {
+	return store.All()
+}
diff --git a/api/routes.go b/api/routes.go
index 2222222..3333333 100644
--- a/api/routes.go
+++ b/api/routes.go
@@ -3,7 +3,8 @@ package api
 func Routes(mux *http.ServeMux) {
 	mux.HandleFunc("/health", health)
-	mux.HandleFunc("/todo", todo)
+	mux.HandleFunc("/todos", todos)
+	mux.HandleFunc("/todos/{id}", todo)
 }
`

// reviewFixture is phase 2A awaiting review, as review.Load reads it.
func reviewFixture() *review.Review {
	since := t0.Add(150 * time.Second)
	ps := &state.Phase{PhaseID: "2a", DisplayID: "2A", PhaseName: "Backend API", Status: state.PhaseAwaitingReview,
		Attempt: 1, MaxAttempts: 2, Agent: "claude", Worktree: ".autobuild/worktrees/phase-2a",
		QualityGates: map[string]state.GateResult{
			"test": {Command: "go test ./...", Passed: true, Status: state.GatePassed},
			"lint": {Command: "go vet ./...", Passed: true, Status: state.GatePassed},
		},
		Attempts: []state.Attempt{{Number: 1, Agent: "claude", Usage: &state.Usage{InputTokens: 48200, OutputTokens: 6100, CostUSD: 0.31}}},
		Review:   &state.ReviewHold{Since: since, Attempt: 1, Tree: "t1", Message: "feat(api): add the todo endpoints\n\nList and routes."}}
	return &review.Review{Phase: ps, Hold: *ps.Review, Diff: reviewDiff, Files: review.ParseDiff(reviewDiff),
		LogTail: []string{"→ Write api/todos.go", "→ Edit api/routes.go", "→ Bash go test ./...", "# autobuild: gate test passed in 2.1s"}}
}

// awaitingEvent is phase 2A's gates passing under --review=phase.
func awaitingEvent() event.Event {
	e := ev(event.PhaseAwaitingReview, "2a", 200)
	e.Attempt, e.MaxAttempts, e.Line = 1, 2, "review it with: autobuild review 2A (--approve, or --reject --note TEXT)"
	return e
}

// The review screen, whole, at 80×24 and 120×36: the facts, the files,
// the hunks, the help line with every decision key.
func TestGoldenReviewScreen(t *testing.T) {
	t.Parallel()
	for _, sz := range []struct{ w, h int }{{80, 24}, {120, 36}} {
		h := newHarness(t, liveOptions(&fakeController{}), sz.w, sz.h)
		h.feed(midRun())
		h.feed([]event.Event{awaitingEvent()})
		require.Equal(t, stAwaiting, h.m.phases.byID["2a"].status)
		require.Contains(t, h.screen(), "awaiting review: v to review")
		h.key("v")
		require.Equal(t, screenReview, h.m.screen)
		h.send(reviewLoadedMsg{id: "2a", rev: reviewFixture()})
		out := h.screen()
		for _, want := range []string{"Review · Phase 2A: Backend API", "Gates: lint passed (go vet ./...), test passed (go test ./...)",
			"Agent's summary: feat(api): add the todo endpoints", "A api/todos.go  +6 -0", "a approve", "x reject", "e editor", "o shell", "esc skip"} {
			require.Contains(t, out, want)
		}
		golden(t, name("review", sz.w, sz.h), out)

		// The page scrolls to the hunks and the attempt's last lines.
		h.key("end")
		golden(t, name("review_bottom", sz.w, sz.h), h.screen())
	}
}

// The review screen alone, styled: dark and light backgrounds, and
// NO_COLOR (bold only; the + and - carry the meaning).
func TestReviewViewColors(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name        string
		dark, color bool
	}{{"dark", true, true}, {"light", false, true}, {"nocolor", true, false}} {
		s := NewStyles(c.dark, c.color)
		v := reviewView{styles: &s, now: t0.Add(272 * time.Second)}
		v.open("2a")
		v.SetSize(80, 40)
		v.loaded("2a", reviewFixture(), nil)
		lines := v.Render()
		requireSize(t, lines, 80, 40)
		golden(t, "view_review_"+c.name+"_80x40", fmt.Sprintf("%q", lines))
	}
}

// From the screen to the decision file: a approves, x asks for a note and
// rejects with it, esc leaves the phase waiting. Real files, no engine.
func TestReviewScreenWritesDecisions(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	store := state.Open(root)
	require.NoError(t, os.MkdirAll(store.PhasesDir(), 0o755))
	require.NoError(t, os.MkdirAll(store.ReviewDir(), 0o755))
	diffPath := filepath.Join(".autobuild", "review", "2a.diff")
	require.NoError(t, os.WriteFile(filepath.Join(root, diffPath), []byte(reviewDiff), 0o644))
	ps := reviewFixture().Phase
	ps.Review.DiffPath = diffPath
	require.NoError(t, store.SavePhase(ps))

	o := liveOptions(&fakeController{})
	o.Root = root
	h := newHarness(t, o, 100, 30)
	h.feed(midRun())
	h.feed([]event.Event{awaitingEvent()})
	h.key("v")
	h.until("the review is read", func(m *Model) bool { return m.rv.rev != nil || m.rv.err != nil || m.screen != screenReview })
	require.NoError(t, h.m.rv.err)
	require.Equal(t, screenReview, h.m.screen, h.screen())
	require.Contains(t, h.screen(), `mux.HandleFunc("/todos", todos)`)

	// esc: nothing is decided.
	h.key("esc")
	require.Equal(t, screenRun, h.m.screen)
	d, err := store.LoadReviewDecision("2a")
	require.NoError(t, err)
	require.Nil(t, d)

	// x, a note, enter: a rejection with the note, for this hold.
	h.key("v")
	h.until("the review is read", func(m *Model) bool { return m.rv.rev != nil })
	h.key("x")
	require.Contains(t, h.screen(), "Note for the retry:")
	h.key("enter")
	require.Contains(t, h.screen(), "The note is empty")
	h.typeText("keep /todo as an alias")
	h.key("enter")
	h.until("the decision is written", func(m *Model) bool { return m.screen == screenRun })
	d, err = store.LoadReviewDecision("2a")
	require.NoError(t, err)
	require.Equal(t, state.ReviewDecision{PhaseID: "2a", Decision: state.DecisionReject, Note: "keep /todo as an alias",
		Tree: "t1", Decided: d.Decided}, *d)
	require.Contains(t, h.screen(), "rejected: its retry starts with your note")

	// a: an approval.
	h.key("v")
	h.until("the review is read", func(m *Model) bool { return m.rv.rev != nil })
	h.key("a")
	h.until("the decision is written", func(m *Model) bool { return m.screen == screenRun })
	d, err = store.LoadReviewDecision("2a")
	require.NoError(t, err)
	require.Equal(t, state.DecisionApprove, d.Decision)

	// v on a phase that does not await review says so.
	h.key("g")
	h.key("v")
	require.Equal(t, screenRun, h.m.screen)
	require.Contains(t, h.screen(), "does not await it")
}

// A decision made elsewhere (autobuild review in another terminal) closes
// the screen showing that phase.
func TestReviewScreenClosesWhenDecidedElsewhere(t *testing.T) {
	t.Parallel()
	h := newHarness(t, liveOptions(&fakeController{}), 100, 30)
	h.feed(midRun())
	h.feed([]event.Event{awaitingEvent()})
	h.key("v")
	h.send(reviewLoadedMsg{id: "2a", rev: reviewFixture()})
	reviewed := ev(event.PhaseReviewed, "2a", 230)
	reviewed.Line = "approved"
	h.feed([]event.Event{reviewed})
	require.Equal(t, screenRun, h.m.screen)
	require.Contains(t, h.screen(), "Phase 2A was reviewed: approved")
}

// M on a running phase types a note in the footer and writes it for the
// run, which stops the attempt and continues it with the note.
func TestSteerKeyWritesTheNote(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	o := liveOptions(&fakeController{})
	o.Root = root
	h := newHarness(t, o, 100, 30)
	h.feed(midRun())
	require.Equal(t, phaseid.ID("2a"), h.m.selected().id)
	h.key("M")
	require.Contains(t, h.screen(), "Note to 2A's agent:")
	require.Contains(t, h.screen(), "enter send · esc cancel")
	h.typeText("use net/http only")
	h.key("enter")
	h.until("the note is written", func(m *Model) bool { return m.footer.notice != "" })
	require.Contains(t, h.screen(), "Note sent to 2a")
	n, err := state.Open(root).TakeSteer("2a")
	require.NoError(t, err)
	require.Equal(t, "use net/http only", n.Note)

	// Not on a phase that is not running.
	h.key("g")
	h.key("M")
	require.Contains(t, h.screen(), "M sends a note to a running phase")
}

// autobuild watch offers the review screen too: decisions are files.
func TestWatchReviewsAPhase(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	store := state.Open(root)
	require.NoError(t, os.MkdirAll(store.ReviewDir(), 0o755))
	diffPath := filepath.Join(".autobuild", "review", "2a.diff")
	require.NoError(t, os.WriteFile(filepath.Join(root, diffPath), []byte(reviewDiff), 0o644))
	ps := reviewFixture().Phase
	ps.Review.DiffPath, ps.Batch = diffPath, 1
	require.NoError(t, store.SavePhase(ps))

	ch := make(chan watch.Update)
	h := newHarness(t, Options{Watch: ch, ReadOnly: true, Dir: root, Root: root}, 100, 30)
	run := &state.Run{SchemaVersion: 1, PlanPath: "plan.md", PlanTitle: "Todo app", CommitMode: "auto", Status: state.RunRunning, Started: t0}
	h.send(watchMsg{update: watch.Update{Snapshot: &state.Snapshot{Run: run, Phases: []*state.Phase{ps}}}})
	require.Contains(t, h.screen(), "awaiting review: v to review")
	h.key("v")
	h.until("the review is read", func(m *Model) bool { return m.rv.rev != nil })
	require.Contains(t, h.screen(), "Review · Phase 2A: Backend API")

	// Another update of the files keeps the screen; a decision made
	// elsewhere closes it.
	h.send(watchMsg{update: watch.Update{Snapshot: &state.Snapshot{Run: run, Phases: []*state.Phase{ps}}}})
	require.Equal(t, screenReview, h.m.screen)
	landed := *ps
	landed.Status, landed.Review = state.PhaseRunning, nil
	h.send(watchMsg{update: watch.Update{Snapshot: &state.Snapshot{Run: run, Phases: []*state.Phase{&landed}}}})
	require.Equal(t, screenRun, h.m.screen)
	require.Contains(t, h.screen(), "no longer awaits review")
}

// A on the review screen approves every phase of the batch that waits.
func TestReviewApproveTheBatch(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	store := state.Open(root)
	for _, id := range []phaseid.ID{"2a", "2c"} {
		ps := reviewFixture().Phase
		ps.PhaseID, ps.DisplayID, ps.Batch = id, phaseid.Display(id), 3
		ps.Review.Tree = "tree-" + string(id)
		require.NoError(t, store.SavePhase(ps))
	}
	o := liveOptions(&fakeController{})
	o.Root = root
	h := newHarness(t, o, 100, 30)
	h.feed(midRun())
	other := awaitingEvent()
	other.PhaseID, other.DisplayID = "2c", "2C"
	h.feed([]event.Event{awaitingEvent(), other})
	h.key("v")
	h.send(reviewLoadedMsg{id: "2a", rev: reviewFixture()})
	require.Contains(t, h.screen(), "A approve the batch")
	h.key("A")
	h.until("the decisions are written", func(m *Model) bool { return m.screen == screenRun })
	require.Contains(t, h.screen(), "2 phases of the batch approved")
	for _, id := range []phaseid.ID{"2a", "2c"} {
		d, err := store.LoadReviewDecision(id)
		require.NoError(t, err)
		require.Equal(t, state.ReviewDecision{PhaseID: id, Decision: state.DecisionApprove, Tree: "tree-" + string(id), Decided: d.Decided}, *d)
	}
}
