package wtenv

import (
	"context"
	"crypto/rand"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"testing"

	"github.com/autobuild-sh/autobuild/internal/gitx"
)

// The benchmarks bring an ignored node_modules of WTENV_BENCH_FILES files
// (20,000 unless set) of 10 kB, 10 to a folder, and a .env into
// worktrees of a repository of 2,000 tracked files, as bench/wtenv.sh
// does, with the modes this file system offers (hard links on ext4,
// clones on btrfs or xfs: run with TMPDIR on one):
//
//	go test ./internal/wtenv -run '^$' -bench . -benchtime 5x -timeout 30m
//
// BenchmarkBringNew: a new worktree (autobuild's copy already made);
// BenchmarkBringReused: a worktree that has them all (a pooled one);
// BenchmarkBringCheck: a run's first Bring, which checks autobuild's copy
// against your checkout; BenchmarkWorktreeAdd: `git worktree add` of the
// same tree, the yardstick; BenchmarkWorktreeAddAndBring: the worktree
// made and its files brought as a phase's are (put in beside the
// checkout, then checked).

func benchFiles(b *testing.B) int {
	if s := os.Getenv("WTENV_BENCH_FILES"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil {
			b.Fatalf("WTENV_BENCH_FILES: %v", err)
		}
		return n
	}
	return 20000
}

// benchRepo makes a repository for the benchmark; its node_modules is
// made once per process and copied (cp -a) into the next ones, which
// keeps the file system's caches as warm for each benchmark.
func benchRepo(b *testing.B) string {
	b.Helper()
	dir := b.TempDir()
	if tmpl := benchTemplate(b); tmpl != "" {
		cmd := exec.Command("cp", "-a", tmpl+"/.", dir)
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("cp: %v: %s", err, out)
		}
		return dir
	}
	return makeBenchRepo(b, dir)
}

// template is the first repository benchRepo made, in a folder of its own.
var template struct {
	sync.Mutex
	dir string
}

func benchTemplate(b *testing.B) string {
	template.Lock()
	defer template.Unlock()
	if template.dir == "" {
		dir, err := os.MkdirTemp("", "wtenv-bench-")
		if err != nil {
			b.Fatal(err)
		}
		template.dir = makeBenchRepo(b, dir)
	}
	return template.dir
}

func makeBenchRepo(b *testing.B, dir string) string {
	run := func(args ...string) {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=b", "GIT_AUTHOR_EMAIL=b@b", "GIT_COMMITTER_NAME=b", "GIT_COMMITTER_EMAIL=b@b")
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("git %v: %v: %s", args, err, out)
		}
	}
	run("init", "-q", "-b", "main")
	put := func(p string, data []byte) {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			b.Fatal(err)
		}
	}
	put(filepath.Join(dir, ".gitignore"), []byte("node_modules/\n.env\n.autobuild/\n"))
	for i := range 2000 {
		put(filepath.Join(dir, "src", fmt.Sprintf("d%d", i/10), fmt.Sprintf("f%d.txt", i)), fmt.Appendf(nil, "tracked file %d\n", i))
	}
	run("add", "-A")
	run("commit", "-q", "-m", "tree")
	data := make([]byte, 10<<10)
	_, _ = rand.Read(data)
	for i := range benchFiles(b) {
		put(filepath.Join(dir, "node_modules", fmt.Sprintf("pkg%d", i/10), "lib", fmt.Sprintf("f%d.js", i)), data)
	}
	put(filepath.Join(dir, ".env"), []byte("SECRET=1\n"))
	return dir
}

// benchEnv is a run's Env that has made autobuild's copy (when its mode
// needs one) by bringing the files into a first worktree.
func benchEnv(b *testing.B, dir string) *Env {
	b.Helper()
	e := newBenchEnv(b, dir)
	if _, err := e.Bring(context.Background(), benchWorktree(b, dir, "warm")); err != nil {
		b.Fatal(err)
	}
	return e
}

func newBenchEnv(b *testing.B, dir string) *Env {
	pats, err := Patterns(dir, []string{".env", "node_modules"})
	if err != nil {
		b.Fatal(err)
	}
	return New(dir, filepath.Join(dir, ".autobuild", "worktree-files"), pats, SystemOps())
}

func benchWorktree(b *testing.B, dir, name string) string {
	b.Helper()
	wt := filepath.Join(dir, ".autobuild", "worktrees", name)
	cmd := exec.Command("git", "worktree", "add", "-q", "-b", name, wt)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("git worktree add: %v: %s", err, out)
	}
	return wt
}

func BenchmarkBringNew(b *testing.B) {
	dir := benchRepo(b)
	e := benchEnv(b, dir)
	var total float64
	for i := range b.N {
		b.StopTimer()
		wt := benchWorktree(b, dir, fmt.Sprintf("w%d", i))
		b.StartTimer()
		res, err := e.Bring(context.Background(), wt)
		if err != nil {
			b.Fatal(err)
		}
		total += float64(res.Took.Milliseconds())
	}
	b.ReportMetric(total/float64(b.N), "ms/bring")
}

func BenchmarkBringReused(b *testing.B) {
	dir := benchRepo(b)
	e := benchEnv(b, dir)
	wt := benchWorktree(b, dir, "w")
	if _, err := e.Bring(context.Background(), wt); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for range b.N {
		if _, err := e.Bring(context.Background(), wt); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N), "ms/bring")
}

func BenchmarkBringCheck(b *testing.B) {
	dir := benchRepo(b)
	benchEnv(b, dir)
	wt := benchWorktree(b, dir, "w")
	if _, err := newBenchEnv(b, dir).Bring(context.Background(), wt); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for range b.N {
		// A new run: its first Bring checks autobuild's copy; the
		// worktree has everything.
		if _, err := newBenchEnv(b, dir).Bring(context.Background(), wt); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N), "ms/run")
}

func BenchmarkWorktreeAdd(b *testing.B) {
	dir := benchRepo(b)
	b.ResetTimer()
	for i := range b.N {
		benchWorktree(b, dir, fmt.Sprintf("w%d", i))
	}
	b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N), "ms/add")
}

func BenchmarkWorktreeAddAndBring(b *testing.B) {
	dir := benchRepo(b)
	e := benchEnv(b, dir)
	ctx := context.Background()
	repo, err := gitx.Open(ctx, dir)
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := range b.N {
		wt := filepath.Join(dir, ".autobuild", "worktrees", fmt.Sprintf("n%d", i))
		var res Result
		var perr error
		if err := repo.AddWorktreeAlongside(ctx, wt, fmt.Sprintf("n%d", i), "HEAD", func() { res, perr = e.Put(ctx, wt) }); err != nil {
			b.Fatal(err)
		}
		if perr != nil {
			b.Fatal(perr)
		}
		if _, err := e.Check(ctx, wt, res); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N), "ms/add")
}

// TestMain removes the benchmarks' template repository.
func TestMain(m *testing.M) {
	code := m.Run()
	if template.dir != "" {
		_ = os.RemoveAll(template.dir)
	}
	os.Exit(code)
}
