package gitx

import (
	"context"
	"strings"

	"github.com/autobuild-sh/autobuild/internal/phaseid"
)

// TrailerKey is the commit trailer that marks a commit the engine made for a
// phase ("Autobuild-Phase: 2a"). Git is the record of what landed: resume
// reads these trailers to find completed phases whose state file was never
// written.
const TrailerKey = "Autobuild-Phase"

// PhaseCommits returns phase id → commit for the commits in from..to (all
// commits reachable from to when from is "") that carry the phase trailer.
// When several commits carry one phase, the newest wins.
func (r *Repo) PhaseCommits(ctx context.Context, from, to string) (map[phaseid.ID]string, error) {
	rng := to
	if from != "" {
		rng = from + ".." + to
	}
	out, err := r.read(ctx, "", "log", "--no-show-signature",
		"--format=%H%x00%(trailers:key="+TrailerKey+",valueonly)%x1e", rng, "--")
	if err != nil {
		return nil, err
	}
	commits := map[phaseid.ID]string{}
	for rec := range strings.SplitSeq(out, "\x1e") {
		sha, values, ok := strings.Cut(strings.TrimLeft(rec, "\n"), "\x00")
		if !ok {
			continue
		}
		for _, id := range lines(values) {
			id := phaseid.ID(strings.TrimSpace(id)) // A trailer gives back the id written in it.
			if _, seen := commits[id]; !seen && id != "" {
				commits[id] = sha
			}
		}
	}
	return commits, nil
}

// Commits lists the commits in from..to, oldest first, without merges.
func (r *Repo) Commits(ctx context.Context, from, to string) ([]string, error) {
	out, err := r.read(ctx, "", "rev-list", "--reverse", "--no-merges", from+".."+to, "--")
	if err != nil {
		return nil, err
	}
	return strings.Fields(out), nil
}
