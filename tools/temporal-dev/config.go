package main

// The server configuration follows temporalio/cli's internal/devserver
// (MIT licence, Copyright (c) 2022 Temporal Technologies Inc.), which is what
// `temporal server start-dev` runs: one process with the frontend, history,
// matching and worker services, a sqlite store (in memory unless a file is
// given), one history shard and the namespaces registered before start.

import (
	"fmt"
	"math/rand/v2"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/google/uuid"
	"go.temporal.io/server/common/cluster"
	"go.temporal.io/server/common/config"
	sqliteplugin "go.temporal.io/server/common/persistence/sql/sqlplugin/sqlite"
	sqliteschema "go.temporal.io/server/schema/sqlite"
)

const (
	clusterName  = "active"
	storeName    = "sqlite-default"
	failoverBase = 1
)

// options are what the flags decide.
type options struct {
	IP         string
	Port       int
	HTTPPort   int
	Namespaces []string
	DBFile     string // "" keeps the store in memory
	LogLevel   string
	ReadyFile  string
	StdinExit  bool
}

func (o options) frontend() string {
	return net.JoinHostPort(o.IP, strconv.Itoa(o.Port))
}

// serverConfig builds the server's static configuration. It picks a free port
// for each internal service and for the frontend's HTTP API.
func serverConfig(o options) (*config.Config, error) {
	sqlConf, err := sqlConfig(o)
	if err != nil {
		return nil, err
	}
	var conf config.Config
	conf.Global.Membership.MaxJoinDuration = 30 * time.Second
	conf.Global.Membership.BroadcastAddress = o.IP
	conf.Persistence.DefaultStore = storeName
	conf.Persistence.VisibilityStore = storeName
	conf.Persistence.NumHistoryShards = 1
	conf.Persistence.DataStores = map[string]config.DataStore{storeName: {SQL: sqlConf}}
	conf.ClusterMetadata = &cluster.Config{
		FailoverVersionIncrement: 10,
		MasterClusterName:        clusterName,
		CurrentClusterName:       clusterName,
		ClusterInformation: map[string]cluster.ClusterInformation{
			clusterName: {
				Enabled:                true,
				InitialFailoverVersion: failoverBase,
				RPCAddress:             o.frontend(),
				HTTPAddress:            net.JoinHostPort(o.IP, strconv.Itoa(o.HTTPPort)),
				ClusterID:              uuid.NewString(),
			},
		},
	}
	conf.DCRedirectionPolicy.Policy = "noop"
	conf.Services = map[string]config.Service{}
	for _, name := range []string{"frontend", "history", "matching", "worker"} {
		svc := config.Service{}
		svc.RPC.BindOnIP = o.IP
		if name == "frontend" {
			svc.RPC.GRPCPort = o.Port
			svc.RPC.HTTPPort = o.HTTPPort
		} else if svc.RPC.GRPCPort, err = freePort(o.IP); err != nil {
			return nil, err
		}
		conf.Services[name] = svc
	}
	conf.Archival.History.State = "disabled"
	conf.Archival.Visibility.State = "disabled"
	conf.NamespaceDefaults.Archival.History.State = "disabled"
	conf.NamespaceDefaults.Archival.Visibility.State = "disabled"
	conf.PublicClient.HostPort = o.frontend()
	return &conf, nil
}

// sqlConfig returns the sqlite store's configuration with the schema in place
// and the namespaces registered. In memory the schema is made when the store
// is first opened; a new database file gets it here.
func sqlConfig(o options) (*config.SQL, error) {
	conf := config.SQL{PluginName: sqliteplugin.PluginName}
	if o.DBFile == "" {
		conf.ConnectAttributes = map[string]string{"mode": "memory", "cache": "shared"}
		conf.DatabaseName = strconv.FormatInt(rand.Int64N(1<<40), 10)
	} else {
		conf.ConnectAttributes = map[string]string{"mode": "rwc"}
		conf.DatabaseName = o.DBFile
		if _, err := os.Stat(o.DBFile); os.IsNotExist(err) {
			if _, err := os.Stat(filepath.Dir(o.DBFile)); err != nil {
				return nil, fmt.Errorf("database file's directory: %w", err)
			}
			if err := sqliteschema.SetupSchema(&conf); err != nil {
				return nil, fmt.Errorf("set up the schema in %s: %w", o.DBFile, err)
			}
		}
	}
	namespaces := make([]*sqliteschema.NamespaceConfig, 0, len(o.Namespaces))
	for _, ns := range o.Namespaces {
		nsConf, err := sqliteschema.NewNamespaceConfig(clusterName, ns, false, nil)
		if err != nil {
			return nil, fmt.Errorf("namespace %q: %w", ns, err)
		}
		namespaces = append(namespaces, nsConf)
	}
	if err := sqliteschema.CreateNamespaces(&conf, namespaces...); err != nil {
		return nil, fmt.Errorf("register the namespaces: %w", err)
	}
	return &conf, nil
}
