package engine

// The plans the engine's tests share with package schedule's.

const diamondPlan = `# Diamond

| Phase | Name | Depends On |
|---|---|---|
| 0 | Bootstrap | - |
| 1 | Core | 0 |
| 2A | Api | 1 |
| 2B | Ui | 1 |
| 2C | Docs | 1 |
| 3 | Integration | 2A, 2B, 2C |

## Phase 0: Bootstrap
## Phase 1: Core
## Phase 2A: Api
## Phase 2B: Ui
## Phase 2C: Docs
## Phase 3: Integration
`

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
