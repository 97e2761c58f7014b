package agenttest

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/agent"
	"github.com/autobuild-sh/autobuild/internal/agent/adapters"
	"github.com/autobuild-sh/autobuild/internal/agent/prompts"
	"github.com/autobuild-sh/autobuild/internal/agenttest/mockapi"
	"github.com/autobuild-sh/autobuild/internal/gittest"
)

// TestContinueSession runs each CLI that can resume into its model's
// context limit, then continues its session as autobuild's retry does: the
// second run's request to the mock carries the first prompt (the session's
// earlier messages) and the short continue prompt, and the work completes.
func TestContinueSession(t *testing.T) {
	for _, cli := range []string{"claude", "codex"} {
		t.Run(cli, func(t *testing.T) {
			t.Parallel()
			bin := Require(t, cli)
			srv := mockapi.New(t, mockapi.API(cli), mockapi.Fail(mockapi.PromptTooLong),
				mockapi.WriteFile("hello.txt", "hello\n"), mockapi.Text(SuccessText))
			work := gittest.New(t, gittest.NoCommit())
			env := Env(t, srv, Options{Sandbox: true})
			a, err := agent.Resolve(cli, nil)
			require.NoError(t, err)

			first := Exec(t, Invocation{Bin: bin, Args: a.Args[1:], Stdin: Prompt, Dir: work, Env: env})
			out := parse(a, first, Prompt)
			require.NotNil(t, out.Signal, "stdout %s\nstderr %s", first.Stdout, first.Stderr)
			require.Equal(t, "context_exhausted", string(out.Signal.Type))
			require.NotEmpty(t, out.Session, "the stream names the session")

			args := adapters.ResumeArgs(a, out.Session)
			second := Exec(t, Invocation{Bin: bin, Args: args[1:], Stdin: prompts.Continue, Dir: work, Env: env})
			out2 := parse(a, second, prompts.Continue)
			require.Nil(t, out2.Signal, "stdout %s\nstderr %s", second.Stdout, second.Stderr)
			res, err := agent.ParseResult(out2.Final)
			require.NoError(t, err)
			require.Equal(t, "complete", res.Status)
			require.Equal(t, out.Session, out2.Session, "the same session goes on")

			reqs := srv.ModelRequests()
			require.GreaterOrEqual(t, len(reqs), 2)
			// codex first compacts the resumed session (a request of its
			// own, which carries the history too), then sends the prompt.
			carried, continued := false, false
			for _, r := range reqs[1:] {
				body := string(r.Body)
				carried = carried || strings.Contains(body, "Create the file hello.txt")
				continued = continued || (strings.Contains(body, "Create the file hello.txt") && strings.Contains(body, "you ran out of context"))
			}
			require.True(t, carried, "a continued request carries the session's first prompt")
			require.True(t, continued, "the continue prompt is sent with the session's history")
			t.Logf("CONTINUE %s: first run exit %d in %.1f s, continued run exit %d in %.1f s, %d model requests",
				cli, first.Exit, first.Duration.Seconds(), second.Exit, second.Duration.Seconds(), len(reqs))
		})
	}
}

func parse(a agent.Agent, o Outcome, prompt string) agent.Outcome {
	p := adapters.For(a).NewParser(prompt, "")
	for _, l := range strings.Split(o.Stdout, "\n") {
		p.Stdout(l)
	}
	for _, l := range strings.Split(o.Stderr, "\n") {
		p.Stderr(l)
	}
	return p.Finish(o.Exit)
}
