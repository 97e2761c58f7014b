package sim

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"syscall"
	"time"

	"golang.org/x/term"

	"github.com/autobuild-sh/autobuild/internal/agent"
	"github.com/autobuild-sh/autobuild/internal/phaseid"
	"github.com/autobuild-sh/autobuild/internal/plan"
)

// Main is the simulated agent's main function; the CLI runs it as the
// hidden `autobuild sim-agent` command, in its own process, with the
// phase's worktree as the current directory. It reads the prompt from
// stdin, picks the scenario attempt for $AUTOBUILD_PHASE_ID and
// $AUTOBUILD_ATTEMPT from the file named by args[0] or
// $AUTOBUILD_SIM_SCENARIO (see Scenario), plays it and returns the exit
// status. A malformed scenario is reported on stderr with status 2.
//
// An attempt with ignore_sigterm changes the process's signal handling, so
// Main must run in a process of its own.
func Main(args []string, env func(string) string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) > 1 || (len(args) == 1 && (args[0] == "-h" || args[0] == "--help")) {
		fmt.Fprintln(stderr, "usage: autobuild sim-agent [SCENARIO.json]\n\nThe simulated agent: it plays the scenario's attempt for $AUTOBUILD_PHASE_ID and $AUTOBUILD_ATTEMPT\nin the current directory. autobuild runs it for --agent sim.")
		if len(args) == 1 {
			return 0
		}
		return 2
	}
	path := env(agent.EnvSimScenario)
	if len(args) == 1 {
		path = args[0]
	}
	sc := &Scenario{}
	if path != "" {
		var err error
		if sc, err = LoadScenario(path); err != nil {
			fmt.Fprintf(stderr, "sim-agent: %v\n", err)
			return 2
		}
	}
	phase := plan.NormalizeID(env(agent.EnvPhaseID))
	attempt, err := strconv.Atoi(env(agent.EnvAttempt))
	if err != nil || attempt < 1 {
		attempt = 1
	}
	if n, err := strconv.Atoi(env(agent.EnvAgentRun)); err == nil && n >= 1 {
		attempt = n
	}
	a := sc.Pick(phase, attempt)
	if a.IgnoreSigterm {
		signal.Ignore(syscall.SIGTERM)
	}
	readPrompt(stdin)
	p := player{dir: ".", stdout: stdout, stderr: stderr, sleep: time.Sleep, speed: speed(env(agent.EnvSimSpeed)), phase: phase}
	code := p.play(a)
	if a.Hang {
		for {
			time.Sleep(time.Hour)
		}
	}
	return code
}

// Pick returns the attempt to play for a phase (a normalized id) and a
// 1-based attempt number: the phase's entry for that attempt, its last
// entry past the end of its list, the scenario's default for an unlisted
// phase, or the built-in default.
func (sc *Scenario) Pick(phase phaseid.ID, attempt int) Attempt {
	if list := sc.Phases[phase]; len(list) > 0 {
		return list[min(max(attempt, 1), len(list))-1]
	}
	if sc.Default != nil {
		return *sc.Default
	}
	return builtinAttempt(phase, attempt)
}

// builtinAttempt is what the simulated agent does without a scenario: a
// few plausible lines, no changes, success.
func builtinAttempt(phase phaseid.ID, attempt int) Attempt {
	steps := []Step{
		{Kind: "say", Say: fmt.Sprintf("Simulated agent: phase %s, attempt %d", phase, attempt)},
		{Kind: "say", Say: "Reading the phase and the files it names", Delay: "200ms"},
		{Kind: "say", Say: "Planning the changes", Delay: "300ms"},
		{Kind: "say", Say: "Nothing to change: the work is already in place", Delay: "300ms"},
		{Kind: "say", Say: "Done", Delay: "100ms"},
	}
	return Attempt{Steps: steps}
}

// readPrompt reads the prompt to its end, as a real agent would before it
// starts; a terminal is left alone, since nobody will type a prompt.
func readPrompt(stdin io.Reader) {
	if stdin == nil {
		return
	}
	if f, ok := stdin.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		return
	}
	_, _ = io.Copy(io.Discard, stdin)
}

// speed parses $AUTOBUILD_SIM_SPEED: a factor above 0 that divides every
// wait; anything else means 1.
func speed(s string) float64 {
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || f <= 0 {
		return 1
	}
	return f
}

// player plays an attempt in dir.
type player struct {
	dir            string
	stdout, stderr io.Writer
	sleep          func(time.Duration)
	speed          float64
	phase          phaseid.ID
}

// play runs the attempt's steps, stderr lines and result, and returns its
// exit status (1 when a step could not be carried out).
func (p player) play(a Attempt) int {
	for i, s := range a.Steps {
		err := p.step(s)
		if errors.Is(err, errLimited) {
			return 1
		}
		if err != nil {
			fmt.Fprintf(p.stderr, "sim-agent: step %d: %v\n", i+1, err)
			return 1
		}
	}
	for _, l := range a.Stderr {
		fmt.Fprintln(p.stderr, l)
	}
	if a.Result != nil {
		r := make(map[string]any, len(a.Result)+1)
		for k, v := range a.Result {
			r[k] = v
		}
		if _, ok := r["phase_id"]; !ok {
			r["phase_id"] = p.phase
		}
		out, err := json.MarshalIndent(r, "", "  ")
		if err != nil {
			fmt.Fprintf(p.stderr, "sim-agent: result: %v\n", err)
			return 1
		}
		fmt.Fprintf(p.stdout, "```json\n%s\n```\n", out)
	}
	return a.Exit
}

// step carries out one step.
func (p player) step(s Step) error {
	if s.err != nil {
		return s.err
	}
	p.wait(s.Delay)
	if path := s.Path(); path != "" {
		if err := checkPath(path); err != nil {
			return err
		}
	}
	target := filepath.Join(p.dir, s.Path())
	switch s.Kind {
	case "say":
		fmt.Fprintln(p.stdout, s.Say)
	case "sleep":
		p.wait(s.Sleep)
	case "write":
		if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
			return err
		}
		return os.WriteFile(target, []byte(s.Content), 0o644)
	case "append":
		if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
			return err
		}
		f, err := os.OpenFile(target, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
		if err != nil {
			return err
		}
		if _, err := f.WriteString(s.Content); err != nil {
			f.Close()
			return err
		}
		return f.Close()
	case "delete":
		return os.RemoveAll(target)
	case "limit":
		msg, err := limitMessage(s.Limit)
		if err != nil {
			return err
		}
		fmt.Fprintln(p.stderr, msg)
		return errLimited
	default:
		return fmt.Errorf("unknown step %q", s.Kind)
	}
	return nil
}

// wait sleeps for a step's duration, divided by the speed factor.
func (p player) wait(d string) {
	dur, err := parseDelay(d)
	if err != nil || dur == 0 {
		return
	}
	p.sleep(time.Duration(float64(dur) / p.speed))
}
