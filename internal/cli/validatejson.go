package cli

import (
	"encoding/json"
	"errors"
	"io"

	"github.com/autobuild-sh/autobuild/internal/exitcode"
	"github.com/autobuild-sh/autobuild/internal/gates"
	"github.com/autobuild-sh/autobuild/internal/phaseid"
	"github.com/autobuild-sh/autobuild/internal/plan"
	"github.com/autobuild-sh/autobuild/internal/sanitize"
)

// planDocVersion is the version of the validate --json document. Fields
// are only ever added within a version (docs/plan-format.md).
const planDocVersion = 1

// planDoc is what `validate --json` prints: everything an editor or CI
// needs to show the plan as autobuild reads it.
type planDoc struct {
	Version int        `json:"version"`
	File    string     `json:"file"`
	Title   string     `json:"title"`
	Valid   bool       `json:"valid"`
	Phases  []phaseDoc `json:"phases"`
	Batches []batchDoc `json:"batches"`
	Gates   []gateDoc  `json:"gates"`
	// GatesFrom says where Gates come from: "plan", "autobuild.toml", or
	// "detected" (none listed: found in the repository when a run starts).
	GatesFrom string       `json:"gates_from"`
	Warnings  []problemDoc `json:"warnings"`
	Errors    []problemDoc `json:"errors"`
	// Worktree is what each phase's worktree gets ([worktree],
	// .worktreeinclude); absent when neither sets anything.
	Worktree *worktreeDoc `json:"worktree,omitempty"`
}

type phaseDoc struct {
	ID           phaseid.ID      `json:"id"`
	DisplayID    phaseid.Display `json:"display_id"`
	Name         string          `json:"name"`
	Line         int             `json:"line"`
	SectionLine  int             `json:"section_line"`
	BodyFile     string          `json:"body_file"`
	DependsOn    []phaseid.ID    `json:"depends_on"`
	ParallelWith []phaseid.ID    `json:"parallel_with"`
	Estimate     string          `json:"estimate"`
	Status       string          `json:"status"`
	WillRun      bool            `json:"will_run"`
	HasBody      bool            `json:"has_body"`
	Tasks        int             `json:"tasks"`
	TasksDone    int             `json:"tasks_done"`
	Files        []string        `json:"files"`
}

type batchDoc struct {
	Index  int            `json:"index"`
	Phases []phaseid.ID   `json:"phases"`
	Groups [][]phaseid.ID `json:"groups"`
}

type gateDoc struct {
	Kind    string `json:"kind"`
	Command string `json:"command"`
	Line    int    `json:"line"`
}

type problemDoc struct {
	File    string `json:"file"`
	Line    int    `json:"line"`
	Code    string `json:"code"`
	Message string `json:"message"`
}

// printPlanJSON parses the plan at path and prints its document; an
// invalid plan is printed too (with its errors) and exits 2. Only a plan
// that cannot be read at all is an error without a document.
func printPlanJSON(w io.Writer, path string, fromConfig []plan.Gate, worktree *worktreeDoc) error {
	pl, err := plan.ParseFile(path)
	var verr *plan.ValidationError
	if err != nil && !errors.As(err, &verr) {
		return usageErr("%w", err)
	}
	doc := newPlanDoc(pl, verr, fromConfig)
	doc.Worktree = worktree
	enc := json.NewEncoder(sanitize.JSONWriter{W: w})
	enc.SetIndent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return err
	}
	if !doc.Valid {
		return &exitError{code: exitcode.Usage}
	}
	return nil
}

func newPlanDoc(pl *plan.Plan, verr *plan.ValidationError, fromConfig []plan.Gate) planDoc {
	doc := planDoc{Version: planDocVersion, File: pl.Path, Title: pl.Title, Valid: verr == nil,
		Phases: []phaseDoc{}, Batches: []batchDoc{}, Gates: []gateDoc{}, Warnings: problems(pl.Warnings), Errors: []problemDoc{}}
	if verr != nil {
		doc.Errors = problems(verr.Problems)
	}
	for _, ph := range pl.Phases {
		status := string(ph.Status)
		if status == "" {
			status = "open"
		}
		doc.Phases = append(doc.Phases, phaseDoc{
			ID: ph.ID, DisplayID: ph.DisplayID, Name: ph.Name, Line: ph.Line, SectionLine: ph.SectionLine,
			BodyFile: ph.BodyFile, DependsOn: nonNil(ph.DependsOn), ParallelWith: nonNil(ph.ParallelWith),
			Estimate: ph.Estimate, Status: status, WillRun: !ph.Done(), HasBody: ph.Body != "",
			Tasks: ph.Tasks, TasksDone: ph.TasksDone, Files: nonNil(ph.Files),
		})
	}
	gs, from := gates.Declared(pl.Gates, fromConfig)
	doc.GatesFrom = from
	for _, g := range gs {
		doc.Gates = append(doc.Gates, gateDoc{Kind: g.Kind, Command: g.Command, Line: g.Line})
	}
	if verr != nil && verr.Code() == plan.CodeCircularDependency {
		return doc // Batches of a cycle mean nothing.
	}
	for _, b := range pl.Batches() {
		bd := batchDoc{Index: b.Index, Phases: []phaseid.ID{}, Groups: [][]phaseid.ID{}}
		for _, ph := range b.Phases {
			bd.Phases = append(bd.Phases, ph.ID)
		}
		for _, g := range b.Groups {
			ids := []phaseid.ID{}
			for _, ph := range g {
				ids = append(ids, ph.ID)
			}
			bd.Groups = append(bd.Groups, ids)
		}
		doc.Batches = append(doc.Batches, bd)
	}
	return doc
}

func problems(ps []plan.Problem) []problemDoc {
	out := []problemDoc{}
	for _, p := range ps {
		out = append(out, problemDoc{File: p.File, Line: p.Line, Code: p.Code, Message: p.Message})
	}
	return out
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
