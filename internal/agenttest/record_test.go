package agenttest

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/agenttest/mockapi"
	"github.com/autobuild-sh/autobuild/internal/gittest"
)

var record = flag.Bool("record", false, "record each real CLI's output against the mocks into testdata/agents")

// fixtureDir is where the recordings go, from this package's folder.
var fixtureDir = filepath.Join("..", "..", "testdata", "agents")

// recording is one case's figures for the fixtures' README.
type recording struct {
	cli, name, command string
	exit               int
	duration           time.Duration
	requests           int
}

// TestRecord runs every case of every CLI against its mock and writes the raw
// output to testdata/agents/<cli>/<case>.stdout, .stderr and .exit:
//
//	go test ./internal/agenttest/ -run TestRecord -record
func TestRecord(t *testing.T) {
	if !*record {
		t.Skip("records the fixtures only with -record")
	}
	var mu sync.Mutex
	var recs []recording
	total := 0
	for _, api := range mockapi.APIs() {
		cli := string(api)
		bin := Require(t, cli)
		dir := filepath.Join(fixtureDir, cli)
		require.NoError(t, os.MkdirAll(dir, 0o755))
		for _, c := range Cases(cli) {
			if c.OnlyRoot && os.Geteuid() != 0 {
				t.Logf("%s/%s: skipped, the refusal happens only as root", cli, c.Name)
				continue
			}
			total++
			t.Run(cli+"/"+c.Name, func(t *testing.T) {
				t.Parallel()
				rec := recordCase(t, bin, api, c, dir)
				mu.Lock()
				recs = append(recs, rec)
				mu.Unlock()
			})
		}
	}
	t.Cleanup(func() {
		// The README's table lists every case: a run of some (-run
		// TestRecord/codex/...) rewrites only their files.
		switch {
		case t.Failed():
		case len(recs) == total:
			require.NoError(t, writeReadme(recs))
		default:
			require.NoError(t, updateReadmeRows(recs))
		}
	})
}

func recordCase(t *testing.T, bin string, api mockapi.API, c Case, dir string) recording {
	srv := mockapi.New(t, api, c.Replies...)
	work := gittest.New(t, gittest.NoCommit())
	prompt := c.Prompt
	if prompt == "" {
		prompt = Prompt
	}
	opts := c.Options
	opts.Sandbox = api == mockapi.Claude && !c.NoSandbox
	args, stdin := Args(string(api), prompt, true, !c.NoSkipTrust)
	if c.TextMode {
		args = []string{"exec", "--sandbox", "workspace-write", "-"}
	}
	o := Exec(t, Invocation{Bin: bin, Args: args, Stdin: stdin, Dir: work, Env: Env(t, srv, opts)})
	base := filepath.Join(dir, c.Name)
	require.NoError(t, os.WriteFile(base+".stdout", []byte(o.Stdout), 0o644))
	require.NoError(t, os.WriteFile(base+".stderr", []byte(o.Stderr), 0o644))
	require.NoError(t, os.WriteFile(base+".exit", []byte(fmt.Sprintf("%d\n", o.Exit)), 0o644))
	shown := append([]string{string(api)}, args...)
	if stdin != "" {
		shown = append(shown, "< prompt")
	} else {
		shown[len(shown)-1] = "<prompt>"
	}
	return recording{cli: string(api), name: c.Name, command: strings.Join(shown, " "), exit: o.Exit, duration: o.Duration, requests: len(srv.ModelRequests())}
}

func writeReadme(recs []recording) error {
	sort.Slice(recs, func(i, j int) bool {
		if recs[i].cli != recs[j].cli {
			return recs[i].cli < recs[j].cli
		}
		return recs[i].name < recs[j].name
	})
	var b strings.Builder
	b.WriteString(readmeHead)
	for _, api := range mockapi.APIs() {
		out, _ := exec.Command(filepath.Join(BinDir(), string(api)), "--version").Output()
		fmt.Fprintf(&b, "- %s: `%s`\n", api, strings.TrimSpace(string(out)))
	}
	b.WriteString("\n| CLI | case | command | exit | time | model requests |\n|---|---|---|---|---|---|\n")
	for _, r := range recs {
		fmt.Fprintf(&b, "| %s | %s | `%s` | %d | %.1f s | %d |\n", r.cli, r.name, r.command, r.exit, r.duration.Seconds(), r.requests)
	}
	b.WriteString(readmeTail)
	return os.WriteFile(filepath.Join(fixtureDir, "README.md"), []byte(b.String()), 0o644)
}

// updateReadmeRows replaces (or adds) the README table's rows of the cases
// just recorded, for a run of some of them, keeping the other rows.
func updateReadmeRows(recs []recording) error {
	path := filepath.Join(fixtureDir, "README.md")
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	lines := strings.Split(string(data), "\n")
	start := -1
	for i, l := range lines {
		if strings.HasPrefix(l, "| CLI | case |") {
			start = i + 2
			break
		}
	}
	if start < 0 {
		return fmt.Errorf("%s has no table of cases", path)
	}
	end := start
	rows := map[string]string{}
	for ; end < len(lines) && strings.HasPrefix(lines[end], "| "); end++ {
		cells := strings.Split(lines[end], " | ")
		rows[strings.TrimPrefix(cells[0], "| ")+"/"+cells[1]] = lines[end]
	}
	for _, r := range recs {
		rows[r.cli+"/"+r.name] = fmt.Sprintf("| %s | %s | `%s` | %d | %.1f s | %d |", r.cli, r.name, r.command, r.exit, r.duration.Seconds(), r.requests)
	}
	keys := make([]string, 0, len(rows))
	for k := range rows {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	table := make([]string, 0, len(keys))
	for _, k := range keys {
		table = append(table, rows[k])
	}
	out := append(append(append([]string{}, lines[:start]...), table...), lines[end:]...)
	return os.WriteFile(path, []byte(strings.Join(out, "\n")), 0o644)
}
