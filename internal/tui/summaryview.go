package tui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/viewport"

	"github.com/autobuild-sh/autobuild/internal/summary"
)

// summaryMaxWidth is the widest the summary box is drawn.
const summaryMaxWidth = 100

// summaryView is the halt or completion summary (the same text the plain
// printer prints, docs/running.md) in a viewport, so a summary taller than
// the screen loses no line.
type summaryView struct {
	vp viewport.Model
	in *summary.Input
	// fix is the fix command shown whole under a halt box (the demo's).
	fix string
	// width is the screen's width; rendered the width the text was drawn
	// for, to draw it again only when that changes.
	width, rendered int
}

func newSummaryView() summaryView { return summaryView{vp: viewport.New()} }

// shown reports whether there is a summary to show.
func (v *summaryView) shown() bool { return v.in != nil }

// SetInput draws the summary of in (nil: none) at the current width.
func (v *summaryView) SetInput(in *summary.Input) {
	v.in = in
	v.render()
}

// SetSize sets the screen's size; the text is drawn again when its width
// changes.
func (v *summaryView) SetSize(w, h int) {
	v.width = w
	v.vp.SetWidth(w)
	v.vp.SetHeight(h)
	if v.in != nil && min(w, summaryMaxWidth) != v.rendered {
		v.render()
	}
	// A taller body (a notice gone, a resize) must not leave the summary
	// scrolled past its end, showing blank lines.
	v.vp.SetYOffset(v.vp.YOffset())
}

func (v *summaryView) render() {
	if v.in == nil {
		return
	}
	w := min(max(v.width, 20), summaryMaxWidth)
	v.rendered = w
	// The text ends with a newline; kept, it would be a blank line that
	// makes a summary that fits look scrollable.
	v.vp.SetContent(strings.TrimRight(summary.Render(*v.in, w), "\n") + unbrokenCommands(v.in, v.fix, max(v.width, 20)))
}

// Render draws the visible part of the summary.
func (v *summaryView) Render() []string { return strings.Split(v.vp.View(), "\n") }

// scrollLabel is " 42%" when the summary is taller than the screen, so a
// long one is seen to scroll; "" when it fits.
func (v *summaryView) scrollLabel() string {
	side := ""
	if x := v.vp.XOffset(); x > 0 {
		side = fmt.Sprintf(" →%d esc", x) // scrolled sideways: how far, and how back
	}
	if v.vp.TotalLineCount() <= v.vp.Height() {
		return side
	}
	return fmt.Sprintf("%s %3.0f%%", side, v.vp.ScrollPercent()*100)
}

// top scrolls to the summary's first line.
func (v *summaryView) top() { v.vp.GotoTop() }

// summaryBody is the halt or completion summary: the keys scroll it;
// esc undoes a sideways scroll, then goes back to the phase list.
func (m *Model) summaryBody() body {
	return body{name: "summary", keys: m.summaryBindings, render: m.summary.Render}
}

func (m *Model) summaryBindings() []binding {
	k, vp := m.keys.Summary, &m.summary.vp
	var keys []binding
	if vp.XOffset() > 0 {
		// Before Back, which shares its esc.
		keys = append(keys, act(m.keys.Pane.Clear, func() { vp.SetXOffset(0) }).fullAs("esc", "scroll back left"))
	}
	keys = append(keys, act(k.Down, func() { vp.ScrollDown(1) }).help().fullAs("↑/k ↓/j", "scroll"))
	keys = append(keys, m.runControls(true, true)...)
	keys = append(keys, m.quitHelp()...)
	keys = append(keys,
		m.copyBinding(true),
		act(k.Back, func() { m.screen, m.focus = screenRun, focusList }).help().fullAs("esc/enter", "phase list"),
		act(k.Up, func() { vp.ScrollUp(1) }).fold(),
		act(k.PageUp, func() { vp.PageUp() }).fold(),
		act(k.PageDown, func() { vp.PageDown() }).fullAs("pgup/pgdn", "page"),
		act(k.Top, func() { vp.GotoTop() }),
		act(k.Bottom, func() { vp.GotoBottom() }),
		act(k.Left, func() { vp.ScrollLeft(8) }).fold(),
		act(k.Right, func() { vp.ScrollRight(8) }).fullAs("←/→", "scroll sideways"),
		m.mouseBinding(),
	)
	return keys
}
