package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"go.temporal.io/api/workflowservice/v1"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
)

// waitReady returns once the frontend at hostport answers DescribeNamespace
// for every namespace, or ctx ends.
func waitReady(ctx context.Context, hostport string, namespaces []string) error {
	conn, err := grpc.NewClient(hostport, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		return fmt.Errorf("dial %s: %w", hostport, err)
	}
	defer conn.Close()
	client := workflowservice.NewWorkflowServiceClient(conn)
	for _, ns := range namespaces {
		for {
			callCtx, cancel := context.WithTimeout(ctx, 2*time.Second)
			_, err = client.DescribeNamespace(callCtx, &workflowservice.DescribeNamespaceRequest{Namespace: ns})
			cancel()
			if err == nil {
				break
			}
			select {
			case <-ctx.Done():
				return fmt.Errorf("namespace %q on %s: %w (last error: %v)", ns, hostport, ctx.Err(), err)
			case <-time.After(50 * time.Millisecond):
			}
		}
	}
	return nil
}

// writeReadyFile writes hostport and a newline to path, atomically, so a
// reader that sees the file sees all of it.
func writeReadyFile(path, hostport string) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".temporal-dev-ready-*")
	if err != nil {
		return fmt.Errorf("ready file: %w", err)
	}
	if _, err := tmp.WriteString(hostport + "\n"); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return fmt.Errorf("ready file: %w", err)
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("ready file: %w", err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("ready file: %w", err)
	}
	return nil
}
