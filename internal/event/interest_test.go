package event

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The bus's interest is the largest of its live subscriptions'; a
// subscription that shows no output gets every other event but no line.
func TestOutputInterest(t *testing.T) {
	t.Parallel()
	bus := NewBus()
	assert.Equal(t, OutputNone, bus.OutputInterest(), "nobody listens")

	quiet := bus.Subscribe(100).ShowOutput(OutputNone)
	assert.Equal(t, OutputNone, bus.OutputInterest())
	beat := bus.Subscribe(100).ShowOutput(OutputLatest)
	assert.Equal(t, OutputLatest, bus.OutputInterest())
	all := bus.Subscribe(100)
	assert.Equal(t, OutputAll, bus.OutputInterest(), "a subscription shows every line until told otherwise")
	assert.Equal(t, OutputAll, InterestOf(bus))

	bus.Emit(Event{Kind: PhaseStarted, PhaseID: "1"})
	bus.Emit(Event{Kind: PhaseOutput, PhaseID: "1", Line: "hello"})
	bus.Emit(Event{Kind: PhaseCompleted, PhaseID: "1"})
	all.Unsubscribe()
	assert.Equal(t, OutputLatest, bus.OutputInterest(), "an unsubscribed consumer no longer counts")
	bus.Close()

	kinds := func(s *Subscription) []Kind {
		var ks []Kind
		for e := range s.C {
			ks = append(ks, e.Kind)
		}
		return ks
	}
	assert.Equal(t, []Kind{PhaseStarted, PhaseCompleted}, kinds(quiet))
	assert.Equal(t, []Kind{PhaseStarted, PhaseOutput, PhaseCompleted}, kinds(beat))
}

// A Sink that does not say what it shows is taken to show everything.
func TestInterestOfAPlainSink(t *testing.T) {
	t.Parallel()
	require.Equal(t, OutputAll, InterestOf(SinkFunc(func(Event) {})))
}
