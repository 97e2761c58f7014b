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
