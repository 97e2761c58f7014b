package tui

import (
	"fmt"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/autobuild-sh/autobuild/internal/event"
	"github.com/autobuild-sh/autobuild/internal/phaseid"
)

// BenchmarkView500 renders a 500-phase plan mid-run: 50 batches of 10, the
// first 20 batches done, the 21st running with 200 lines of output each, and
// the detail pane on a running phase; at 80×24, at 120×40 (list above the
// pane) and at 160×50 (side by side).
func BenchmarkView500(b *testing.B) {
	for _, sz := range [][2]int{{80, 24}, {120, 40}, {160, 50}} {
		b.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(b *testing.B) { benchView500(b, sz[0], sz[1]) })
	}
}

func benchView500(b *testing.B, w, h int) {
	var batches [][]PhaseInfo
	for i := range 50 {
		var bt []PhaseInfo
		for j := range 10 {
			id := fmt.Sprintf("%d%c", i+1, 'a'+j)
			bt = append(bt, PhaseInfo{ID: phaseid.ID(id), DisplayID: phaseid.Display(fmt.Sprintf("%d%c", i+1, 'A'+j)), Name: fmt.Sprintf("Component %d of wave %d", j, i+1), Batch: i + 1})
		}
		batches = append(batches, bt)
	}
	now := t0.Add(time.Hour)
	m := New(Options{Title: "Big plan", CommitMode: "auto", Agent: "sim", Batches: batches, Controller: &fakeController{}, Now: func() time.Time { return now }})
	m.noTick = true
	m.Update(tea.WindowSizeMsg{Width: w, Height: h})
	var evs []event.Event
	for i, bt := range batches[:21] {
		for _, p := range bt {
			evs = append(evs, started(p.ID, float64(i*60), 1))
			if i < 20 {
				evs = append(evs, completed(p.ID, float64(i*60+50), 50, "0123456789ab", "feat: "+p.Name)...)
				continue
			}
			for k := range 200 {
				evs = append(evs, output(p.ID, float64(i*60+k), fmt.Sprintf("%s: step %d of the work, with a line long enough to be cut", p.ID, k)))
			}
		}
	}
	m.Update(eventsMsg{gen: m.life.gen, events: evs})
	m.Update(keyPress("enter"))
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		_ = m.View()
	}
}
