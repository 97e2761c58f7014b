package tui

// paneBody is the run view with the log pane in focus: the keys scroll
// and search the selected phase's log; esc undoes a search or a sideways
// scroll, then goes back to the list.
func (m *Model) paneBody() body {
	return body{name: "pane", keys: m.paneBindings, render: m.renderRunView}
}

func (m *Model) paneBindings() []binding {
	k, p := m.keys.Pane, &m.pane
	v := &p.view
	scroll := func(delta func() int) func() {
		return func() { v.scroll(p.content(), p.logHeight(), delta()) }
	}
	page := func() int { return max(1, p.logHeight()-1) }
	var keys []binding
	if v.query != "" || v.xoff > 0 {
		// Before Back, which shares its esc.
		keys = append(keys, act(k.Clear, func() {
			v.setQuery("", p.content(), p.logHeight())
			v.xoff = 0
		}).fullAs("esc", "clear search and scroll"))
	}
	keys = append(keys,
		act(k.Down, scroll(func() int { return 1 })).help().fullAs("↑/k ↓/j", "scroll"),
		act(k.Follow, func() { v.follow = true }).helpIf(func() bool { return !v.follow }).fullAs("G/end", "follow the log"),
	)
	keys = append(keys, m.runControls(true, false)...)
	keys = append(keys, m.quitHelp()...)
	keys = append(keys,
		act(k.Search, m.startSearch).help(),
		act(k.Next, func() { v.next(p.content(), p.logHeight(), 1) }).helpIf(func() bool { return v.query != "" }),
		act(k.Back, func() { m.focus = focusList }).help().fullAs("esc/tab", "phase list"),
		act(k.Up, scroll(func() int { return -1 })).fold(),
		act(k.PageUp, scroll(func() int { return -page() })).fold(),
		act(k.PageDown, scroll(page)).fullAs("pgup/pgdn", "page"),
		act(k.Top, func() { v.home(p.content()) }),
		act(k.Left, func() { v.xoff = max(0, v.xoff-8) }).fold(),
		act(k.Right, func() { v.xoff += 8 }).fullAs("←/→", "scroll sideways"),
		act(k.Prev, func() { v.next(p.content(), p.logHeight(), -1) }).fold(),
	)
	return append(keys, m.otherRunKeys()...)
}
