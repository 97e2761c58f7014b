// Package metrics turns the history across runs (package history) into the
// figures of `autobuild report`: how often phases fail, of which type, with
// which agent, whether the retry helps, how long recovery takes, how often a
// person is needed, and what it cost. Report is also the stable --json
// schema; Render draws it for a terminal.
package metrics

import (
	"time"

	"github.com/autobuild-sh/autobuild/internal/phaseid"
)

// SchemaVersion is the --json schema's version. Fields are only added
// within a version; a removal or a change of meaning bumps it.
const SchemaVersion = 1

// The goals of the failure response design, shown next to the figures.
const (
	RetryGoal      = 0.90 // of retries succeed
	EscalationGoal = 0.05 // at most, of phase runs need a person
)

// Report is everything `autobuild report` says. A rate is null (nil) when
// there is nothing to divide by.
type Report struct {
	SchemaVersion int        `json:"schema_version"`
	Generated     time.Time  `json:"generated"`
	Since         *time.Time `json:"since,omitempty"`
	Plan          string     `json:"plan,omitempty"`
	// First and Last are the times of the first and last record counted.
	First *time.Time `json:"first,omitempty"`
	Last  *time.Time `json:"last,omitempty"`

	Runs     int `json:"runs"`
	Sessions int `json:"sessions"`
	// Attempts counts every attempt that ended; Interrupted ones (Ctrl-C)
	// are neither a success nor a failure and are left out of the rates.
	Attempts    int      `json:"attempts"`
	Failures    int      `json:"failures"`
	Interrupted int      `json:"interrupted"`
	FailureRate *float64 `json:"failure_rate"`

	Alerts       []Alert        `json:"alerts"`
	ByType       []TypeCount    `json:"by_type"`
	ByAgent      []AgentStats   `json:"by_agent"`
	ByWorker     []WorkerStats  `json:"by_worker,omitempty"`
	Retry        Rate           `json:"retry"`
	Reassignment Rate           `json:"reassignment"`
	Recovery     Recovery       `json:"recovery"`
	Escalation   Escalation     `json:"escalation"`
	Cost         Cost           `json:"cost"`
	Phases       []PhaseStats   `json:"phases"`
	RunList      []RunStats     `json:"run_list"`
	TopFailures  []FailureGroup `json:"top_failures"`
	// Warnings are the history lines that were skipped (a torn last line).
	Warnings []string `json:"warnings"`
}

// Alert levels, most severe first.
const (
	LevelEmergency   = "emergency"   // no attempt completed for an hour of failures
	LevelCritical    = "critical"    // failure rate over 50%
	LevelWarning     = "warning"     // failure rate over 20%
	LevelInvestigate = "investigate" // one failure type more than 5 times
)

// Alert is one of the design's alert levels that the figures reach.
type Alert struct {
	Level   string `json:"level"`
	Message string `json:"message"`
}

// TypeCount is how often one failure type occurred; Share is of all failures.
type TypeCount struct {
	Type  string  `json:"type"`
	Count int     `json:"count"`
	Share float64 `json:"share"`
}

// AgentStats are one agent's attempts.
type AgentStats struct {
	Agent       string   `json:"agent"`
	Models      []string `json:"models"`
	Attempts    int      `json:"attempts"`
	Failures    int      `json:"failures"`
	FailureRate *float64 `json:"failure_rate"`
	CostUSD     float64  `json:"cost_usd"`
}

// WorkerStats are one worker's attempts (--executor temporal), most first
// in ByWorker, which is absent when no attempt ran on a worker.
type WorkerStats struct {
	Worker      string   `json:"worker"`
	Attempts    int      `json:"attempts"`
	Failures    int      `json:"failures"`
	FailureRate *float64 `json:"failure_rate"`
}

// Rate is how many of Total succeeded; Goal is the design's target, if any.
type Rate struct {
	Total     int      `json:"total"`
	Succeeded int      `json:"succeeded"`
	Rate      *float64 `json:"rate"`
	Goal      *float64 `json:"goal,omitempty"`
}

// Recovery is how failed phases came to complete: by the automatic retry or
// by a person's resume, and how long after the first failure.
type Recovery struct {
	Count         int      `json:"count"`
	ByRetry       int      `json:"by_retry"`
	ByResume      int      `json:"by_resume"`
	MedianSeconds *float64 `json:"median_seconds"`
	P90Seconds    *float64 `json:"p90_seconds"`
}

// Escalation is how many phase runs (a phase in one invocation) ended
// failed in a halt, needing a person.
type Escalation struct {
	PhaseRuns int      `json:"phase_runs"`
	Escalated int      `json:"escalated"`
	Rate      *float64 `json:"rate"`
	Goal      float64  `json:"goal"`
}

// Cost sums the attempts' usage; the averages are over the runs and the
// phases (a phase in one run) that reported any.
type Cost struct {
	TotalUSD          float64  `json:"total_usd"`
	InputTokens       int64    `json:"input_tokens"`
	OutputTokens      int64    `json:"output_tokens"`
	CacheReadTokens   int64    `json:"cache_read_tokens"`
	CacheWriteTokens  int64    `json:"cache_write_tokens"`
	AttemptsWithUsage int      `json:"attempts_with_usage"`
	PerRunUSD         *float64 `json:"per_run_usd"`
	PerPhaseUSD       *float64 `json:"per_phase_usd"`
	PerRunTokens      *float64 `json:"per_run_tokens"`
	PerPhaseTokens    *float64 `json:"per_phase_tokens"`
}

// PhaseStats are one phase's attempts across runs.
type PhaseStats struct {
	Plan        string          `json:"plan"`
	Phase       phaseid.Display `json:"phase"`
	Name        string          `json:"name,omitempty"`
	Runs        int             `json:"runs"`
	Attempts    int             `json:"attempts"`
	Failures    int             `json:"failures"`
	FailureRate *float64        `json:"failure_rate"`
	Tokens      int64           `json:"tokens"`
	CostUSD     float64         `json:"cost_usd"`
}

// RunStats is one run (its sessions together), oldest first in RunList.
type RunStats struct {
	RunID string    `json:"run_id"`
	Plan  string    `json:"plan"`
	Start time.Time `json:"started"`
	// Status is the last session's end: complete, halted, interrupted, or
	// "stopped" when none was recorded (killed, or still running).
	Status      string   `json:"status"`
	Sessions    int      `json:"sessions"`
	Attempts    int      `json:"attempts"`
	Failures    int      `json:"failures"`
	FailureRate *float64 `json:"failure_rate"`
	Tokens      int64    `json:"tokens"`
	CostUSD     float64  `json:"cost_usd"`
}

// FailureGroup is failures of one type whose messages are the same once
// numbers, paths and hashes are set aside: likely one systemic cause.
type FailureGroup struct {
	Type    string            `json:"type"`
	Pattern string            `json:"pattern"`
	Count   int               `json:"count"`
	Phases  []phaseid.Display `json:"phases"`
	// Example is the latest message of the group, as it was.
	Example string    `json:"example"`
	Last    time.Time `json:"last"`
}
