package config

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestLoadExecutor(t *testing.T) {
	cfg, err := Load(write(t, `[executor]
kind = "temporal"
address = "temporal.internal:7233"
namespace = "builds"
task_queue = "gpu"
remote = "ssh://git@git.internal/app.git"
heartbeat_timeout = "10s"
`))
	require.NoError(t, err)
	require.Equal(t, Executor{Kind: "temporal", Address: "temporal.internal:7233", Namespace: "builds",
		TaskQueue: "gpu", Remote: "ssh://git@git.internal/app.git", HeartbeatTimeout: Duration{10 * time.Second}}, cfg.Executor)

	cfg, err = Load(write(t, "max_parallel = 2\n"))
	require.NoError(t, err)
	require.Equal(t, Executor{}, cfg.Executor, "no table: local")
}

func TestExecutorMistakesAreNamed(t *testing.T) {
	for text, want := range map[string]string{
		"[executor]\nkind = \"k8s\"\n":          `executor.kind: must be "local" or "temporal"`,
		"[executor]\naddress = \"localhost\"\n": "executor.address: must be HOST:PORT",
		"[executor]\nremote = \"--upload=x\"\n": "executor.remote: must be a git URL",
		"[executor]\ntaskqueue = \"x\"\n":       "known keys: kind, address, namespace, task_queue, remote",
	} {
		_, err := Load(write(t, text))
		require.ErrorContains(t, err, want, text)
	}
}
