package remote

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"time"

	"go.temporal.io/api/serviceerror"
	"go.temporal.io/api/workflowservice/v1"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/log"
)

// Conn is where the Temporal server is, for a coordinator and a worker
// alike (the [executor] table of autobuild.toml, the worker's flags).
type Conn struct {
	// Address is HOST:PORT of the server's frontend.
	Address   string
	Namespace string
	TaskQueue string
	// APIKey (Temporal Cloud, or a server behind an API-key proxy) turns
	// TLS on; TLS alone is for a server with a certificate of a known CA.
	APIKey string
	TLS    bool
	// Log receives the SDK's own log (warnings and up); nil drops it.
	Log io.Writer
}

// Defaults of a Conn's zero fields and of the environment.
const (
	DefaultAddress   = "127.0.0.1:7233"
	DefaultNamespace = "default"
	DefaultTaskQueue = "autobuild"
	// EnvAddress names the server when no flag does, as the temporal CLI
	// reads it.
	EnvAddress = "TEMPORAL_ADDRESS"
	// EnvAPIKey holds the API key, so it never shows in a process list.
	EnvAPIKey = "TEMPORAL_API_KEY"
	// PreflightLimit bounds the checks before a run or a worker starts.
	PreflightLimit = 8 * time.Second
)

// WithDefaults fills in the zero fields: TEMPORAL_ADDRESS or 127.0.0.1:7233,
// the default namespace, the autobuild task queue, TEMPORAL_API_KEY.
func (c Conn) WithDefaults() Conn {
	if c.Address == "" {
		c.Address = os.Getenv(EnvAddress)
	}
	if c.Address == "" {
		c.Address = DefaultAddress
	}
	if c.Namespace == "" {
		c.Namespace = DefaultNamespace
	}
	if c.TaskQueue == "" {
		c.TaskQueue = DefaultTaskQueue
	}
	if c.APIKey == "" {
		c.APIKey = os.Getenv(EnvAPIKey)
	}
	return c
}

// Dial connects to the server and checks, within PreflightLimit, that it
// answers and that the namespace exists. Its errors name the address and
// the fix.
func Dial(ctx context.Context, c Conn, identity string) (client.Client, error) {
	c = c.WithDefaults()
	ctx, cancel := context.WithTimeout(ctx, PreflightLimit)
	defer cancel()
	out := c.Log
	if out == nil {
		out = io.Discard
	}
	opts := client.Options{
		HostPort: c.Address, Namespace: c.Namespace, Identity: identity,
		Logger: log.NewStructuredLogger(slog.New(slog.NewTextHandler(out, &slog.HandlerOptions{Level: slog.LevelWarn}))),
	}
	if c.APIKey != "" {
		opts.Credentials = client.NewAPIKeyStaticCredentials(c.APIKey)
		c.TLS = true
	}
	if c.TLS {
		opts.ConnectionOptions.TLS = &tls.Config{MinVersion: tls.VersionTLS12}
	}
	cl, err := client.DialContext(ctx, opts)
	if err != nil {
		return nil, fmt.Errorf("the Temporal server at %s does not answer (%v): start one (`temporal server start-dev`, or tools/temporal-dev) or point autobuild at yours (--temporal HOST:PORT, $%s, [executor] address)",
			c.Address, shortErr(err), EnvAddress)
	}
	_, err = cl.WorkflowService().DescribeNamespace(ctx, &workflowservice.DescribeNamespaceRequest{Namespace: c.Namespace})
	var nf *serviceerror.NamespaceNotFound
	switch {
	case errors.As(err, &nf):
		cl.Close()
		return nil, fmt.Errorf("the Temporal server at %s has no namespace %q: create it (`temporal operator namespace create --namespace %s --address %s`) or name another (--namespace, [executor] namespace)",
			c.Address, c.Namespace, c.Namespace, c.Address)
	case err != nil:
		cl.Close()
		return nil, fmt.Errorf("the Temporal server at %s did not describe namespace %q (%v): check the address, the namespace and the credentials (--api-key, $%s)",
			c.Address, c.Namespace, shortErr(err), EnvAPIKey)
	}
	return cl, nil
}

// shortErr is an error's message without the gRPC wrapping's repetition.
func shortErr(err error) string {
	if errors.Is(err, context.DeadlineExceeded) {
		return fmt.Sprintf("no answer within %s", PreflightLimit)
	}
	return err.Error()
}
