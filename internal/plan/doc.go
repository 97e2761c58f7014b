// Package plan reads implementation plans written in the "superplan" markdown
// layout (docs/plan-format.md): an overview table of phases with their dependencies, one
// section per phase, and an optional list of quality gates. It checks the plan
// before anything runs and computes the batches the engine executes.
//
// # What the parser accepts
//
// The document is parsed with goldmark (GFM tables and task lists), so code
// blocks never count as headings, tables or tasks, and every problem carries
// the line it is about.
//
// Overview table: the first table whose header has a Phase column and a
// Depends On column (header cells compared by their letters, any case,
// without asides in parentheses; synonyms: "ID", "Dependencies", "Depends",
// "Deps", "Requires", "Blocked By", "Prerequisites"). Other columns are
// optional — Name (or Title), Parallel With (or Can Run With, Can Run In
// Parallel With), Estimate (or Est., Effort), Status — and unknown ones
// (Wave, Owner) are ignored wherever they stand. Later tables, even with the same header, are
// part of the document. Cells may hold markdown (`**2A**`, links, code); a
// <br> separates items like a space. A row whose Phase cell is empty
// everywhere is skipped; a "Total" row is skipped; a line without a pipe is
// skipped (GFM would make a sentence written right below the table a row);
// a row with cells but no id is a problem. A Phase cell may carry the name
// too ("2A: Backend"), used when there is no Name column.
//
// Ids: NormalizeID drops a leading "Phase", lowercases and keeps letters and
// digits ("Phase 2-A" → "2a"), giving a phaseid.ID; it is the only maker of
// one from text. DisplayID is the id as written ("2-A"), a phaseid.Display.
//
// Depends On and Parallel With cells: "-", "—", "–", "None", "Nothing",
// "n/a" or empty mean none. Items are separated by ",", ";", "&", "+", "/",
// "and" or "or" ("2A, 2B and 2C") or by spaces alone when every item
// starts with a digit ("2A 2B"); each may carry a "Phase" prefix and
// trailing words, which are ignored, as are parenthesised asides ("Phase 0
// (or nothing if skipped)" is 0). An aside saying "nothing", "none",
// "optional" or "if any" makes the references optional: one naming no phase
// is dropped instead of reported (the superplan template's Phase 1 says
// "Phase 0 (or nothing if skipped)" in plans without a Phase 0). "1–4",
// "1-4", "1 to 4", "Phases 1 - 4" are ranges when both ends are plain
// numbers: every phase whose id starts with a number in the range, in plan
// order (1, 2A, 2B, 3, 4); "2-A" is an id. A plain number that is no
// phase's id names the phases of that number ("Phase 2" is 2A, 2B, 2C).
//
// Status: ✅, "Complete", "Done", "Finished", "[x]" mean complete; ⏭️ or
// "Skipped" mean skipped; anything else (⬜, 🔄, "Pending", "In progress",
// empty) means the phase runs. The first mark or word decides, so a
// template's choices left in place ("⬜/⏭️") read as the first.
//
// Sections: a heading (any level, ATX or setext) whose text is "Phase <id>"
// optionally followed by a separator (":", "—", "–", "-", "|", ".") and a
// name: "## Phase 2A: Backend API", "### Phase 2-A — Backend (est 8)". A
// trailing "(est N)" gives the estimate, a trailing ✅/⏭️ a status; marks
// before "Phase" ("🚀 Phase 1", "✅ Phase 2") are skipped, a status mark
// among them counting as the status. To keep
// "## Phase Overview" out, a heading id must contain a digit, be at most two
// characters, or be an id of the table. The first heading is the title, not
// a phase, when it is an H1 above the table.
//
// A section's body is its source verbatim, from the heading line up to the
// next heading of the same or a higher level or the next phase heading of
// any level (a body never holds another phase), without trailing blank
// lines or a closing rule ("---"). A deeper heading naming the section's own phase ("#### Phase 6
// checklist") stays in the body. A section that is not in the table and is
// ended by a deeper phase heading ("## Phase 2" over "### Phase 2A") groups
// phases and is not a phase itself.
//
// Metadata: before the section's first subheading, "Key: value" lines in a
// blockquote, or lines with a bold key ("**Depends On**: 1") in paragraphs
// and lists. Keys: Depends On (Depends, Dependencies, Deps), Parallel With
// (Can Run With, Can Run In Parallel With), Status, Estimate; not
// "Requires" or "Blocked by", which notes use for anything. One line may hold several entries split by
// "|", "·" or "•". For a phase in the table, the table decides; metadata
// that disagrees (Depends On, Parallel With when the table has that column,
// Status when both say something) is a problem. A section's Parallel With
// metadata also turns on Plan.HasParallelColumn. Name, estimate and status
// fall back to the section when the table leaves them empty.
//
// Tasks are GFM task list items ("- [ ]", "* [x]", "1. [ ]") anywhere in
// the body; Files are the paths of "File: path" headings: the first code
// span ("##### File: `src/config.ts` (MODIFY)"), else the text without a
// trailing aside ("(new)", "— tests").
//
// Quality gates: top-level list items of a "Quality Gates" section that is
// not inside a phase: "- test: `go test ./...`", "- **lint**: golangci-lint
// run", "- [ ] build: make". The command is the first code span, else the
// rest of the item. Kinds: build, lint, format, typecheck, test (also
// "tests", "fmt", "types", "compile", ...). An unknown kind, an item that is
// not "kind: command", a missing command or a repeated kind is a problem.
//
// Checks: everything is reported in one pass, sorted by line — no table,
// duplicate ids (table rows or sections), unknown references, metadata
// disagreeing with the table, Parallel With naming a phase that depends on
// the naming phase or that it depends on (directly or transitively, once
// per pair), and dependency cycles (one per strongly connected component,
// written in run order, "2A → 3 → 4 → 2A", at the first phase's line). A
// row without a section and a section without a row are warnings; both are
// still phases (a section-only phase takes its dependencies from its
// metadata).
package plan
