package metrics

import (
	"cmp"
	"math"
	"path/filepath"
	"slices"
	"sort"
	"time"

	"github.com/autobuild-sh/autobuild/internal/history"
	"github.com/autobuild-sh/autobuild/internal/phaseid"
	"github.com/autobuild-sh/autobuild/internal/state"
)

// Filter selects the records a report counts.
type Filter struct {
	// Since, when set, drops records older than it.
	Since time.Time
	// Plans, when set, keeps only the runs of these plan paths (compared
	// cleaned: "./docs/plan.md" is "docs/plan.md").
	Plans []string
}

func (f Filter) keep(r history.Record) bool {
	if !f.Since.IsZero() && r.Time.Before(f.Since) {
		return false
	}
	if len(f.Plans) == 0 {
		return true
	}
	for _, p := range f.Plans {
		if filepath.Clean(p) == filepath.Clean(r.PlanPath) {
			return true
		}
	}
	return false
}

// Compute aggregates the records that pass the filter; now stamps the report.
func Compute(recs []history.Record, f Filter, now time.Time) Report {
	rep := Report{SchemaVersion: SchemaVersion, Generated: now.UTC(), Alerts: []Alert{}, ByType: []TypeCount{},
		ByAgent: []AgentStats{}, Phases: []PhaseStats{}, RunList: []RunStats{}, TopFailures: []FailureGroup{},
		Warnings: []string{}}
	if !f.Since.IsZero() {
		since := f.Since.UTC()
		rep.Since = &since
	}
	if len(f.Plans) > 0 {
		rep.Plan = f.Plans[0]
	}
	var kept []history.Record
	for _, r := range recs {
		if f.keep(r) {
			kept = append(kept, r)
		}
	}
	sort.SliceStable(kept, func(i, j int) bool { return kept[i].Time.Before(kept[j].Time) })
	if len(kept) > 0 {
		first, last := kept[0].Time, kept[len(kept)-1].Time
		rep.First, rep.Last = &first, &last
	}
	a := newAggregator()
	for _, r := range kept {
		a.add(r)
	}
	a.fill(&rep)
	rep.Alerts = alerts(&rep, kept)
	return rep
}

// Keys of the aggregator's maps.
type (
	// planPhase is a phase of a plan, across runs.
	planPhase struct {
		plan string
		id   phaseid.ID
	}
	// runPhase is a phase in one run.
	runPhase struct {
		run string
		id  phaseid.ID
	}
	// sessionPhase is a phase in one session of a run, by its label.
	sessionPhase struct {
		run, session string
		label        phaseid.Display
	}
)

// aggregator collects the counts in one pass over the records.
type aggregator struct {
	sessions   map[string]bool
	runSess    map[string]map[string]bool // run id -> sessions
	types      map[string]int
	agents     map[string]*AgentStats
	workers    map[string]*WorkerStats
	phases     map[planPhase]*PhaseStats
	phaseRuns  map[planPhase]map[string]bool // run ids
	runs       map[string]*RunStats
	phaseExecs map[sessionPhase]bool
	escalated  map[sessionPhase]bool
	usedRuns   map[string]bool
	usedPhases map[runPhase]bool
	recoveries []float64
	groups     map[[2]string]*FailureGroup
	attempted  int // attempts that completed or failed

	rep Report
}

func newAggregator() *aggregator {
	return &aggregator{sessions: map[string]bool{}, runSess: map[string]map[string]bool{}, types: map[string]int{}, agents: map[string]*AgentStats{},
		phases: map[planPhase]*PhaseStats{}, phaseRuns: map[planPhase]map[string]bool{}, runs: map[string]*RunStats{},
		phaseExecs: map[sessionPhase]bool{}, escalated: map[sessionPhase]bool{}, usedRuns: map[string]bool{},
		usedPhases: map[runPhase]bool{}, groups: map[[2]string]*FailureGroup{},
		workers: map[string]*WorkerStats{}}
}

func (a *aggregator) add(r history.Record) {
	a.sessions[r.RunID+" "+r.Session] = true
	run := a.runs[r.RunID]
	if run == nil {
		run = &RunStats{RunID: r.RunID, Plan: r.PlanPath, Start: r.Time, Status: "stopped"}
		a.runs[r.RunID] = run
		a.runSess[r.RunID] = map[string]bool{}
	}
	a.runSess[r.RunID][r.Session] = true
	if r.Kind == history.KindRunEnd {
		run.Status = r.Status
		for _, id := range r.FailedPhases {
			a.escalated[sessionPhase{r.RunID, r.Session, id}] = true
		}
		return
	}
	a.rep.Attempts++
	if r.Outcome == state.OutcomeInterrupted {
		a.rep.Interrupted++
		return
	}
	a.attempted++
	failed := r.Outcome == state.OutcomeFailed
	a.phaseExecs[sessionPhase{r.RunID, r.Session, r.Label()}] = true

	agent := a.agents[r.Agent]
	if agent == nil {
		agent = &AgentStats{Agent: r.Agent, Models: []string{}}
		a.agents[r.Agent] = agent
	}
	agent.Attempts++
	agent.CostUSD += r.CostUSD()
	if r.Model != "" && !slices.Contains(agent.Models, r.Model) {
		agent.Models = append(agent.Models, r.Model)
	}

	var worker *WorkerStats
	if r.Worker != "" {
		if worker = a.workers[r.Worker]; worker == nil {
			worker = &WorkerStats{Worker: r.Worker}
			a.workers[r.Worker] = worker
		}
		worker.Attempts++
	}

	key := planPhase{r.PlanPath, r.PhaseID}
	ph := a.phases[key]
	if ph == nil {
		ph = &PhaseStats{Plan: r.PlanPath, Phase: r.Label(), Name: r.PhaseName}
		a.phases[key] = ph
		a.phaseRuns[key] = map[string]bool{}
	}
	a.phaseRuns[key][r.RunID] = true
	ph.Attempts++
	ph.Tokens += r.Tokens()
	ph.CostUSD += r.CostUSD()

	run.Attempts++
	run.Tokens += r.Tokens()
	run.CostUSD += r.CostUSD()

	if failed {
		a.rep.Failures++
		a.types[r.FailureType]++
		agent.Failures++
		if worker != nil {
			worker.Failures++
		}
		ph.Failures++
		run.Failures++
		a.group(r)
	}
	if r.Retry {
		count(&a.rep.Retry, !failed)
		if r.Reassigned {
			count(&a.rep.Reassignment, !failed)
		}
	}
	if r.RecoveredBy != "" {
		a.rep.Recovery.Count++
		if r.RecoveredBy == history.RecoveredByResume {
			a.rep.Recovery.ByResume++
		} else {
			a.rep.Recovery.ByRetry++
		}
		a.recoveries = append(a.recoveries, r.RecoverySeconds)
	}
	if u := r.Usage; u != nil {
		c := &a.rep.Cost
		c.AttemptsWithUsage++
		c.TotalUSD += r.CostUSD()
		c.InputTokens += u.InputTokens
		c.OutputTokens += u.OutputTokens
		c.CacheReadTokens += u.CacheReadTokens
		c.CacheWriteTokens += u.CacheWriteTokens
		a.usedRuns[r.RunID] = true
		a.usedPhases[runPhase{r.RunID, r.PhaseID}] = true
	}
}

func count(r *Rate, ok bool) {
	r.Total++
	if ok {
		r.Succeeded++
	}
}

// fill writes the collected counts into rep, in a stable order.
func (a *aggregator) fill(rep *Report) {
	rep.Attempts, rep.Failures, rep.Interrupted = a.rep.Attempts, a.rep.Failures, a.rep.Interrupted
	rep.FailureRate = ratio(a.rep.Failures, a.attempted)
	rep.Runs, rep.Sessions = len(a.runs), len(a.sessions)

	for t, n := range a.types {
		rep.ByType = append(rep.ByType, TypeCount{Type: t, Count: n, Share: float64(n) / float64(a.rep.Failures)})
	}
	slices.SortFunc(rep.ByType, func(x, y TypeCount) int { return cmp.Or(y.Count-x.Count, cmp.Compare(x.Type, y.Type)) })
	for _, s := range a.agents {
		s.FailureRate = ratio(s.Failures, s.Attempts)
		s.CostUSD = cents(s.CostUSD)
		rep.ByAgent = append(rep.ByAgent, *s)
	}
	slices.SortFunc(rep.ByAgent, func(x, y AgentStats) int {
		return cmp.Or(y.Attempts-x.Attempts, cmp.Compare(x.Agent, y.Agent))
	})

	for _, s := range a.workers {
		s.FailureRate = ratio(s.Failures, s.Attempts)
		rep.ByWorker = append(rep.ByWorker, *s)
	}
	slices.SortFunc(rep.ByWorker, func(x, y WorkerStats) int {
		return cmp.Or(y.Attempts-x.Attempts, cmp.Compare(x.Worker, y.Worker))
	})

	rep.Retry, rep.Reassignment = a.rep.Retry, a.rep.Reassignment
	rep.Retry.Rate, rep.Reassignment.Rate = ratio(rep.Retry.Succeeded, rep.Retry.Total), ratio(rep.Reassignment.Succeeded, rep.Reassignment.Total)
	goal := RetryGoal
	rep.Retry.Goal = &goal

	rep.Recovery = a.rep.Recovery
	rep.Recovery.MedianSeconds, rep.Recovery.P90Seconds = percentile(a.recoveries, 0.5), percentile(a.recoveries, 0.9)

	rep.Escalation = Escalation{PhaseRuns: len(a.phaseExecs), Goal: EscalationGoal}
	for k := range a.escalated {
		if a.phaseExecs[k] {
			rep.Escalation.Escalated++
		}
	}
	rep.Escalation.Rate = ratio(rep.Escalation.Escalated, rep.Escalation.PhaseRuns)

	rep.Cost = a.rep.Cost
	rep.Cost.TotalUSD = cents(rep.Cost.TotalUSD)
	tokens := float64(rep.Cost.InputTokens + rep.Cost.OutputTokens)
	rep.Cost.PerRunUSD, rep.Cost.PerRunTokens = per(rep.Cost.TotalUSD, len(a.usedRuns)), per(tokens, len(a.usedRuns))
	rep.Cost.PerPhaseUSD, rep.Cost.PerPhaseTokens = per(rep.Cost.TotalUSD, len(a.usedPhases)), per(tokens, len(a.usedPhases))

	for k, p := range a.phases {
		p.Runs = len(a.phaseRuns[k])
		p.FailureRate = ratio(p.Failures, p.Attempts)
		p.CostUSD = cents(p.CostUSD)
		rep.Phases = append(rep.Phases, *p)
	}
	slices.SortFunc(rep.Phases, func(x, y PhaseStats) int {
		return cmp.Or(y.Failures-x.Failures, cmp.Compare(x.Plan, y.Plan), naturalCompare(x.Phase, y.Phase))
	})
	for _, r := range a.runs {
		r.FailureRate = ratio(r.Failures, r.Attempts)
		r.Sessions = len(a.runSess[r.RunID])
		r.CostUSD = cents(r.CostUSD)
		rep.RunList = append(rep.RunList, *r)
	}
	slices.SortFunc(rep.RunList, func(x, y RunStats) int {
		return cmp.Or(x.Start.Compare(y.Start), cmp.Compare(x.RunID, y.RunID))
	})
	for _, g := range a.groups {
		slices.SortFunc(g.Phases, naturalCompare)
		rep.TopFailures = append(rep.TopFailures, *g)
	}
	slices.SortFunc(rep.TopFailures, func(x, y FailureGroup) int {
		return cmp.Or(y.Count-x.Count, y.Last.Compare(x.Last), cmp.Compare(x.Pattern, y.Pattern))
	})
	if len(rep.TopFailures) > maxGroups {
		rep.TopFailures = rep.TopFailures[:maxGroups]
	}
}

// cents rounds a sum of dollars to a millionth, dropping the float noise of
// the addition (0.30000000000000004).
func cents(v float64) float64 { return math.Round(v*1e6) / 1e6 }

func ratio(n, of int) *float64 {
	if of == 0 {
		return nil
	}
	r := float64(n) / float64(of)
	return &r
}

func per(total float64, n int) *float64 {
	if n == 0 {
		return nil
	}
	r := total / float64(n)
	return &r
}

// percentile is the nearest-rank p-th percentile of xs, nil for none.
func percentile(xs []float64, p float64) *float64 {
	if len(xs) == 0 {
		return nil
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	i := int(math.Ceil(p*float64(len(s)))) - 1
	v := s[max(0, min(i, len(s)-1))]
	return &v
}
