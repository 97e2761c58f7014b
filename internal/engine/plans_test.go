package engine

import "github.com/autobuild-sh/autobuild/internal/plan/plantest"

// The plans the engine's tests share with package schedule's.

const diamondPlan = plantest.Diamond

// Two chains, A1 → A2 and B1 → B2, with A1 slow: under batches B2 waits for
// the batch of A1 and B1; under eager it starts once B1 has landed.
const twoChains = `# Two chains

| Phase | Name | Depends On |
|---|---|---|
| A1 | Slow | - |
| A2 | After slow | A1 |
| B1 | Quick | - |
| B2 | After quick | B1 |

## Phase A1: Slow
## Phase A2: After slow
## Phase B1: Quick
## Phase B2: After quick
`
