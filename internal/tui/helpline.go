package tui

import "charm.land/bubbles/v2/key"

// The help line lists the keys valid now: the shown bindings of what has
// the keys (active), in their order. Each body orders them so that the
// keys that matter most come first, then quit and help, then the
// conveniences: the line cuts from the end when it is too wide.

// shortHelp is the help line of the screen that has the keys.
func (m *Model) shortHelp() []key.Binding { return helpLine(m.screenBody().keys()) }
