package metrics

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/autobuild-sh/autobuild/internal/human"
	"github.com/autobuild-sh/autobuild/internal/phaseid"
	"github.com/autobuild-sh/autobuild/internal/textwrap"
)

// Width bounds for Render.
const (
	MinWidth = 40
	MaxWidth = 100
)

// maxBar is the longest bar of the failure types' chart.
const maxBar = 40

// maxRows bounds the phases and runs tables in text (--json has them all).
const maxRows = 10

// Options say how to draw a report.
type Options struct {
	// Width is the terminal's width, clamped to MinWidth..MaxWidth.
	Width int
	Look  Look
	// Loc is the time zone of the times shown (time.Local when nil).
	Loc *time.Location
}

// Render draws the report: the alerts first, then a sparkline of the
// failure rate per run, a bar chart of the failure types, the rates against
// the design's goals, cost, and the phases, runs and failure messages that
// matter most.
func Render(rep Report, opt Options) string {
	loc := opt.Loc
	if loc == nil {
		loc = time.Local
	}
	r := renderer{st: newStyles(opt.Look), w: max(MinWidth, min(opt.Width, MaxWidth)), loc: loc}
	r.header(rep)
	if rep.Attempts == 0 {
		r.line("")
		r.wrapped("No attempts recorded yet"+r.scope(rep)+". Every run appends to .autobuild/history.jsonl: "+
			"run a plan (or autobuild demo) and ask again.", 0)
		r.warnings(rep)
		return r.String()
	}
	r.alerts(rep)
	r.spark(rep)
	r.types(rep)
	r.agents(rep)
	r.workers(rep)
	r.rates(rep)
	r.phases(rep)
	r.runs(rep)
	r.failures(rep)
	r.warnings(rep)
	return r.String()
}

type renderer struct {
	st  styles
	w   int
	loc *time.Location
	b   strings.Builder
}

func (r *renderer) String() string { return r.b.String() }

// line writes one line, cut to the width (styled parts included).
func (r *renderer) line(s string) {
	r.b.WriteString(ansi.Truncate(s, r.w, "…") + "\n")
}

// wrapped writes plain text wrapped at the width, later lines indented.
func (r *renderer) wrapped(s string, indent int) { r.styled(s, indent, lipgloss.NewStyle()) }

// styled is wrapped with every line in one style.
func (r *renderer) styled(s string, indent int, st lipgloss.Style) {
	for i, l := range textwrap.Words(s, r.w, indent) {
		if i > 0 {
			l = strings.Repeat(" ", indent) + l
		}
		r.line(st.Render(l))
	}
}

func (r *renderer) section(title string) {
	r.line("")
	r.line(r.st.heading.Render(title))
}

func (r *renderer) scope(rep Report) string {
	var parts []string
	if rep.Plan != "" {
		parts = append(parts, "for "+clean(rep.Plan))
	}
	if rep.Since != nil {
		parts = append(parts, "since "+rep.Since.In(r.loc).Format("2006-01-02 15:04"))
	}
	if len(parts) == 0 {
		return ""
	}
	return " " + strings.Join(parts, ", ")
}

func (r *renderer) header(rep Report) {
	r.styled("autobuild report"+r.scope(rep), 2, r.st.heading)
	if rep.Attempts == 0 {
		return
	}
	span := ""
	if rep.First != nil && rep.Last != nil {
		span = ", " + rep.First.In(r.loc).Format("Jan 2 15:04") + " to " + rep.Last.In(r.loc).Format("Jan 2 15:04")
	}
	r.wrapped(fmt.Sprintf("%s (%s), %s%s", human.Count(rep.Runs, "run", "runs"), human.Count(rep.Sessions, "session", "sessions"),
		human.Count(rep.Attempts, "attempt", "attempts"), span), 2)
}

func (r *renderer) alerts(rep Report) {
	if len(rep.Alerts) == 0 {
		r.styled("No alerts: failure rate at or under 20%, no failure type more than 5 times.", 0, r.st.good)
		return
	}
	for _, a := range rep.Alerts {
		label := strings.ToUpper(a.Level)
		pad := strings.Repeat(" ", max(0, 12-len(label)))
		lines := textwrap.Words(a.Message, r.w-13, 0)
		r.line(r.st.level(a.Level).Render(label) + pad + " " + lines[0])
		for _, l := range lines[1:] {
			r.line(strings.Repeat(" ", 13) + l)
		}
	}
}

func (r *renderer) spark(rep Report) {
	r.section("Failure rate per run")
	values := make([]*float64, len(rep.RunList))
	for i, run := range rep.RunList {
		values[i] = run.FailureRate
	}
	overall := "-"
	if rep.FailureRate != nil {
		overall = Percent(*rep.FailureRate)
	}
	tail := fmt.Sprintf("%s overall, %d of %d attempts failed", overall, rep.Failures, rep.Attempts-rep.Interrupted)
	room := r.w - 2
	line := sparkline(values, room)
	if w := ansi.StringWidth(line); 2+w+2+ansi.StringWidth(tail) <= r.w {
		r.line("  " + r.st.spark.Render(line) + "  " + tail)
	} else {
		r.line("  " + r.st.spark.Render(line))
		r.wrapped("  "+tail, 2)
	}
	note := "one mark per run, oldest first; ▁ none failed, █ all failed"
	if shown := min(len(values), room); shown < len(values) {
		note = fmt.Sprintf("the last %d of %d runs, oldest first", shown, len(values))
	}
	r.styled("  "+note, 2, r.st.dim)
}

func (r *renderer) types(rep Report) {
	if len(rep.ByType) == 0 {
		return
	}
	r.section("Failures by type")
	label, most := 0, 0
	for _, t := range rep.ByType {
		label, most = max(label, len(t.Type)), max(most, t.Count)
	}
	label = min(label, r.w/3)
	for _, t := range rep.ByType {
		nums := fmt.Sprintf(" %d  %s", t.Count, Percent(t.Share))
		room := min(maxBar, r.w-2-label-2-len(nums)-1)
		name := ansi.Truncate(t.Type, label, "…")
		r.line("  " + name + strings.Repeat(" ", label-ansi.StringWidth(name)) + "  " +
			r.st.bar.Render(bar(t.Count, most, room)) + nums)
	}
}

func (r *renderer) agents(rep Report) {
	r.section("By agent")
	var rows [][]string
	for _, a := range rep.ByAgent {
		rows = append(rows, []string{clean(a.Agent), clean(strings.Join(a.Models, ", ")), strconv.Itoa(a.Attempts),
			strconv.Itoa(a.Failures), pct(a.FailureRate), USD(a.CostUSD)})
	}
	for _, l := range table([]column{{title: "AGENT", flex: true}, {title: "MODELS", drop: 2, flex: true},
		{title: "ATTEMPTS", right: true}, {title: "FAILED", right: true}, {title: "RATE", right: true},
		{title: "COST", right: true, drop: 1}}, rows, r.w) {
		r.line(l)
	}
}

// workers is the attempts per worker of runs made on workers (--executor
// temporal); nothing for local runs.
func (r *renderer) workers(rep Report) {
	if len(rep.ByWorker) == 0 {
		return
	}
	r.section("By worker")
	var rows [][]string
	for _, w := range rep.ByWorker {
		rows = append(rows, []string{clean(w.Worker), strconv.Itoa(w.Attempts), strconv.Itoa(w.Failures), pct(w.FailureRate)})
	}
	for _, l := range table([]column{{title: "WORKER", flex: true}, {title: "ATTEMPTS", right: true},
		{title: "FAILED", right: true}, {title: "RATE", right: true}}, rows, r.w) {
		r.line(l)
	}
}

func (r *renderer) rates(rep Report) {
	r.section("Does the retry help?")
	row := func(name, text string) { r.wrapped(fmt.Sprintf("  %-13s %s", name, text), 16) }
	if rt := rep.Retry; rt.Total > 0 {
		row("Retry", fmt.Sprintf("%d of %s succeeded (%s; goal %s)", rt.Succeeded, human.Count(rt.Total, "retry", "retries"),
			pct(rt.Rate), Percent(RetryGoal)))
	} else {
		row("Retry", "no retry ran")
	}
	if rt := rep.Reassignment; rt.Total > 0 {
		row("Reassigned", fmt.Sprintf("%d of %s on another agent succeeded (%s)", rt.Succeeded, human.Count(rt.Total, "retry", "retries"),
			pct(rt.Rate)))
	} else {
		row("Reassigned", "no retry ran on another agent (give a second --agent to try one)")
	}
	if rc := rep.Recovery; rc.Count > 0 {
		row("Recovery", fmt.Sprintf("%s recovered (%d by retry, %d by a person's resume): median %s, p90 %s",
			human.Count(rc.Count, "failed phase", "failed phases"), rc.ByRetry, rc.ByResume, secs(rc.MedianSeconds), secs(rc.P90Seconds)))
	} else {
		row("Recovery", "no failed phase has completed since")
	}
	e := rep.Escalation
	row("Escalation", fmt.Sprintf("%d of %s needed a person (%s; goal under %s)", e.Escalated,
		human.Count(e.PhaseRuns, "phase run", "phase runs"), pct(e.Rate), Percent(EscalationGoal)))
	c := rep.Cost
	if c.AttemptsWithUsage == 0 {
		row("Cost", "no agent reported tokens or cost")
		return
	}
	row("Cost", fmt.Sprintf("%s, %s tokens in and %s out, over %s; a run %s and %s tokens, a phase %s and %s tokens",
		USD(c.TotalUSD), Tokens(float64(c.InputTokens)), Tokens(float64(c.OutputTokens)),
		human.Count(c.AttemptsWithUsage, "attempt", "attempts"), usd(c.PerRunUSD), tokens(c.PerRunTokens), usd(c.PerPhaseUSD),
		tokens(c.PerPhaseTokens)))
}

func (r *renderer) phases(rep Report) {
	r.section("Phases, most failures first")
	multi := multiplePlans(rep)
	var rows [][]string
	for i, p := range rep.Phases {
		if i == maxRows {
			break
		}
		id := string(p.Phase)
		if multi {
			id = p.Plan + ":" + id
		}
		rows = append(rows, []string{clean(id), clean(p.Name), strconv.Itoa(p.Runs), strconv.Itoa(p.Attempts),
			strconv.Itoa(p.Failures), pct(p.FailureRate), Tokens(float64(p.Tokens)), USD(p.CostUSD)})
	}
	for _, l := range table([]column{{title: "PHASE"}, {title: "NAME", flex: true, drop: 3},
		{title: "RUNS", right: true, drop: 1}, {title: "ATTEMPTS", right: true}, {title: "FAILED", right: true},
		{title: "RATE", right: true}, {title: "TOKENS", right: true, drop: 2}, {title: "COST", right: true, drop: 1}},
		rows, r.w) {
		r.line(l)
	}
	if n := len(rep.Phases); n > maxRows {
		r.line(r.st.dim.Render(fmt.Sprintf("  and %d more (--json has them all)", n-maxRows)))
	}
}

func (r *renderer) runs(rep Report) {
	r.section("Runs, newest first")
	var rows [][]string
	for i := len(rep.RunList) - 1; i >= 0 && len(rows) < maxRows; i-- {
		run := rep.RunList[i]
		rows = append(rows, []string{run.Start.In(r.loc).Format("Jan 2 15:04"), clean(run.Plan), run.Status,
			strconv.Itoa(run.Sessions), strconv.Itoa(run.Attempts), strconv.Itoa(run.Failures),
			Tokens(float64(run.Tokens)), USD(run.CostUSD)})
	}
	for _, l := range table([]column{{title: "STARTED"}, {title: "PLAN", flex: true, drop: 3}, {title: "STATUS", flex: true},
		{title: "SESSIONS", right: true, drop: 4}, {title: "ATTEMPTS", right: true}, {title: "FAILED", right: true},
		{title: "TOKENS", right: true, drop: 2}, {title: "COST", right: true, drop: 1}}, rows, r.w) {
		r.line(l)
	}
	if n := len(rep.RunList); n > maxRows {
		r.line(r.st.dim.Render(fmt.Sprintf("  and %d older (--json has them all)", n-maxRows)))
	}
}

func (r *renderer) failures(rep Report) {
	if len(rep.TopFailures) == 0 {
		return
	}
	r.section("Most frequent failures")
	r.styled("  grouped with numbers, paths and hashes set aside", 2, r.st.dim)
	for i, g := range rep.TopFailures {
		if i == 5 {
			break
		}
		head := fmt.Sprintf("  %d× %s in %s", g.Count, g.Type, phaseid.Join(g.Phases, ", "))
		r.wrapped(clean(head), 6)
		r.wrapped("     "+clean(g.Pattern), 5)
	}
}

func (r *renderer) warnings(rep Report) {
	if len(rep.Warnings) == 0 {
		return
	}
	r.section("Skipped history lines")
	for _, w := range rep.Warnings {
		r.wrapped("  "+clean(w), 4)
	}
}

func multiplePlans(rep Report) bool {
	for _, p := range rep.Phases {
		if p.Plan != rep.Phases[0].Plan {
			return true
		}
	}
	return false
}

// clean makes text from a plan or an agent safe for the terminal.
func clean(s string) string { return textwrap.CleanLine(s) }

func pct(r *float64) string {
	if r == nil {
		return "-"
	}
	return Percent(*r)
}

func secs(s *float64) string {
	if s == nil {
		return "-"
	}
	return human.Duration(*s)
}

func usd(v *float64) string {
	if v == nil {
		return "-"
	}
	return USD(*v)
}

func tokens(v *float64) string {
	if v == nil {
		return "-"
	}
	return Tokens(*v)
}
