package tui

import (
	"fmt"
	"strings"
	"time"

	"github.com/autobuild-sh/autobuild/internal/phaseid"
	"github.com/autobuild-sh/autobuild/internal/review"
	clean "github.com/autobuild-sh/autobuild/internal/sanitize"
)

// reviewView is the review screen: a phase awaiting review (--review), its
// facts (attempt, gates, the agent's summary, usage), its files, then its
// hunks, then the attempt's last lines, scrolled as one page. It owns its
// scroll position and the note prompt of a rejection.
type reviewView struct {
	styles        *Styles
	width, height int
	now           time.Time

	// id is the phase shown; rev its review once read (nil while it is
	// read), err why it could not be.
	id  phaseid.ID
	rev *review.Review
	err error
	top int
}

// shown reports whether a review is open.
func (v *reviewView) shown() bool { return v.id != "" }

// open starts showing phase id, whose review is being read.
func (v *reviewView) open(id phaseid.ID) {
	*v = reviewView{styles: v.styles, width: v.width, height: v.height, now: v.now, id: id}
}

// close leaves the review screen.
func (v *reviewView) close() { v.open("") }

// SetSize sets the screen's size.
func (v *reviewView) SetSize(w, h int) {
	v.width, v.height = w, h
	v.clamp()
}

// loaded takes the review read for the phase shown; a review of another
// phase (the person moved on) is dropped. A new change of the same phase
// (the gates ran again) keeps the scroll position.
func (v *reviewView) loaded(id phaseid.ID, rev *review.Review, err error) {
	if id != v.id {
		return
	}
	v.rev, v.err = rev, err
	v.clamp()
}

// lines is the whole page, styled, each cut to the width.
func (v *reviewView) lines() []string {
	s, w := v.styles, max(v.width, 10)
	cut := func(line string) string { return truncate(clean.ExpandTabs(clean.Line(line)), w) }
	switch {
	case v.err != nil:
		return []string{"", s.Error.Render(cut("  Cannot show the review: " + v.err.Error()))}
	case v.rev == nil:
		return []string{"", s.Dim.Render("  Reading the change of phase " + string(v.id) + " …")}
	}
	r := v.rev
	out := []string{s.Title.Render(cut(fmt.Sprintf("Review · Phase %s: %s", r.Phase.DisplayID.Or(r.Phase.PhaseID), r.Phase.PhaseName)))}
	for _, f := range r.Facts(v.now) {
		out = append(out, cut("  "+f))
	}
	out = append(out, "", s.Section.Render(cut(sectionPrefix+"files ──")))
	for _, f := range r.Files {
		counts := s.DiffAdd.Render(fmt.Sprintf("+%d", f.Added)) + " " + s.DiffDel.Render(fmt.Sprintf("-%d", f.Removed))
		out = append(out, truncateStyled(fmt.Sprintf("  %s %s  ", f.StatusLetter(), cut(f.Path))+counts, w))
	}
	if len(r.Files) == 0 {
		out = append(out, s.Dim.Render("  (no change)"))
	}
	for _, f := range r.Files {
		out = append(out, "", s.Section.Render(cut(sectionPrefix+f.Path+" ("+f.Status+") ──")))
		if f.Binary {
			out = append(out, s.Dim.Render("  (binary)"))
		}
		for _, h := range f.Hunks {
			out = append(out, s.DiffHunk.Render(cut(h.Header)))
			for _, l := range h.Lines {
				switch {
				case strings.HasPrefix(l, "+"):
					out = append(out, s.DiffAdd.Render(cut(l)))
				case strings.HasPrefix(l, "-"):
					out = append(out, s.DiffDel.Render(cut(l)))
				default:
					out = append(out, cut(l))
				}
			}
		}
	}
	if len(r.LogTail) > 0 {
		out = append(out, "", s.Section.Render(cut(sectionPrefix+"the attempt's last lines ──")))
		for _, l := range r.LogTail {
			out = append(out, s.Dim.Render(cut("  "+l)))
		}
	}
	return out
}

// Render draws the visible part of the page, exactly height lines at most.
func (v *reviewView) Render() []string {
	all := v.lines()
	top := min(v.top, max(0, len(all)-v.height))
	end := min(len(all), top+v.height)
	return all[top:end]
}

func (v *reviewView) clamp() {
	v.top = max(0, min(v.top, len(v.lines())-v.height))
}
