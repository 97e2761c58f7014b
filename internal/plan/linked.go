package plan

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// linkReader reads a phase file linked from the plan; rel is the link as
// written, relative to the plan's directory.
type linkReader func(rel string) ([]byte, error)

// errOutside means a linked file lies outside the directory autobuild may
// read phase files from.
var errOutside = errors.New("outside the repository")

// newLinkReader reads links relative to the plan at planPath, confined to
// the git repository holding it (or, outside one, the plan's directory):
// an os.Root refuses "..", absolute paths and symbolic links that leave it.
func newLinkReader(planPath string) linkReader {
	dir, err := filepath.Abs(filepath.Dir(planPath))
	if err != nil {
		return func(string) ([]byte, error) { return nil, err }
	}
	top := repoTop(dir)
	return func(rel string) ([]byte, error) {
		if path.IsAbs(rel) || filepath.IsAbs(rel) {
			return nil, errOutside
		}
		target, err := filepath.Rel(top, filepath.Join(dir, filepath.FromSlash(rel)))
		if err != nil || target == ".." || strings.HasPrefix(target, ".."+string(filepath.Separator)) {
			return nil, errOutside
		}
		root, err := os.OpenRoot(top)
		if err != nil {
			return nil, err
		}
		defer root.Close()
		data, err := root.ReadFile(target)
		if err != nil && !errors.Is(err, fs.ErrNotExist) && strings.Contains(err.Error(), "escapes") {
			return nil, errOutside
		}
		return data, err
	}
}

// repoTop is the nearest directory at or above dir holding .git, else dir.
func repoTop(dir string) string {
	for d := dir; ; {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return d
		}
		parent := filepath.Dir(d)
		if parent == d {
			return dir
		}
		d = parent
	}
}

// readLinked gives each phase whose table row links a local markdown file
// that file's content as its body (after its section's, when it has one),
// and counts its tasks and files. A missing or escaping file is a problem at
// the row. Without a reader (Parse on bytes alone) links are recorded only.
func (b *builder) readLinked(read linkReader) {
	for _, src := range b.sources {
		if src.row == nil || src.row.link == "" {
			continue
		}
		ph := src.phase
		ph.BodyFile = src.row.link
		if read == nil {
			continue
		}
		data, err := read(src.row.link)
		switch {
		case errors.Is(err, errOutside):
			b.problem(src.row.line, CodePlanInvalid, fmt.Sprintf("phase %s links %s, which is outside the repository: a phase file must be inside it", ph.DisplayID, src.row.link))
			continue
		case errors.Is(err, fs.ErrNotExist):
			b.problem(src.row.line, CodePlanInvalid, fmt.Sprintf("phase %s links %s, which does not exist (links are relative to the plan's directory)", ph.DisplayID, src.row.link))
			continue
		case err != nil:
			b.problem(src.row.line, CodePlanInvalid, fmt.Sprintf("phase %s links %s, which cannot be read: %v", ph.DisplayID, src.row.link, err))
			continue
		}
		b.plan.linked = append(b.plan.linked, data)
		text := strings.TrimRight(string(data), " \t\r\n") + "\n"
		if ph.Body != "" {
			ph.Body = strings.TrimRight(ph.Body, "\n") + "\n\n" + text
		} else {
			ph.Body = text
		}
		d := newDoc(data)
		var s section
		d.scanBlocks(&s, d.blocks, false)
		ph.Tasks += s.tasks
		ph.TasksDone += s.done
		ph.Files = append(ph.Files, s.files...)
	}
}
