package config

import (
	"net"
	"strings"
)

// Executor is [executor] (docs/remote.md): where a run's attempts are made.
// Every field is "" when not set.
type Executor struct {
	// Kind is local (the default) or temporal.
	Kind string
	// Address is the Temporal server's HOST:PORT; Namespace and TaskQueue
	// name where the attempts go.
	Address, Namespace, TaskQueue string
	// Remote is the git URL the coordinator pushes attempts' bases to and
	// the workers fetch from and push to.
	Remote string
	// HeartbeatTimeout is how long a worker may go without a heartbeat
	// before its attempt is made again elsewhere (zero: the default, 30s).
	HeartbeatTimeout Duration
}

// Executor kinds.
const (
	ExecutorLocal    = "local"
	ExecutorTemporal = "temporal"
)

// executorFile is [executor] as decoded.
type executorFile struct {
	Kind      string `toml:"kind"`
	Address   string `toml:"address"`
	Namespace string `toml:"namespace"`
	TaskQueue string `toml:"task_queue"`
	Remote    string `toml:"remote"`
	Heartbeat string `toml:"heartbeat_timeout"`
}

// executor checks [executor].
func (c *checker) executor(f *executorFile) Executor {
	if f == nil {
		return Executor{}
	}
	if f.Kind != "" && f.Kind != ExecutorLocal && f.Kind != ExecutorTemporal {
		c.fail("executor.kind", "must be %q or %q, not %q", ExecutorLocal, ExecutorTemporal, f.Kind)
	}
	if f.Address != "" {
		if _, _, err := net.SplitHostPort(f.Address); err != nil {
			c.fail("executor.address", "must be HOST:PORT, such as \"127.0.0.1:7233\", not %q", f.Address)
		}
	}
	if strings.HasPrefix(strings.TrimSpace(f.Remote), "-") {
		c.fail("executor.remote", "must be a git URL or path, not %q", f.Remote)
	}
	return Executor{Kind: f.Kind, Address: f.Address, Namespace: f.Namespace, TaskQueue: f.TaskQueue, Remote: f.Remote,
		HeartbeatTimeout: c.duration("executor.heartbeat_timeout", f.Heartbeat)}
}
