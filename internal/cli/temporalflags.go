package cli

import (
	"github.com/spf13/pflag"

	"github.com/autobuild-sh/autobuild/internal/remote"
)

// addTemporalFlags adds the flags that say where the Temporal server is,
// shared by a run (--executor temporal) and `autobuild worker`.
func addTemporalFlags(f *pflag.FlagSet, c *remote.Conn) {
	f.StringVar(&c.Address, "temporal", "", "the Temporal server's `HOST:PORT` (default $TEMPORAL_ADDRESS or "+remote.DefaultAddress+")")
	f.StringVar(&c.Namespace, "namespace", "", "the Temporal namespace (default "+remote.DefaultNamespace+")")
	f.StringVar(&c.TaskQueue, "task-queue", "", "the task queue attempts go through (default "+remote.DefaultTaskQueue+")")
	f.BoolVar(&c.TLS, "tls", false, "connect to the Temporal server with TLS (on with an API key, from $TEMPORAL_API_KEY)")
}
