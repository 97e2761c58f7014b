package sim

import (
	"bytes"
	"os"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/agent"
	"github.com/autobuild-sh/autobuild/internal/failreport"
	"github.com/autobuild-sh/autobuild/internal/failure"
)

func TestSimLimitStep(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 24, 1, 0, 0, 0, time.UTC)
	for spec, want := range map[string]failreport.Type{"usage 1h30m5s": failreport.RateLimited, "rate": failreport.RateLimited, "context": failreport.ContextExhausted} {
		sc, err := ParseScenario([]byte(`{"default": {"steps": [{"say": "x"}, {"limit": "` + spec + `"}, {"say": "never"}]}}`))
		require.NoError(t, err, spec)
		var out, errb bytes.Buffer
		p := player{dir: t.TempDir(), stdout: &out, stderr: &errb, sleep: func(time.Duration) {}, speed: 1, phase: "1"}
		require.Equal(t, 1, p.play(*sc.Default), "a limit stops the agent")
		require.NotContains(t, out.String(), "never")
		cl, err := failure.NewClassifier(nil)
		require.NoError(t, err)
		rep := cl.Classify(failure.Evidence{AgentRan: true, AgentExitCode: 1, AgentOutput: errb.String()})
		require.Equal(t, want, rep.Type, spec)
		if spec == "usage 1h30m5s" {
			l := failure.ReadLimit(errb.String(), now)
			require.True(t, l.Usage)
			require.Equal(t, now.Add(90*time.Minute+5*time.Second), l.ResetsAt)
		}
	}
	_, err := ParseScenario([]byte(`{"default": {"steps": [{"limit": "usage soon"}]}}`))
	require.ErrorContains(t, err, `a usage limit needs the time to its reset, such as "usage 5s"`)
	_, err = ParseScenario([]byte(`{"default": {"steps": [{"limit": "quota"}]}}`))
	require.ErrorContains(t, err, `write "usage 5s", "rate" or "context"`)
}

func TestScenarioEntriesFollowAgentRuns(t *testing.T) {
	t.Parallel()
	env := map[string]string{agent.EnvPhaseID: "1", agent.EnvAttempt: "1", agent.EnvAgentRun: "2"}
	sc := `{"phases": {"1": [{"steps": [{"say": "first"}]}, {"steps": [{"say": "second"}]}]}}`
	path := t.TempDir() + "/s.json"
	require.NoError(t, writeTestFile(path, sc))
	var out bytes.Buffer
	require.Equal(t, 0, Main([]string{path}, func(k string) string { return env[k] }, nil, &out, &bytes.Buffer{}))
	require.Contains(t, out.String(), "second", "the repeat of a limited attempt plays the next entry")
}

func writeTestFile(path, content string) error {
	return os.WriteFile(path, []byte(content), 0o644)
}
