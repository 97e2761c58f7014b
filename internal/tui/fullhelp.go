package tui

// The `?` help is made of the same bindings as the keys and the help line:
// those of what has the keys (active) and the global ones (ctrl+c). Keys
// that do nothing now for a reason are drawn dimmed, and their reasons
// follow; keys ignored quietly are left out.

// maxHelpRows is how many keys a column of the `?` help holds at most.
const maxHelpRows = 6

// helpEntry is one key of the `?` help.
type helpEntry struct {
	key, desc string
	off       bool // disabled now: drawn dimmed, its reason below
}

// notNow is why keys do nothing now: keys with the same reason share it.
type notNow struct {
	keys   []string
	reason string
}

// fullHelpView is the `?` help: its columns, then why the dimmed keys do
// nothing now.
type fullHelpView struct {
	columns [][]helpEntry
	notNow  []notNow
}

// globalKeys work whatever has the keys, a prompt included: ctrl+c.
func (m *Model) globalKeys() []binding {
	desc := "quit"
	switch {
	case m.haltable() && m.life.halting():
		desc = "kill the running phases"
	case m.haltable():
		desc = "halt (twice: kill)"
	}
	return []binding{bind(m.keys.Run.Interrupt, m.interrupt).fullAs("ctrl+c", desc).in(groupGlobal)}
}

// fullHelp is the `?` help of what has the keys now.
func (m *Model) fullHelp() fullHelpView {
	return fullHelpOf(append(m.active().keys(), m.globalKeys()...))
}

// fullHelpOf lays bs out as the `?` help: the body's keys in columns of at
// most maxHelpRows, then the run's keys, then the global ones.
func fullHelpOf(bs []binding) fullHelpView {
	var v fullHelpView
	groups := make([][]helpEntry, groupGlobal+1)
	because := map[string]int{} // reason → its index in v.notNow
	for i := range bs {
		b := &bs[i]
		r := b.reason()
		if b.folded || (r != nil && r.text == "") {
			continue
		}
		h := b.fullHelp()
		groups[b.group] = append(groups[b.group], helpEntry{key: h.Key, desc: h.Desc, off: r != nil})
		if r == nil || b.explainOnPress {
			continue
		}
		j, ok := because[r.text]
		if !ok {
			j = len(v.notNow)
			because[r.text] = j
			v.notNow = append(v.notNow, notNow{reason: r.text})
		}
		v.notNow[j].keys = append(v.notNow[j].keys, h.Key)
	}
	if n := len(groups[groupBody]); n > 0 {
		cols := (n + maxHelpRows - 1) / maxHelpRows
		rows := (n + cols - 1) / cols
		for i := 0; i < n; i += rows {
			v.columns = append(v.columns, groups[groupBody][i:min(i+rows, n)])
		}
	}
	for _, g := range groups[groupRun:] {
		if len(g) > 0 {
			v.columns = append(v.columns, g)
		}
	}
	return v
}
