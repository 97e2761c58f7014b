package tui

import (
	tea "charm.land/bubbletea/v2"
)

// searchInput is the one-line search prompt of the detail pane. It is
// deliberately tiny: bubbles/textinput would pull in a clipboard module the
// project does not otherwise need, and a search box needs typing, backspace
// and pasting only.
type searchInput struct {
	value []rune
	// max bounds the value's length (200 when 0).
	max int
}

func (s *searchInput) set(v string) { s.value = []rune(v) }

// limit is how many characters the prompt takes: a search is short, a
// note to a retry may be a few sentences.
func (s *searchInput) limit() int {
	if s.max > 0 {
		return s.max
	}
	return 200
}
func (s *searchInput) text() string { return string(s.value) }

// update edits the value for a key press or a paste.
func (s *searchInput) update(msg tea.Msg) {
	switch msg := msg.(type) {
	case tea.PasteMsg:
		s.value = append(s.value, []rune(sanitize(msg.Content))...)
	case tea.KeyPressMsg:
		switch msg.String() {
		case "backspace", "ctrl+h":
			if len(s.value) > 0 {
				s.value = s.value[:len(s.value)-1]
			}
		case "ctrl+u":
			s.value = s.value[:0]
		case "ctrl+w":
			for len(s.value) > 0 && s.value[len(s.value)-1] == ' ' {
				s.value = s.value[:len(s.value)-1]
			}
			for len(s.value) > 0 && s.value[len(s.value)-1] != ' ' {
				s.value = s.value[:len(s.value)-1]
			}
		default:
			if msg.Text != "" && len(s.value) < s.limit() {
				s.value = append(s.value, []rune(sanitize(msg.Text))...)
			}
		}
	}
}

// view draws the prompt with a block cursor, cut to w cells from the left
// so the end of a long query stays visible, then its keys (help).
func (s *searchInput) view(w int, styles Styles, prompt, help string) string {
	if prompt == "" {
		prompt = "/"
	}
	v := string(s.value)
	for len([]rune(v))+len([]rune(prompt))+1 > w && v != "" {
		_, size := firstRune(v)
		v = v[size:]
	}
	return styles.Prompt.Render(prompt) + v + styles.Current.Render(" ") + styles.Dim.Render("  "+help)
}

func firstRune(s string) (rune, int) {
	for i, r := range s {
		if i > 0 {
			return r, i
		}
	}
	return 0, len(s)
}
