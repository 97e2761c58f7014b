package main

import (
	"fmt"

	"go.temporal.io/server/common/authorization"
	"go.temporal.io/server/common/config"
	"go.temporal.io/server/common/dynamicconfig"
	"go.temporal.io/server/common/log"
	"go.temporal.io/server/common/membership/static"
	"go.temporal.io/server/common/primitives"
	"go.temporal.io/server/temporal"
)

// newServer builds (but does not start) the server for conf, logging through
// logger.
func newServer(conf *config.Config, logger log.Logger) (temporal.Server, error) {
	authorizer, err := authorization.GetAuthorizerFromConfig(&conf.Global.Authorization)
	if err != nil {
		return nil, fmt.Errorf("authorizer: %w", err)
	}
	claimMapper, err := authorization.GetClaimMapperFromConfig(&conf.Global.Authorization, logger)
	if err != nil {
		return nil, fmt.Errorf("claim mapper: %w", err)
	}
	hosts := map[primitives.ServiceName]static.Hosts{}
	for _, svc := range []primitives.ServiceName{
		primitives.FrontendService, primitives.MatchingService,
		primitives.HistoryService, primitives.WorkerService,
	} {
		rpc := conf.Services[string(svc)].RPC
		hosts[svc] = static.SingleLocalHost(fmt.Sprintf("%s:%d", rpc.BindOnIP, rpc.GRPCPort))
	}
	dyn := dynamicconfig.StaticClient{
		dynamicconfig.HistoryCacheHostLevelMaxSize.Key():                 8096,
		dynamicconfig.FrontendMaxNamespaceVisibilityRPSPerInstance.Key(): 100,
	}
	s, err := temporal.NewServer(
		temporal.WithConfig(conf),
		temporal.ForServices(temporal.DefaultServices),
		temporal.WithStaticHosts(hosts),
		temporal.WithLogger(logger),
		temporal.WithAuthorizer(authorizer),
		temporal.WithClaimMapper(func(*config.Config) authorization.ClaimMapper { return claimMapper }),
		temporal.WithDynamicConfigClient(dyn),
	)
	if err != nil {
		return nil, fmt.Errorf("build the server: %w", err)
	}
	return s, nil
}
