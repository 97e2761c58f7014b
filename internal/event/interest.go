package event

// OutputInterest says which output lines (PhaseOutput events) a consumer
// shows. The engine asks the bus for the largest interest of its
// subscribers before it turns output into events at all: a flood that
// nobody shows costs the log file, not an event and a string per line.
type OutputInterest int32

const (
	// OutputNone: the consumer never shows an output line (the plain
	// printer without -v). The bus does not deliver PhaseOutput to it.
	OutputNone OutputInterest = iota
	// OutputLatest: the consumer shows only the most recent line of a
	// phase (the heartbeat), so lines read together may be coalesced into
	// their last one.
	OutputLatest
	// OutputAll: the consumer shows every line (the TUI, the JSON
	// printer, the plain printer with -v). The default.
	OutputAll
)

// OutputInterested is implemented by a Sink that knows what its consumers
// show. A Sink that does not implement it is taken to show every line.
type OutputInterested interface {
	OutputInterest() OutputInterest
}

// InterestOf is the output interest of sink: OutputAll unless it says less.
func InterestOf(sink Sink) OutputInterest {
	if oi, ok := sink.(OutputInterested); ok {
		return oi.OutputInterest()
	}
	return OutputAll
}

// ShowOutput sets which output lines the subscription shows (OutputAll
// until it is called) and returns it.
func (s *Subscription) ShowOutput(i OutputInterest) *Subscription {
	s.bus.mu.Lock()
	s.interest.Store(int32(i))
	s.bus.recountInterest()
	s.bus.mu.Unlock()
	return s
}

// OutputInterest is the largest interest of the live subscriptions;
// OutputNone when there are none. It is one atomic load: the engine asks
// once per read of a process's output.
func (b *Bus) OutputInterest() OutputInterest { return OutputInterest(b.interest.Load()) }

// recountInterest recomputes the bus's interest. Called with b.mu held.
func (b *Bus) recountInterest() {
	most := OutputNone
	for _, s := range b.subs {
		most = max(most, OutputInterest(s.interest.Load()))
	}
	b.interest.Store(int32(most))
}
