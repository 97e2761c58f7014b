package engine

import "github.com/autobuild-sh/autobuild/internal/plan/plantest"

// The plans the engine's tests share with package schedule's.

const diamondPlan = plantest.Diamond

// Two chains, A1 → A2 and B1 → B2, with A1 slow: under batches B2 waits for
// the batch of A1 and B1; under eager it starts once B1 has landed.
const twoChains = plantest.TwoChains
