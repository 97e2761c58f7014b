package tui

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/autobuild-sh/autobuild/internal/event"
	"github.com/autobuild-sh/autobuild/internal/phaseid"
	"github.com/autobuild-sh/autobuild/internal/review"
	"github.com/autobuild-sh/autobuild/internal/state"
)

// The review screen's flow: `v` on a row awaiting review opens it and
// reads the review (a Cmd); a decides, x asks for a note then rejects, e
// and o hand the terminal to $EDITOR or a shell in the phase's worktree and
// then ask the run to check the gates again on what was changed; esc goes
// back and leaves the phase waiting. Decisions are files under
// .autobuild/review/ (package review), so the live UI and `watch` decide
// the same way, and so does `autobuild review` in another terminal.

// reviewLoadedMsg carries the review of phase id, read by loadReviewCmd.
type reviewLoadedMsg struct {
	id  phaseid.ID
	rev *review.Review
	err error
}

// reviewDecidedMsg says a decision on phase id was written (or why not);
// count, when more than one, is how many phases of its batch were decided
// together (A).
type reviewDecidedMsg struct {
	id       phaseid.ID
	decision string
	err      error
	count    int
}

// reviewExecDoneMsg says the editor or shell opened on phase id's worktree
// has exited.
type reviewExecDoneMsg struct {
	id  phaseid.ID
	err error
}

// onReview reports whether the review screen fills the body.
func (m *Model) onReview() bool { return m.screen == screenReview && m.rv.shown() }

func (m *Model) root() string {
	if m.opts.Root != "" {
		return m.opts.Root
	}
	return "."
}

// openReview is `v`: the review of the selected phase, when it awaits one.
func (m *Model) openReview() tea.Cmd {
	r := m.selected()
	if r == nil || r.status != stAwaiting {
		return nil // the binding says why (listBody)
	}
	m.rv.open(r.id)
	m.screen = screenReview
	return loadReviewCmd(m.ctx, m.root(), r.id)
}

func (m *Model) leaveReview() {
	m.rv.close()
	m.screen, m.focus = screenRun, focusList
}

// execInWorktree hands the terminal to argv in the phase's worktree; the
// program waits, then asks the run to check the gates again.
func (m *Model) execInWorktree(argv []string) tea.Cmd {
	wt := m.rv.rev.Phase.Worktree
	if wt == "" {
		m.footer.setNotice("The phase has no worktree to open.", true)
		return nil
	}
	if !filepath.IsAbs(wt) {
		wt = filepath.Join(m.root(), filepath.FromSlash(wt))
	}
	if _, err := os.Stat(wt); err != nil {
		m.footer.setNotice("The worktree is not there ("+wt+"): resume the run first.", true)
		return nil
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = wt
	id := m.rv.id
	return tea.ExecProcess(cmd, func(err error) tea.Msg { return reviewExecDoneMsg{id: id, err: err} })
}

// editorCommand is $VISUAL or $EDITOR (with its arguments) on ".", else vi.
func editorCommand() []string {
	for _, v := range []string{"VISUAL", "EDITOR"} {
		if f := strings.Fields(os.Getenv(v)); len(f) > 0 {
			return append(f, ".")
		}
	}
	return []string{"vi", "."}
}

// shellCommand is $SHELL, else /bin/sh.
func shellCommand() []string {
	if sh := os.Getenv("SHELL"); sh != "" {
		return []string{sh}
	}
	return []string{"/bin/sh"}
}

// handleReviewMsg takes a review read, a decision written, or the end of an
// editor or shell.
func (m *Model) handleReviewMsg(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case reviewLoadedMsg:
		m.rv.loaded(msg.id, msg.rev, msg.err)
	case reviewDecidedMsg:
		if msg.err != nil {
			m.footer.setNotice("The decision was not written: "+msg.err.Error(), true)
			return nil
		}
		switch msg.decision {
		case state.DecisionApprove:
			m.footer.setNotice("Phase "+string(msg.id)+" approved: it lands now (or when the run resumes).", false)
			if msg.count > 1 {
				m.footer.setNotice(fmt.Sprintf("%d phases of the batch approved: they land now (or when the run resumes).", msg.count), false)
			}
		case state.DecisionReject:
			m.footer.setNotice("Phase "+string(msg.id)+" rejected: its retry starts with your note.", false)
		case state.DecisionRecheck:
			m.footer.setNotice("Checking the gates again on your change; the review comes back when they pass.", false)
		}
		if msg.id == m.rv.id {
			m.leaveReview()
		}
	case reviewExecDoneMsg:
		if msg.id != m.rv.id || m.rv.rev == nil {
			return nil
		}
		if msg.err != nil {
			m.footer.setNotice("The editor or shell failed: "+msg.err.Error(), true)
		}
		return decideCmd(m.root(), m.rv.rev.Phase, state.DecisionRecheck, "", m.now())
	}
	return nil
}

// reviewEvent follows the phase shown: its review is read again when it
// awaits review again (the gates ran again on a person's change), and the
// screen closes when it was decided elsewhere (autobuild review).
func (m *Model) reviewEvent(e event.Event) tea.Cmd {
	if !m.onReview() || e.PhaseID != m.rv.id {
		return nil
	}
	if e.Kind == event.PhaseReviewed {
		m.leaveReview()
		m.footer.setNotice("Phase "+string(e.DisplayID.Or(e.PhaseID))+" was reviewed: "+e.Line, false)
		return nil
	}
	return loadReviewCmd(m.ctx, m.root(), e.PhaseID)
}

// reviewFollowFiles does the same from the state files (watch mode).
func (m *Model) reviewFollowFiles(s *state.Snapshot) tea.Cmd {
	if !m.onReview() || m.rv.rev == nil {
		return nil
	}
	for _, p := range s.Phases {
		if p.PhaseID != m.rv.id {
			continue
		}
		switch {
		case p.Status != state.PhaseAwaitingReview || p.Review == nil:
			m.leaveReview()
			m.footer.setNotice("Phase "+string(p.DisplayID.Or(p.PhaseID))+" no longer awaits review ("+string(p.Status)+").", false)
		case p.Review.Tree != m.rv.rev.Hold.Tree:
			return loadReviewCmd(m.ctx, m.root(), p.PhaseID)
		}
	}
	return nil
}

func loadReviewCmd(ctx context.Context, root string, id phaseid.ID) tea.Cmd {
	return func() tea.Msg {
		ps, err := state.Open(root).LoadPhase(id)
		if err != nil {
			return reviewLoadedMsg{id: id, err: err}
		}
		rev, err := review.Load(ctx, root, ps)
		return reviewLoadedMsg{id: id, rev: rev, err: err}
	}
}

func decideCmd(root string, ps *state.Phase, decision, note string, now time.Time) tea.Cmd {
	return func() tea.Msg {
		err := review.Decide(state.Open(root), ps, decision, note, now)
		return reviewDecidedMsg{id: ps.PhaseID, decision: decision, err: err}
	}
}

// batchAwaiting are the phases awaiting review in the batch of the phase
// shown, itself included, in the list's order.
func (m *Model) batchAwaiting() []phaseid.ID {
	shown := m.phases.byID[m.rv.id]
	if shown == nil {
		return nil
	}
	var ids []phaseid.ID
	for _, r := range m.phases.rows {
		if r.status == stAwaiting && r.batch == shown.batch {
			ids = append(ids, r.id)
		}
	}
	return ids
}

// approveAllCmd approves each of ids, as each phase file says its hold is
// now (a phase decided meanwhile is left out).
func approveAllCmd(root string, ids []phaseid.ID, now time.Time) tea.Cmd {
	return func() tea.Msg {
		store := state.Open(root)
		var errs []error
		for _, id := range ids {
			ps, err := store.LoadPhase(id)
			if err == nil && ps.Status == state.PhaseAwaitingReview && ps.Review != nil {
				err = review.Decide(store, ps, state.DecisionApprove, "", now)
			}
			errs = append(errs, err)
		}
		return reviewDecidedMsg{id: ids[0], decision: state.DecisionApprove, err: errors.Join(errs...), count: len(ids)}
	}
}
