package wtenv

import (
	"fmt"
	"net"
	"strconv"
	"sync"
)

// Port defaults: each running phase gets DefaultPorts ports from
// DefaultPortBase up, one block after another.
const (
	DefaultPorts    = 10
	DefaultPortBase = 41000
)

// The variables that give a phase its ports (docs/agents.md).
const (
	EnvPort      = "AUTOBUILD_PORT"
	EnvPortCount = "AUTOBUILD_PORT_COUNT"
	EnvPortRange = "AUTOBUILD_PORT_RANGE"
)

// Ports hands each running phase a block of ports no other running phase
// of the run holds. A block where something already listens on
// 127.0.0.1 (another program, another run) is passed over.
type Ports struct {
	base, count int
	// free reports whether nothing listens on the port; tests replace it.
	free func(port int) bool

	mu   sync.Mutex
	held map[int]bool
}

// NewPorts gives blocks of count ports from base (defaults when 0).
func NewPorts(base, count int) *Ports {
	if count <= 0 {
		count = DefaultPorts
	}
	if base <= 0 {
		base = DefaultPortBase
	}
	return &Ports{base: base, count: count, free: portFree, held: map[int]bool{}}
}

// maxBlockTries bounds the search past busy blocks.
const maxBlockTries = 64

// Block is one phase's ports: First to First+Count-1.
type Block struct{ First, Count, slot int }

// Env is the block as environment entries.
func (b Block) Env() []string {
	return []string{
		EnvPort + "=" + strconv.Itoa(b.First),
		EnvPortCount + "=" + strconv.Itoa(b.Count),
		fmt.Sprintf("%s=%d-%d", EnvPortRange, b.First, b.First+b.Count-1),
	}
}

// Acquire takes the first block no running phase holds and where nothing
// listens; Release gives it back.
func (p *Ports) Acquire() Block {
	p.mu.Lock()
	defer p.mu.Unlock()
	first := -1
	for slot := 0; ; slot++ {
		if p.held[slot] {
			continue
		}
		if first < 0 {
			first = slot
		}
		if slot-first >= maxBlockTries || p.blockFree(slot) {
			if slot-first >= maxBlockTries {
				slot = first
			}
			p.held[slot] = true
			return Block{First: p.base + slot*p.count, Count: p.count, slot: slot}
		}
	}
}

func (p *Ports) blockFree(slot int) bool {
	for i := range p.count {
		port := p.base + slot*p.count + i
		if port > 65535 || !p.free(port) {
			return false
		}
	}
	return true
}

// Release gives the block back.
func (p *Ports) Release(b Block) {
	p.mu.Lock()
	delete(p.held, b.slot)
	p.mu.Unlock()
}

// portFree reports whether a listener can take the port on 127.0.0.1.
func portFree(port int) bool {
	l, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(port))
	if err != nil {
		return false
	}
	_ = l.Close()
	return true
}

// Describe says how ports are given: "$AUTOBUILD_PORT: 10 ports per
// running phase, from 41000".
func (p *Ports) Describe() string {
	return fmt.Sprintf("$%s: %d per running phase, from %d ($%s, $%s)", EnvPort, p.count, p.base, EnvPortCount, EnvPortRange)
}
