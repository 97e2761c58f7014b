// Package plantest holds the small plans the tests of the engine's
// packages (engine, line, runstart, schedule) share, so each is written
// once.
package plantest

// OnePhase is a plan of one phase with a test gate that passes.
const OnePhase = "# One\n\n| Phase | Depends On |\n|---|---|\n| 1 | - |\n\n## Phase 1: Only\n\n## Quality Gates\n\n- test: `true`\n"

// Diamond is 0 → 1 → {2A, 2B, 2C} → 3.
const Diamond = `# Diamond

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

// TwoChains is A1 → A2 and B1 → B2: under batches B2 waits for the batch
// of A1 and B1; under eager it starts once B1 has landed.
const TwoChains = `# Two chains

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
