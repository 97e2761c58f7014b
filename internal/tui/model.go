package tui

import (
	"context"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"

	"github.com/autobuild-sh/autobuild/internal/event"
	"github.com/autobuild-sh/autobuild/internal/runctl"
	clean "github.com/autobuild-sh/autobuild/internal/sanitize"
	"github.com/autobuild-sh/autobuild/internal/state"
	"github.com/autobuild-sh/autobuild/internal/summary"
)

// screen is what fills the body.
type screen int

const (
	screenRun     screen = iota // the phase list and the detail pane
	screenSummary               // the halt or completion summary
	screenReview                // a phase awaiting review (reviewflow.go)
)

// focus is which part of the run view the keys move.
type focus int

const (
	focusList focus = iota
	focusDetail
)

// Tick intervals: fast while a spinner turns, slow otherwise (the elapsed
// time still moves).
const (
	tickFast = 100 * time.Millisecond
	tickSlow = time.Second
)

// Model is the root Bubble Tea model of the TUI. It owns the run's data
// (the phases, the run info, the lifecycle) and the screen's mode; the views
// (header, phase table, log pane, summary, footer) are plain structs with
// their own size and render, which the model feeds before drawing (views.go).
// Update never blocks and never does I/O: engine calls and waits run in
// tea.Cmds (commands.go) whose results come back as messages.
type Model struct {
	opts     Options
	now      func() time.Time
	ctx      context.Context
	logLines int

	// haltResume is the resume command of the halt shown (a budget halt's
	// raises the budget); "" before one.
	haltResume string

	keys   KeyMap
	styles Styles
	isDark bool
	color  bool

	width, height int
	lay           layout

	run    runInfo
	phases phaseSet

	screen screen
	focus  focus
	// dialog is the y/n question being asked, nil when none (dialog.go).
	dialog *dialog
	// mouse is whether the terminal reports the mouse to the UI (wheel
	// scrolling); `m` toggles it.
	mouse bool
	// copiedFix is set when `c` last copied the fix command: the next `c`
	// copies the resume command.
	copiedFix bool
	// filtering is set while the list's filter prompt has the keys.
	filtering   bool
	filterInput searchInput

	// life is the run this model drives (live mode): its lifecycle state,
	// generation and event channel.
	life lifecycle

	// Watch mode.
	watchErr    error
	watchClosed bool
	watchRun    time.Time // Started of the run shown, to notice a new run

	frame  int  // spinner frame
	noTick bool // tests drive time themselves

	// The views.
	header  headerView
	table   phaseTable
	pane    logPane
	summary summaryView
	footer  footerView
	rv      reviewView

	// note is the note being typed: a rejection's or a steer's (note.go).
	note notePrompt
}

// New returns the model for o. In live mode (o.Controller set) Init starts
// the run; in watch mode (o.Watch set) Init starts following the updates.
func New(o Options) *Model {
	m := &Model{
		opts:     o,
		now:      o.Now,
		ctx:      o.Context,
		logLines: o.LogLines,
		keys:     DefaultKeyMap(),
		isDark:   darkFromCOLORFGBG(o.ColorFGBG),
		color:    !o.NoColor,
		width:    80,
		height:   24,
		mouse:    o.Mouse,
	}
	if m.now == nil {
		m.now = time.Now
	}
	if m.ctx == nil {
		m.ctx = context.Background()
	}
	if m.logLines <= 0 {
		m.logLines = DefaultLogLines
	}
	m.run = runInfo{title: o.Title, commitMode: o.CommitMode, agent: o.Agent, schedule: o.Schedule}
	m.phases = newPhaseSet(rowsFromBatches(o.Batches, m.logLines))
	m.header = headerView{styles: &m.styles, run: &m.run, phases: &m.phases}
	m.table = phaseTable{styles: &m.styles, phases: &m.phases}
	m.pane = logPane{styles: &m.styles, phases: &m.phases}
	m.pane.view.reset()
	m.summary = newSummaryView()
	m.rv = reviewView{styles: &m.styles}
	m.footer = newFooterView(&m.styles)
	m.footer.notice = o.Notice
	m.life = newLifecycle(o.Controller != nil && !o.ReadOnly)
	m.restyle()
	m.relayout()
	return m
}

// Result is how a run ended, for the command's exit status once the TUI
// has quit.
type Result struct {
	// Status is the run's last known status: "" when it never started.
	Status state.RunStatus
	// StartErr is why Controller.Start refused, if it did.
	StartErr error
}

// Result reports how the last run ended.
func (m *Model) Result() Result {
	return Result{Status: m.run.status, StartErr: m.life.err}
}

// Init starts the run (live mode) or the watch, the clock, and asks the
// terminal for its background color.
func (m *Model) Init() tea.Cmd {
	cmds := []tea.Cmd{tea.RequestBackgroundColor}
	if !m.noTick {
		cmds = append(cmds, tickCmd(tickSlow))
	}
	if m.life.state == lifeStarting {
		cmds = append(cmds, startCmd(m.ctx, m.opts.Controller, m.opts.Mode, m.life.gen))
	}
	if m.opts.Watch != nil {
		cmds = append(cmds, waitWatch(m.opts.Watch))
	}
	return tea.Batch(cmds...)
}

// Update handles one message. It only changes the model and returns Cmds.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	cmd := m.update(msg)
	m.relayout()
	return m, cmd
}

func (m *Model) update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
	case tea.BackgroundColorMsg:
		m.isDark = msg.IsDark()
		m.restyle()
	case tea.ColorProfileMsg:
		m.color = !m.opts.NoColor && msg.Profile > colorprofile.ASCII
		m.restyle()
	case tickMsg:
		m.frame++
		if m.noTick {
			return nil
		}
		if m.phases.anyRunning() {
			return tickCmd(tickFast)
		}
		return tickCmd(tickSlow)
	case startedMsg:
		if msg.gen != m.life.gen {
			return nil
		}
		m.life.on(lifeStarted)
		m.life.events = msg.ch
		if mode := m.life.restart; mode != nil {
			m.life.restart = nil
			m.restarted(*mode)
		}
		return waitEvents(msg.ch, msg.gen)
	case startFailedMsg:
		if msg.gen != m.life.gen {
			return nil
		}
		quit := m.life.on(lifeRefused)
		m.life.err, m.life.restart = msg.err, nil
		m.footer.setNotice("could not start the run: "+msg.err.Error(), true)
		if quit {
			return tea.Quit
		}
	case eventsMsg:
		if msg.gen != m.life.gen {
			return nil
		}
		return m.handleEvents(msg)
	case snapshotMsg:
		if msg.gen != m.life.gen {
			return nil
		}
		m.handleSnapshot(msg)
		if m.exitOnComplete() {
			return tea.Quit
		}
	case tea.MouseWheelMsg:
		m.wheel(msg)
	case watchMsg:
		return m.handleWatch(msg)
	case reviewLoadedMsg, reviewDecidedMsg, reviewExecDoneMsg:
		return m.handleReviewMsg(msg)
	case steerSentMsg:
		m.steerSent(msg)
	case tea.KeyPressMsg:
		return m.handleKey(msg)
	case tea.PasteMsg:
		if m.pane.searching {
			m.pane.search.update(msg)
		}
	}
	return nil
}

// handleEvents applies a batch of engine events. The terminal event asks
// for the state snapshot behind the summary screen; the channel closing
// ends the run (and the program, when the user asked to quit).
func (m *Model) handleEvents(msg eventsMsg) tea.Cmd {
	var cmds []tea.Cmd
	for _, e := range msg.events {
		m.applyEvent(e)
		if m.opts.Alert != nil && !e.Kind.Droppable() {
			if seq := m.opts.Alert(e); seq != "" {
				cmds = append(cmds, tea.Raw(seq))
			}
		}
		if e.Kind.Terminal() {
			m.footer.clearNotice()
			if m.dialog != nil && m.dialog.endsWithRun && !m.life.halting() {
				// The run ended by itself: "halt the run and quit?" no
				// longer asks anything (q now quits at once).
				m.dialog = nil
			}
		}
		if e.Kind == event.PhaseAwaitingReview || e.Kind == event.PhaseReviewed {
			cmds = append(cmds, m.reviewEvent(e))
		}
		if e.Kind.Terminal() && !m.life.halting() {
			cmds = append(cmds, snapshotCmd(m.opts.Controller, m.life.gen))
		}
	}
	if msg.closed {
		m.life.events = nil
		if m.life.on(lifeClosed) {
			return tea.Quit
		}
		if m.exitOnComplete() {
			// The summary's snapshot may have come before the channel
			// closed; the command prints the summary from the state.
			return tea.Quit
		}
		if m.run.status == "" || m.run.status == state.RunRunning {
			// The channel closed without a terminal event: show what the
			// state files say.
			cmds = append(cmds, snapshotCmd(m.opts.Controller, m.life.gen))
		}
	} else {
		cmds = append(cmds, waitEvents(m.life.events, m.life.gen))
	}
	m.autoSelect()
	return tea.Batch(cmds...)
}

// handleSnapshot shows the summary of the run that just ended.
func (m *Model) handleSnapshot(msg snapshotMsg) {
	in := summary.Input{StateDir: m.stateDir(), ResumeCommand: m.opts.Commands.Resume, FreshCommand: m.opts.Commands.Fresh,
		FixStep: m.opts.FixStep}
	if msg.err == nil && msg.snap != nil && msg.snap.Run != nil {
		m.mergeSnapshot(msg.snap)
		in.Run, in.Phases = msg.snap.Run, msg.snap.Phases
		// The header's elapsed time agrees with the summary's wall time,
		// which counts from the run's first start: after `r`, the events
		// only knew when the resumed part began.
		if r := msg.snap.Run; r.Status == m.run.status && !r.Started.IsZero() && r.Finished != nil {
			// Time spent halted between sessions is not counted.
			m.run.started = r.Finished.Add(-time.Duration(r.WallSeconds() * float64(time.Second)))
			m.run.ended = *r.Finished
		}
		if m.run.commitMode == "" {
			// A --fresh or resume without --commit keeps the run's mode:
			// the header learns it from the state.
			m.run.commitMode = string(msg.snap.Run.CommitMode)
		}
		if m.run.schedule == "" {
			m.run.schedule = string(msg.snap.Run.Schedule)
		}
		if m.run.status != "" && m.run.status != state.RunRunning {
			// The terminal event is the truth about this process's run,
			// even if the state file lags behind it.
			run := *msg.snap.Run
			run.Status = m.run.status
			if run.HaltReason == "" {
				run.HaltReason = m.run.haltReason
			}
			in.Run = &run
		}
	} else {
		in.Run, in.Phases = m.runFromRows(), phasesFromRows(m.phases.rows)
		if msg.err != nil {
			m.footer.setNotice("could not read the state files: "+msg.err.Error(), true)
		}
	}
	// A budget halt's resume command raises the budget: the summary's
	// line and `c` offer that one.
	in.ResumeCommand = summary.ResumeCommand(in)
	m.haltResume = in.ResumeCommand
	m.summary.fix = m.opts.FixCommand
	m.summary.SetInput(&in)
	m.summary.top()
	m.screen = screenSummary
}

// runFromRows describes the run from what the events said, for a summary
// when the state files cannot be read.
func (m *Model) runFromRows() *state.Run {
	r := &state.Run{PlanPath: m.opts.PlanPath, PlanTitle: m.run.title, CommitMode: state.CommitMode(m.run.commitMode),
		Schedule: state.Schedule(m.run.schedule),
		Status:   m.run.status, HaltReason: m.run.haltReason, Started: m.run.started}
	if m.run.agent != "" {
		r.Agents = strings.Split(m.run.agent, ", ")
	}
	if !m.run.ended.IsZero() {
		end := m.run.ended
		r.Finished = &end
	}
	return r
}

func (m *Model) stateDir() string {
	if m.opts.StateDir != "" {
		return m.opts.StateDir
	}
	return ".autobuild/"
}

// startRun starts another run in this process: `r` (resume) or `F` (fresh)
// after a halt. The screen keeps the summary until the engine has accepted
// the run: a refused start (the fix is not committed yet, say) must not
// lose the failure the user is reading.
func (m *Model) startRun(mode runctl.Mode) tea.Cmd {
	m.life.on(lifeRestart)
	m.life.gen++
	m.life.interrupts, m.life.err, m.life.restart = 0, nil, &mode
	if mode == runctl.Fresh {
		m.footer.setNotice("Starting fresh…", false)
	} else {
		m.footer.setNotice("Resuming…", false)
	}
	return startCmd(m.ctx, m.opts.Controller, mode, m.life.gen)
}

// restarted resets the view for the run `r` or `F` started, once the
// engine accepted it: the rows go back to what the new run will redo.
func (m *Model) restarted(mode runctl.Mode) {
	m.footer.clearNotice()
	m.copiedFix = false
	m.run.status, m.run.haltReason = "", ""
	m.run.started, m.run.ended = m.now(), time.Time{}
	if mode == runctl.Fresh {
		// A fresh run counts its own tokens and cost; a resumed one goes
		// on from the run's (its last event carries the run's total).
		m.run.usage = nil
	}
	m.screen, m.focus = screenRun, focusList
	m.summary.SetInput(nil)
	for _, r := range m.phases.rows {
		keep := mode == runctl.Resume && r.done()
		if mode == runctl.Fresh {
			r.log.reset()
			r.commit = nil
		}
		if keep {
			continue
		}
		r.status, r.attempt, r.maxAttempts, r.agent, r.started, r.duration = stPending, 0, 0, "", time.Time{}, 0
		r.worker = ""
		r.failure, r.gates, r.blockedBy, r.note, r.last = nil, nil, nil, "", ""
	}
	m.pane.view.reset()
}

func (m *Model) restyle() {
	m.styles = NewStyles(m.isDark, m.color)
	m.footer.restyle()
}

// selected returns the selected row, or nil when there are none.
func (m *Model) selected() *phaseRow { return m.table.selected() }

// selectRow selects row i; the log pane starts over on a new phase.
func (m *Model) selectRow(i int) {
	if m.table.selectRow(i) {
		m.pane.view.reset()
	}
}

// autoSelect points the selection at the action until the user moves it.
func (m *Model) autoSelect() {
	m.table.clamp()
	if m.table.userMoved || m.table.filter != "" {
		return
	}
	// A phase awaiting review needs the person first.
	for _, want := range []rowStatus{stAwaiting, stRunning, stRetrying, stFailed} {
		for i, r := range m.phases.rows {
			if r.status == want {
				m.selectRow(i)
				return
			}
		}
	}
}

// readOnly reports whether keys that change the run are disabled.
// exitOnComplete says whether --exit-on-complete ends the UI now: the
// run's events have closed on a complete run (the command prints the
// summary once the UI has gone, and `autobuild … && git push` goes on).
func (m *Model) exitOnComplete() bool {
	return m.opts.ExitOnComplete && m.complete() && !m.readOnly()
}

func (m *Model) readOnly() bool { return m.opts.ReadOnly || m.opts.Controller == nil }

// ended reports whether the run has ended, so r and F make sense.
func (m *Model) ended() bool {
	return !m.life.active() && m.run.status != "" && m.run.status != state.RunRunning
}

// View draws the screen.
func (m *Model) View() tea.View {
	// Names, titles and output lines come from plans and agents: whatever
	// reached a view without being cleaned leaves it here.
	v := tea.NewView(clean.Frame(m.render()))
	v.AltScreen = true
	if m.mouse {
		v.MouseMode = tea.MouseModeCellMotion
	}
	v.WindowTitle = "autobuild"
	if m.run.title != "" {
		// The title is the plan's: an OSC sequence in it would reach the terminal.
		v.WindowTitle = "autobuild · " + clean.Line(m.run.title)
	}
	return v
}
