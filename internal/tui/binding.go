package tui

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// binding is one key of what has the keys: its keys and help (the
// key.Binding), what it does, when it does nothing and why, and when the
// help line offers it (lazygit's Binding with its GetDisabledReason). A
// body's bindings are both its key handling and its help line, so the two
// cannot drift.
type binding struct {
	key.Binding
	// do is what the key does when it is not disabled.
	do func() tea.Cmd
	// disabled says why the key does nothing now; nil when it acts. The
	// reason is the notice a press shows; a quiet one (no text) ignores
	// the key, which only a key the help line does not offer may do.
	disabled func() *disabledReason
	// shown says whether the help line offers the key now; nil: never
	// (a key left to the `?` help).
	shown func() bool
	// full is the key's entry in the `?` help when it says more than the
	// help line's (zero: the same).
	full key.Help
	// folded leaves the key out of the `?` help: a neighbour's entry
	// names it too ("↑/k ↓/j" names up with down).
	folded bool
	// group is the `?` help's column for the key.
	group helpGroup
	// explainOnPress keeps the key's reason out of the `?` help, which
	// dims the key only: the reason is about the selected phase, not the
	// run, and its entry says already what the key is for.
	explainOnPress bool
}

// helpGroup is a column of the `?` help: what has the keys, the run's
// keys, the keys that work everywhere.
type helpGroup int

const (
	groupBody helpGroup = iota
	groupRun
	groupGlobal
)

// disabledReason is why a binding does nothing now.
type disabledReason struct{ text string }

// because is a disabled binding's reason.
func because(text string) *disabledReason { return &disabledReason{text: text} }

// quietly disables a binding without a notice.
func quietly() *disabledReason { return &disabledReason{} }

// bind is a binding that does do; it is enabled and not in the help line
// until told otherwise.
func bind(k key.Binding, do func() tea.Cmd) binding { return binding{Binding: k, do: do} }

// act is bind for an action that returns no command.
func act(k key.Binding, do func()) binding {
	return bind(k, func() tea.Cmd { do(); return nil })
}

// when disables b while off says why.
func (b binding) when(off func() *disabledReason) binding {
	b.disabled = off
	return b
}

// help puts b in the help line, always.
func (b binding) help() binding { return b.helpIf(func() bool { return true }) }

// helpIf puts b in the help line while show says so.
func (b binding) helpIf(show func() bool) binding {
	b.shown = show
	return b
}

// helpAs is b shown in the help line as keys and desc.
func (b binding) helpAs(keys, desc string) binding {
	b.Binding = helpKey(b.Binding, keys, desc)
	return b
}

// fullAs is b in the `?` help as keys and desc.
func (b binding) fullAs(keys, desc string) binding {
	b.full = key.Help{Key: keys, Desc: desc}
	return b
}

// fold leaves b out of the `?` help, where a neighbour names its keys.
func (b binding) fold() binding {
	b.folded = true
	return b
}

// onPress keeps b's reason out of the `?` help: a press tells it.
func (b binding) onPress() binding {
	b.explainOnPress = true
	return b
}

// in puts b in the `?` help's column g.
func (b binding) in(g helpGroup) binding {
	b.group = g
	return b
}

// fullHelp is b's entry in the `?` help.
func (b *binding) fullHelp() key.Help {
	if b.full.Key != "" {
		return b.full
	}
	return b.Help()
}

// reason is why b does nothing now; nil when it acts.
func (b *binding) reason() *disabledReason {
	if b.disabled == nil {
		return nil
	}
	return b.disabled()
}

// route is the binding of bs that takes k: the first whose keys match.
func route(bs []binding, k tea.KeyPressMsg) *binding {
	for i := range bs {
		if key.Matches(k, bs[i].Binding) {
			return &bs[i]
		}
	}
	return nil
}

// press gives k to the binding of bs that takes it: it acts, or says why
// it does not. It reports false when no binding takes k.
func (m *Model) press(bs []binding, k tea.KeyPressMsg) (tea.Cmd, bool) {
	b := route(bs, k)
	if b == nil {
		return nil, false
	}
	if r := b.reason(); r != nil {
		if r.text != "" {
			m.footer.setNotice(r.text, false)
		}
		return nil, true
	}
	return b.do(), true
}

// helpLine is the help line of bs: the bindings it offers now, in order.
func helpLine(bs []binding) []key.Binding {
	var out []key.Binding
	for _, b := range bs {
		if b.shown != nil && b.shown() {
			out = append(out, b.Binding)
		}
	}
	return out
}
