package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

// TestScripts runs the command-line cases in testdata/script/*.txtar
// against the built binary, one file per behaviour: the command, its exit
// code, its output, and what it left on disk. A case goes here unless it
// needs timing, signals or a terminal; those stay in the Go tests.
//
// Besides testscript's own commands, a script has:
//
//	exits CODE [ARGS...]   run autobuild with ARGS and require exit CODE
//	                       (! exits: any other); its output is then checked
//	                       with stdout/stderr/cmp
//	gitrepo DIR            make DIR (made if missing) a git repository on
//	                       branch main whose first commit holds its files
//	crlf SRC DST           write SRC to DST as an editor on Windows saves it:
//	                       a byte order mark and CRLF line ends
//	json [-len] FILE PATH WANT
//	                       require the value at PATH (keys and indexes joined
//	                       by dots) in the JSON FILE, or with -len its length,
//	                       to print as WANT (! json: as anything else)
//	paste [-from FILE] [-add TEXT] PREFIX [SUFFIX]
//	                       run with sh, as a person pastes it, the rest of the
//	                       line of the last stdout (or FILE) that starts with
//	                       PREFIX (SUFFIX cut off, TEXT added); like exec,
//	                       ! paste wants it to fail
//	commits ID...          require HEAD's history (from the current
//	                       directory) to hold, by the Autobuild-Phase trailer,
//	                       as many commits of each phase as its ID is listed,
//	                       and no other phase's
//	gitvar NAME ARGS...    set $NAME to what git ARGS prints (trimmed), run
//	                       in the current directory: a commit to compare with
//
// and these variables: $AUTOBUILD, the binary's path (for a case that
// needs a shell around it), and $ROOT, the repository's root (for its
// testdata/plans). The condition [root] holds when the tests run as root.
func TestScripts(t *testing.T) {
	t.Parallel()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	// The gates of a Go repository (the demo's, a script's) share the Go
	// caches of the machine: a new HOME must not mean building the standard
	// library again.
	goenv, err := exec.Command("go", "env", "GOCACHE", "GOMODCACHE", "GOPATH").Output()
	if err != nil {
		t.Fatal(err)
	}
	gopaths := strings.Split(strings.TrimSpace(string(goenv)), "\n")
	testscript.Run(t, testscript.Params{
		Dir: "testdata/script",
		Setup: func(env *testscript.Env) error {
			// No terminal, no colour, and no agent CLIs from the machine.
			env.Setenv("NO_COLOR", "1")
			env.Setenv("GIT_CONFIG_GLOBAL", "/dev/null")
			env.Setenv("GIT_CONFIG_NOSYSTEM", "1")
			for _, k := range []string{"GIT_AUTHOR", "GIT_COMMITTER"} {
				env.Setenv(k+"_NAME", "e2e")
				env.Setenv(k+"_EMAIL", "e2e@autobuild.invalid")
			}
			home := env.WorkDir + "-home" // beside $WORK, so a repository there holds none of it
			if err := os.MkdirAll(home, 0o755); err != nil {
				return err
			}
			env.Setenv("HOME", home)
			env.Setenv("AUTOBUILD", binary)
			env.Setenv("ROOT", root)
			for i, k := range []string{"GOCACHE", "GOMODCACHE", "GOPATH"} {
				if i < len(gopaths) {
					env.Setenv(k, gopaths[i])
				}
			}
			return nil
		},
		Condition: func(cond string) (bool, error) {
			if cond == "root" {
				return os.Geteuid() == 0, nil
			}
			return false, fmt.Errorf("unknown condition %q", cond)
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"exits":   exits,
			"gitrepo": gitrepo,
			"crlf":    crlf,
			"json":    jsonAt,
			"paste":   paste,
			"commits": phaseCommitsCmd,
			"gitvar":  gitvar,
		},
	})
}

// exits runs autobuild and requires the exit code it is given.
// With !, it requires any other exit code.
func exits(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) < 1 {
		ts.Fatalf("usage: [!] exits CODE [ARGS...]")
	}
	want, err := strconv.Atoi(args[0])
	ts.Check(err)
	got := 0
	if err := ts.Exec(binary, args[1:]...); err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			ts.Fatalf("autobuild %s: %v", strings.Join(args[1:], " "), err)
		}
		got = ee.ExitCode()
	}
	switch {
	case neg && got == want:
		ts.Fatalf("autobuild %s: exit %d, want another", strings.Join(args[1:], " "), got)
	case !neg && got != want:
		ts.Fatalf("autobuild %s: exit %d, want %d", strings.Join(args[1:], " "), got, want)
	}
}

// gitrepo makes a directory a repository whose first commit holds what is
// in it, as the Go tests' newRepo does.
func gitrepo(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: gitrepo DIR")
	}
	dir := ts.MkAbs(args[0])
	ts.Check(os.MkdirAll(dir, 0o755))
	for _, a := range [][]string{{"init", "-q", "-b", "main"}, {"config", "user.name", "e2e"},
		{"config", "user.email", "e2e@autobuild.invalid"}, {"add", "-A"}, {"commit", "-q", "--allow-empty", "-m", "initial"}} {
		gitIn(ts, dir, a...)
	}
}

// crlf copies a file with a byte order mark and CRLF line ends.
func crlf(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: crlf SRC DST")
	}
	src := ts.ReadFile(args[0])
	ts.Check(os.WriteFile(ts.MkAbs(args[1]), []byte("\xef\xbb\xbf"+strings.ReplaceAll(src, "\n", "\r\n")), 0o644))
}

// jsonAt checks one value in a JSON file: a state file, a report.
func jsonAt(ts *testscript.TestScript, neg bool, args []string) {
	count := len(args) > 0 && args[0] == "-len"
	if count {
		args = args[1:]
	}
	if len(args) != 3 {
		ts.Fatalf("usage: json [-len] FILE PATH WANT")
	}
	var v any
	ts.Check(json.Unmarshal([]byte(ts.ReadFile(args[0])), &v))
	path := args[1]
	for _, key := range strings.Split(path, ".") {
		switch node := v.(type) {
		case map[string]any:
			v = node[key]
		case []any:
			i, err := strconv.Atoi(key)
			if err != nil || i < 0 || i >= len(node) {
				ts.Fatalf("%s: no element %q in a list of %d", args[1], key, len(node))
			}
			v = node[i]
		default:
			ts.Fatalf("%s: %q is inside a %T", args[1], key, v)
		}
	}
	got := fmt.Sprint(v)
	if count {
		switch node := v.(type) {
		case []any:
			got = strconv.Itoa(len(node))
		case map[string]any:
			got = strconv.Itoa(len(node))
		case string:
			got = strconv.Itoa(len(node))
		case nil:
			got = "0"
		default:
			ts.Fatalf("%s: a %T has no length", args[1], v)
		}
	}
	if (got == args[2]) == neg {
		ts.Fatalf("%s in %s is %q, want %s%q", args[1], args[0], got, map[bool]string{true: "not ", false: ""}[neg], args[2])
	}
}

// paste runs a command autobuild printed for a person to paste.
func paste(ts *testscript.TestScript, neg bool, args []string) {
	from, add := "stdout", ""
	for len(args) > 1 && (args[0] == "-from" || args[0] == "-add") {
		if args[0] == "-from" {
			from = args[1]
		} else {
			add = " " + args[1]
		}
		args = args[2:]
	}
	if len(args) < 1 || len(args) > 2 {
		ts.Fatalf("usage: [!] paste [-from FILE] [-add TEXT] PREFIX [SUFFIX]")
	}
	line, found := "", false
	for _, l := range strings.Split(ts.ReadFile(from), "\n") {
		if rest, ok := strings.CutPrefix(l, args[0]); ok {
			line, found = rest, true
			break
		}
	}
	if !found {
		ts.Fatalf("no line of %s starts with %q", from, args[0])
	}
	if len(args) == 2 {
		line = strings.TrimSuffix(line, args[1])
	}
	line += add
	ts.Logf("pasting: %s", line)
	err := ts.Exec("sh", "-c", line)
	switch {
	case neg && err == nil:
		ts.Fatalf("%s: unexpected success", line)
	case !neg && err != nil:
		ts.Fatalf("%s: %v", line, err)
	}
}

// phaseCommitsCmd counts the commits of each phase on HEAD.
func phaseCommitsCmd(ts *testscript.TestScript, neg bool, args []string) {
	if neg {
		ts.Fatalf("unsupported: ! commits")
	}
	out := gitIn(ts, ".", "log", "--format=%(trailers:key=Autobuild-Phase,valueonly)")
	got := map[string]int{}
	for _, l := range strings.Split(out, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			got[l]++
		}
	}
	want := map[string]int{}
	for _, id := range args {
		want[id]++
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		ts.Fatalf("commits per phase on HEAD: %v, want %v", got, want)
	}
}

// gitvar keeps what git printed in a variable.
func gitvar(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: gitvar NAME ARGS...")
	}
	ts.Setenv(args[0], strings.TrimSpace(gitIn(ts, ".", args[1:]...)))
}

// gitIn runs git in dir (relative to the script's directory) with the
// script's environment and returns its stdout; a failure fails the script.
func gitIn(ts *testscript.TestScript, dir string, args ...string) string {
	if dir != "." {
		args = append([]string{"-C", ts.MkAbs(dir)}, args...)
	}
	if err := ts.Exec("git", args...); err != nil {
		ts.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, ts.ReadFile("stderr"))
	}
	return ts.ReadFile("stdout")
}
