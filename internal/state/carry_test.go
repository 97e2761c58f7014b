package state

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestCarryTakesFromThePreviousRunOnlyWhatIsNotGiven(t *testing.T) {
	prev := &Run{CommitMode: CommitSingle, Schedule: ScheduleEager, AgentSpecs: []string{"sim"}, Scenario: "/s.yaml"}
	for _, tc := range []struct {
		name    string
		prev    *Run
		given   Choice
		want    Choice
		carried bool
	}{
		{"no earlier run", nil, Choice{CommitMode: CommitAuto}, Choice{CommitMode: CommitAuto}, false},
		{"nothing given", prev, Choice{}, Choice{CommitMode: CommitSingle, Schedule: ScheduleEager, AgentSpecs: []string{"sim"}, Scenario: "/s.yaml"}, true},
		{"commit mode and schedule given", prev, Choice{CommitMode: CommitAuto, Schedule: ScheduleBatches},
			Choice{CommitMode: CommitAuto, Schedule: ScheduleBatches, AgentSpecs: []string{"sim"}, Scenario: "/s.yaml"}, true},
		{"agents given: the scenario stays with the old agents", prev, Choice{AgentSpecs: []string{"claude"}},
			Choice{CommitMode: CommitSingle, Schedule: ScheduleEager, AgentSpecs: []string{"claude"}}, false},
		{"scenario given with carried agents", prev, Choice{Scenario: "/t.yaml"},
			Choice{CommitMode: CommitSingle, Schedule: ScheduleEager, AgentSpecs: []string{"sim"}, Scenario: "/t.yaml"}, true},
		{"an old run without agents", &Run{CommitMode: CommitAuto}, Choice{}, Choice{CommitMode: CommitAuto}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, carried := Carry(tc.prev, tc.given)
			require.Equal(t, tc.want, got)
			require.Equal(t, tc.carried, carried)
		})
	}
}
