package tui

import (
	"errors"
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/event"
	"github.com/autobuild-sh/autobuild/internal/state"
	"github.com/autobuild-sh/autobuild/internal/watch"
)

// A state of the model to check the bindings in, and the body it has in
// focus there.
type focusCase struct {
	name, body string
	setup      func(t *testing.T) *harness
}

func liveRun(t *testing.T) *harness {
	h := newHarness(t, liveOptions(&fakeController{}), 100, 30)
	h.send(startedMsg{gen: h.m.life.gen, ch: make(chan event.Event)})
	h.feed(midRun())
	return h
}

func haltedRun(t *testing.T) *harness {
	h := liveRun(t)
	h.finish(haltEnd())
	h.send(snapshotMsg{gen: h.m.life.gen, snap: snapshotOf(h.m, state.RunHalted, "Phase 2B failed twice")})
	return h
}

func completeRun(t *testing.T) *harness {
	h := liveRun(t)
	h.finish(completeEnd())
	h.send(snapshotMsg{gen: h.m.life.gen, snap: snapshotOf(h.m, state.RunComplete, "")})
	return h
}

func watching(t *testing.T, status state.RunStatus) *harness {
	ch := make(chan watch.Update, 1)
	h := newHarness(t, Options{Watch: ch, ReadOnly: true, Dir: "repo", Commands: watchCommands("")}, 100, 30)
	if status == "" {
		return h
	}
	src := liveRun(t)
	if status != state.RunRunning {
		src.finish(haltEnd())
	}
	h.send(watchMsg{update: watch.Update{Snapshot: snapshotOf(src.m, status, "Phase 2B failed twice")}})
	return h
}

func reviewing(t *testing.T, read bool) *harness {
	h := liveRun(t)
	h.feed([]event.Event{awaitingEvent()})
	h.key("v")
	if read {
		h.send(reviewLoadedMsg{id: "2a", rev: reviewFixture()})
	}
	return h
}

func focusCases() []focusCase {
	then := func(f func(*testing.T) *harness, keys ...string) func(*testing.T) *harness {
		return func(t *testing.T) *harness {
			h := f(t)
			for _, k := range keys {
				h.key(k)
			}
			return h
		}
	}
	return []focusCase{
		{"starting", "list", func(t *testing.T) *harness { return newHarness(t, liveOptions(&fakeController{}), 100, 30) }},
		{"no phase yet", "empty", func(t *testing.T) *harness {
			return newHarness(t, Options{Controller: &fakeController{}, Commands: liveOptions(nil).Commands}, 100, 30)
		}},
		{"start failed", "empty", func(t *testing.T) *harness {
			h := newHarness(t, Options{Controller: &fakeController{}}, 100, 30)
			h.send(startFailedMsg{gen: h.m.life.gen, err: errors.New("the plan changed")})
			return h
		}},
		{"running list", "list", liveRun},
		{"running list on an awaiting phase", "list", func(t *testing.T) *harness {
			h := liveRun(t)
			h.feed([]event.Event{awaitingEvent()})
			return h
		}},
		{"filtered list", "list", then(liveRun, "/", "2", "enter")},
		{"running pane", "pane", then(liveRun, "enter")},
		{"pane scrolled back", "pane", then(liveRun, "enter", "up")},
		{"pane searched", "pane", then(liveRun, "enter", "/", "P", "r", "o", "enter")},
		{"halt summary", "summary", haltedRun},
		{"halted summary scrolled sideways", "summary", then(haltedRun, "right")},
		{"halted list", "list", then(haltedRun, "esc")},
		{"halted pane", "pane", then(haltedRun, "l")},
		{"halt with the budget reached", "summary", func(t *testing.T) *harness {
			h := haltedRun(t)
			h.m.haltResume = "autobuild plan.md --max-cost 6 --resume"
			return h
		}},
		{"complete summary", "summary", completeRun},
		{"complete list", "list", then(completeRun, "esc")},
		{"watch waiting", "empty", func(t *testing.T) *harness { return watching(t, "") }},
		{"watch running", "list", func(t *testing.T) *harness { return watching(t, state.RunRunning) }},
		{"watch halted", "summary", func(t *testing.T) *harness { return watching(t, state.RunHalted) }},
		{"watch halted list", "list", then(func(t *testing.T) *harness { return watching(t, state.RunHalted) }, "esc")},
		{"review being read", "review", func(t *testing.T) *harness { return reviewing(t, false) }},
		{"review read", "review", func(t *testing.T) *harness { return reviewing(t, true) }},
		{"quit dialog", "dialog", then(liveRun, "q")},
		{"fresh dialog", "dialog", then(haltedRun, "F")},
		{"search prompt", "search", then(liveRun, "enter", "/")},
		{"filter prompt", "filter", then(liveRun, "/")},
		{"steer note", "note", then(liveRun, "M")},
	}
}

// In every state, what has the keys is one body, whose bindings are both
// its help line and its key handling: every key the help line offers is
// taken by a binding that acts or says why it does not (never ignored),
// and every binding that does nothing for a reason shows that reason when
// pressed.
func TestEveryBodyHandlesTheKeysItsHelpOffers(t *testing.T) {
	t.Parallel()
	for _, c := range focusCases() {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			h := c.setup(t)
			b := h.m.active()
			keys := b.keys()
			require.Equal(t, c.body, b.name, "the body in focus")
			if b.typing == nil {
				require.Equal(t, helpLine(keys), h.m.footer.short, "the help line is the body's")
				require.NotEmpty(t, h.m.footer.short)
			} else {
				require.NotNil(t, b.line, "a prompt has the footer's last line")
				require.Equal(t, b.line.question, h.m.footer.question)
				require.Equal(t, b.line.input, h.m.footer.search)
			}
			// No key is taken by two bindings, but esc: it undoes a search
			// or a sideways scroll before it goes back.
			taken := map[string]string{}
			for _, bi := range keys {
				for _, k := range bi.Keys() {
					prev, dup := taken[k]
					require.False(t, dup && k != "esc", "%q is taken by %q, which hides %q", k, prev, bi.Help().Desc)
					taken[k] = bi.Help().Desc
				}
			}
			for _, shown := range helpLine(keys) {
				k := keyPress(shown.Keys()[0])
				taker := route(keys, k)
				require.NotNil(t, taker, "%q is offered by the help line but no binding takes it", shown.Keys()[0])
				if r := taker.reason(); r != nil {
					require.NotEmpty(t, r.text, "%q is offered by the help line, does nothing and does not say why", shown.Keys()[0])
				}
			}
			for i := range keys {
				bi := &keys[i]
				r := bi.reason()
				if r == nil || r.text == "" {
					if r != nil && bi.shown != nil {
						require.False(t, bi.shown(), "%q is offered by the help line but ignored", bi.Keys()[0])
					}
					continue
				}
				k := keyPress(bi.Keys()[0])
				if route(keys, k) != bi {
					continue // an earlier binding takes the key
				}
				before := h.m.screen
				h.send(k)
				require.Equal(t, r.text, h.m.footer.notice, "pressing %q tells why it does nothing", bi.Keys()[0])
				require.Equal(t, before, h.m.screen, "a disabled key changes nothing")
			}
		})
	}
}

// In every state, the `?` help is the bindings of what has the keys and
// the global ones, as the key handling sees them: each key it lists is
// taken by its binding, is dimmed exactly when the binding does nothing,
// with the reason a press shows; a key ignored quietly is not listed; a
// key left out is named by a neighbour's entry; every key the help line
// offers is in it. And `?` shows that help.
func TestFullHelpIsTheBindings(t *testing.T) {
	t.Parallel()
	for _, c := range focusCases() {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			h := c.setup(t)
			b := h.m.active()
			all := append(b.keys(), h.m.globalKeys()...)
			full := h.m.fullHelp()
			var listed []helpEntry
			for _, col := range full.columns {
				require.LessOrEqual(t, len(col), maxHelpRows)
				listed = append(listed, col...)
			}
			why := map[string][]string{}
			for _, n := range full.notNow {
				why[n.reason] = n.keys
			}
			var want []helpEntry
			var fullKeys []string
			for i := range all {
				bi := &all[i]
				if !bi.folded {
					fullKeys = append(fullKeys, bi.fullHelp().Key)
				}
			}
			for i := range all {
				bi := &all[i]
				r := bi.reason()
				name := bi.Keys()[0]
				if bi.folded {
					require.Nil(t, r, "%q is left out of the `?` help but does not always act", name)
					require.True(t, slices.ContainsFunc(fullKeys, func(k string) bool { return strings.Contains(k, bi.Help().Key) }),
						"%q is left out of the `?` help and no entry names %q", name, bi.Help().Key)
					continue
				}
				if r != nil && r.text == "" {
					continue // ignored quietly: not listed
				}
				e := helpEntry{key: bi.fullHelp().Key, desc: bi.fullHelp().Desc, off: r != nil}
				want = append(want, e)
				takes := false
				for _, k := range bi.Keys() {
					takes = takes || route(all, keyPress(k)) == bi
				}
				require.True(t, takes, "the `?` help lists %q (%s), whose keys other bindings take", e.key, e.desc)
				if r != nil && !bi.explainOnPress {
					require.Contains(t, why[r.text], e.key, "the `?` help gives %q's reason", e.key)
				}
			}
			require.ElementsMatch(t, want, listed, "the `?` help is the bindings")
			for _, bi := range all {
				if bi.shown != nil && bi.shown() {
					require.False(t, bi.folded, "the help line offers %q, which the `?` help leaves out", bi.Help().Key)
				}
			}
			for reason := range why {
				require.True(t, slices.ContainsFunc(all, func(bi binding) bool {
					r := bi.reason()
					return r != nil && r.text == reason
				}), "the `?` help gives a reason no key has: %q", reason)
			}

			// What `?` shows is that help.
			if b.typing == nil {
				h.key("?")
			} else {
				h.m.footer.fullHelp = true
				h.send(tea.WindowSizeMsg{Width: h.m.width, Height: h.m.height})
			}
			require.True(t, h.m.footer.fullHelp)
			require.Equal(t, full, h.m.footer.full)
		})
	}
}

// Pressing a key the body has no binding for changes nothing but the
// notice; a prompt takes it as text.
func TestKeysNoBindingTakes(t *testing.T) {
	t.Parallel()
	h := liveRun(t)
	h.m.footer.setNotice("old news", false)
	h.send(tea.KeyPressMsg{Code: 'z', Text: "z"})
	require.Empty(t, h.m.footer.notice, "a key clears the notice")
	h.key("/")
	h.send(tea.KeyPressMsg{Code: 'z', Text: "z"})
	require.Equal(t, "z", h.m.filterInput.text(), "the filter prompt takes it as text")
	h.key("q")
	require.Equal(t, "filter", h.m.active().name, "q is text in a prompt")
}
