// Package tui is autobuild's terminal UI (README, "The terminal UI"): a Bubble Tea program that
// supervises a run live, shows the halt summary and resumes with a key, or
// follows a run started elsewhere (`autobuild watch`), read-only.
//
// # Modes
//
// Live: the model starts the run through a Controller (the CLI wires it to
// the engine) and renders the engine's events. Watch: it renders updates of
// the state directory from internal/watch; keys that would change the run
// explain how to do it instead. Both draw the same views:
//
//   - Run view: a header (plan, commit mode, agent, elapsed time, counts by
//     status, progress bar), the phases grouped by batch (status glyph with a
//     spinner while running, id, name, attempt n/2, agent, elapsed time, last
//     output line or why it stopped: "blocked by 2B"), and a detail pane with
//     the selected phase's log, its gate results and its failure report. The
//     two sit one above the other, or side by side from 140 columns.
//   - Summary: the boxed halt or completion summary, the same text as the
//     plain output (internal/summary), scrollable so nothing is lost at 80×24.
//
// # Keys
//
// Everywhere:
//
//	?          full help: every key of the screen or prompt in focus; one
//	           that does nothing now is dimmed, with why (the bottom line
//	           always lists the keys valid now)
//	q          quit; while a run is going it asks "Halt the run and quit? y/n",
//	           then halts gracefully like ctrl+c and quits once the run ended;
//	           once the run has reported its end (halted, complete) it quits
//	           at once, even while the run's last listeners still finish
//	ctrl+c     halt the run gracefully and quit when it has; twice: kill the
//	           running phases at once (docs/running.md)
//	l          the log of the failed phase
//	r          after a halt: resume in place (the same process re-runs the
//	           engine with --resume semantics); read-only: shows the command;
//	           after a complete run: says there is nothing to resume
//	F          after a halt: start fresh, after a y/n confirmation;
//	           read-only or after a complete run: shows the command
//	           (neither r nor F is offered once the run is complete)
//	s          after the run ended: back to the summary (during a run it says
//	           when the summary comes)
//	c          after a halt: copy the fix command when the halt knows it (the
//	           demo's), then the resume command (OSC 52)
//	m          mouse reporting on/off: on, the wheel scrolls what is under the
//	           pointer (shift+drag still selects in most terminals); off, the
//	           terminal has the mouse for its own selection
//
// Phase list:
//
//	↑/↓ k/j    select a phase        pgup/pgdn g/G home/end   jump
//	enter/tab  focus the detail pane
//	/          filter the phases as it is typed (id, name, status, agent;
//	           enter keeps it, esc shows all)
//	v          review the phase awaiting review (--review): the review screen
//
// Review screen (reviewflow.go): ↑/↓ pgup/pgdn g/G scroll; a approve (A:
// every phase of its batch that waits); x
// reject with a note (typed in the footer, enter sends it); e or o open the
// worktree in $EDITOR or a shell, then the run checks the gates again on
// what changed; esc leaves the phase waiting. In watch mode too: decisions
// are files under .autobuild/review/, which the run reads.
//
// Detail pane:
//
//	↑/↓ k/j pgup/pgdn   scroll; scrolling up pauses follow mode
//	G/end               follow the log again      g/home  top
//	←/→                 scroll sideways (long lines are cut, not wrapped);
//	                    the title shows the offset (→16 esc)
//	/  n  N             search (smart case, starting empty), next and
//	                    previous match; the title shows "/q 3/10"
//	esc                 clear the search and the sideways scroll, then back
//	                    to the list (tab too)
//
// Summary: ↑/↓ pgup/pgdn g/G scroll; esc/enter the phase list. The halt's
// commands follow the box whole, broken between words with a backslash
// where the screen is narrower (pasted, they are one command).
//
// With Options.ExitOnComplete (--exit-on-complete) the UI ends when a run
// completes, for scripts; otherwise it stays until q.
//
// # Design
//
// One root Model owns all state; the views are methods that read it and a
// layout computed after every Update. Update never blocks and never does
// I/O: starting the run, interrupting it, reading the state files and
// waiting for events run in tea.Cmds whose results return as messages.
// Events are read in batches (up to 512 per Update), so a flood of output
// costs few updates; each phase keeps only the last Options.LogLines lines
// (5000 by default, each at most 2 KB), so a phase printing a gigabyte does
// not grow memory. The engine itself never waits for the screen: its events
// go through event.Bus, which drops old output lines for a slow reader and
// never drops any other event.
//
// Notices (a resume hint, an error) wrap between words rather than cut a
// command short, and a notice about the run goes when the run changes state.
//
// Styles come from one Styles value built for a dark or light background
// (tea.RequestBackgroundColor; $COLORFGBG until, or unless, the terminal
// answers) and without colors under NO_COLOR or a
// colorless terminal; keys from one KeyMap that also feeds the help line.
package tui
