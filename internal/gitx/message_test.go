package gitx

import (
	"context"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/phaseid"
)

func TestConventionalMessage(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		in     MessageInput
		header string
	}{
		{"feat with scope from files", MessageInput{Name: "Backend API", Files: []string{"internal/api/server.go", "internal/api/routes.go", "go.mod"}}, "feat(api): backend API"},
		{"acronym kept", MessageInput{Name: "API gateway", Files: []string{"gateway/main.go"}}, "feat(gateway): API gateway"},
		{"test type", MessageInput{Name: "Integration tests", Files: []string{"tests/e2e/run_test.go"}}, "test(tests): integration tests"},
		{"testing type", MessageInput{Name: "Testing infrastructure"}, "test(infrastructure): testing infrastructure"},
		{"docs type", MessageInput{Name: "Documentation", Files: []string{"README.md"}}, "docs: documentation"},
		{"chore bootstrap", MessageInput{Name: "Bootstrap", Files: []string{"go.mod", "main.go"}}, "chore: bootstrap"},
		{"chore ci", MessageInput{Name: "Set up CI", Files: []string{".github/workflows/ci.yml"}}, "chore(github): set up CI"},
		{"fix", MessageInput{Name: "Fix login bug", Files: []string{"src/auth/login.ts"}}, "fix(auth): fix login bug"},
		{"refactor", MessageInput{Name: "Refactor storage layer."}, "refactor(storage): refactor storage layer"},
		{"perf", MessageInput{Name: "Performance tuning", Files: []string{"pkg/cache/lru.go"}}, "perf(cache): performance tuning"},
		{"cmd skipped", MessageInput{Name: "CLI", Files: []string{"cmd/autobuild/main.go"}}, "feat(autobuild): CLI"},
		{"most common dir wins", MessageInput{Name: "Frontend", Files: []string{"web/a.ts", "api/x.go", "web/b.ts"}}, "feat(web): frontend"},
		{"tie goes to first", MessageInput{Name: "Both", Files: []string{"api/x.go", "web/a.ts"}}, "feat(api): both"},
		{"scope from name", MessageInput{Name: "Add the user accounts", Files: []string{"main.go"}}, "feat(user): add the user accounts"},
		{"no scope at all", MessageInput{Name: "Phase 3"}, "feat: phase 3"},
		{"empty name", MessageInput{}, "feat: phase 2A"},
		{"whitespace collapsed", MessageInput{Name: "  Backend   API  "}, "feat(backend): backend API"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			in := tt.in
			in.PhaseID, in.DisplayID = "2a", "2A"
			msg := ConventionalMessage(in)
			header, rest, ok := strings.Cut(msg, "\n")
			require.True(t, ok)
			require.Equal(t, tt.header, header)
			require.Equal(t, "\nPhase 2A of the plan.\n\nAutobuild-Phase: 2a\n", rest)
		})
	}
}

func TestConventionalMessageLongName(t *testing.T) {
	t.Parallel()
	name := "Implement the complete user management backend with roles, permissions, audit logging and invitations"
	msg := ConventionalMessage(MessageInput{PhaseID: "4", DisplayID: "4", Name: name, Files: []string{"internal/users/x.go"}})
	header, _, _ := strings.Cut(msg, "\n")
	require.LessOrEqual(t, utf8.RuneCountInString(header), 72)
	require.True(t, strings.HasPrefix(header, "feat(users): implement the complete user management"), header)
	require.False(t, strings.HasSuffix(header, ","), header)
	require.False(t, strings.HasSuffix(header, " "), header)

	long := ConventionalMessage(MessageInput{PhaseID: "5", Name: "X", Files: []string{strings.Repeat("d", 60) + "/f.go"}})
	require.True(t, strings.HasPrefix(long, "feat: x\n"), "an overlong scope is dropped: %q", long)
	require.Contains(t, long, "Phase 5 of the plan.")
}

func TestPhaseCommitsRoundTrip(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r, root, base := newRepoAtBase(t)

	want := map[phaseid.ID]string{}
	for _, id := range []phaseid.ID{"0", "1", "2a"} {
		writeFile(t, root, "p"+string(id)+".txt", string(id))
		sha, _, err := r.CommitAll(ctx, "", ConventionalMessage(MessageInput{PhaseID: id, DisplayID: phaseid.Display(strings.ToUpper(string(id))), Name: "Phase " + string(id)}))
		require.NoError(t, err)
		want[id] = sha
	}
	// An agent's own message with the trailer appended, and a user commit
	// without one.
	writeFile(t, root, "p3.txt", "3")
	sha3, _, err := r.CommitAll(ctx, "", "Add things\n\nLong body.\n\n"+TrailerKey+": 3\n")
	require.NoError(t, err)
	want["3"] = sha3
	writeFile(t, root, "user.txt", "u")
	gitT(t, root, "add", "-A")
	gitT(t, root, "commit", "-qm", "user fix")
	head, err := r.Head(ctx, "")
	require.NoError(t, err)

	got, err := r.PhaseCommits(ctx, base, head)
	require.NoError(t, err)
	require.Equal(t, want, got)

	got, err = r.PhaseCommits(ctx, want["1"], head)
	require.NoError(t, err)
	require.Equal(t, map[phaseid.ID]string{"2a": want["2a"], "3": sha3}, got)

	got, err = r.PhaseCommits(ctx, "", head)
	require.NoError(t, err)
	require.Len(t, got, 4)

	got, err = r.PhaseCommits(ctx, head, head)
	require.NoError(t, err)
	require.Empty(t, got)
}
