// Command temporal-dev runs a single-process Temporal server for development
// and tests: the frontend on 127.0.0.1, the sqlite store in memory (or in a
// file with --db-file), the namespaces registered before start. It is what
// `temporal server start-dev` runs, without the web UI, built from the Go
// module go.temporal.io/server so that autobuild's own module does not carry
// the server's dependencies.
//
// When the frontend answers calls for every namespace it prints
// "ready HOST:PORT" on stdout and, with --ready-file, writes HOST:PORT to that
// file. It stops on SIGINT or SIGTERM, and with --exit-with-stdin when its
// standard input closes (so it does not outlive a test binary that dies).
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"go.temporal.io/server/common/log"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "temporal-dev:", err)
		os.Exit(1)
	}
}

func parseFlags(args []string) (options, error) {
	var o options
	fs := flag.NewFlagSet("temporal-dev", flag.ContinueOnError)
	fs.StringVar(&o.IP, "ip", "127.0.0.1", "address the server listens on")
	fs.IntVar(&o.Port, "port", 7233, "frontend gRPC port (0 picks a free one; the ready line names it)")
	fs.IntVar(&o.HTTPPort, "http-port", 0, "frontend HTTP API port (0 picks a free one)")
	fs.Func("namespace", `namespace to register (repeatable; default "default")`, func(v string) error {
		if strings.TrimSpace(v) == "" {
			return errors.New("empty namespace")
		}
		o.Namespaces = append(o.Namespaces, v)
		return nil
	})
	fs.StringVar(&o.DBFile, "db-file", "", "sqlite file to keep the server's state across restarts (default: in memory)")
	fs.StringVar(&o.LogLevel, "log-level", "warn", "server log level on stderr: debug, info, warn, error")
	fs.StringVar(&o.ReadyFile, "ready-file", "", "write HOST:PORT to this file once the server is ready")
	fs.BoolVar(&o.StdinExit, "exit-with-stdin", false, "stop when standard input reaches end of file")
	if err := fs.Parse(args); err != nil {
		return o, err
	}
	if fs.NArg() > 0 {
		return o, fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	if len(o.Namespaces) == 0 {
		o.Namespaces = []string{"default"}
	}
	return o, nil
}

func run(args []string) error {
	o, err := parseFlags(args)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		return err
	}
	if o.Port == 0 {
		if o.Port, err = freePort(o.IP); err != nil {
			return err
		}
	}
	if o.HTTPPort == 0 {
		if o.HTTPPort, err = freePort(o.IP); err != nil {
			return err
		}
	}
	conf, err := serverConfig(o)
	if err != nil {
		return err
	}
	logger := log.NewZapLogger(log.BuildZapLogger(log.Config{Level: o.LogLevel, Format: "console"}))
	server, err := newServer(conf, logger)
	if err != nil {
		return err
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if o.StdinExit {
		go func() {
			_, _ = io.Copy(io.Discard, os.Stdin)
			stop()
		}()
	}

	if err := server.Start(); err != nil {
		return fmt.Errorf("start the server on %s: %w", o.frontend(), err)
	}
	defer server.Stop()

	readyCtx, cancel := context.WithTimeout(ctx, time.Minute)
	err = waitReady(readyCtx, o.frontend(), o.Namespaces)
	cancel()
	if err != nil {
		return fmt.Errorf("server did not become ready: %w", err)
	}
	if o.ReadyFile != "" {
		if err := writeReadyFile(o.ReadyFile, o.frontend()); err != nil {
			return err
		}
	}
	fmt.Printf("ready %s\n", o.frontend())
	<-ctx.Done()
	return nil
}
