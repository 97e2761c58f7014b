package agenttest

import (
	"time"

	"github.com/autobuild-sh/autobuild/internal/agenttest/mockapi"
)

// ResultJSON is the result object the scripted agent ends a successful run with.
const ResultJSON = `{"phase_id": "1", "status": "complete", "tasks": {"total": 1, "completed": 1}, ` +
	`"commit_message": "feat(hello): add hello.txt", "files": {"created": ["hello.txt"], "modified": [], "deleted": []}, "error": null}`

// ExampleResultJSON is the example result object autobuild's prompt shows;
// a CLI that echoes the prompt must never have it taken for its result.
const ExampleResultJSON = `{"phase_id": "1", "status": "complete", "tasks": {"total": 1, "completed": 1}, ` +
	`"commit_message": "feat(scope): what this phase adds", "files": {"created": ["path/to/new_file.go"], "modified": [], "deleted": []}, "error": null}`

// Prompt is the task every recorded case gives the CLI.
const Prompt = "Create the file hello.txt containing the line hello, then end with the result object.\n"

// EchoPrompt is Prompt with the example result object autobuild's prompt shows.
const EchoPrompt = Prompt + "\nThe last thing you print must be a result object in a fenced json block, like this:\n\n```json\n" + ExampleResultJSON + "\n```\n"

// SuccessText is the final message of a successful run.
const SuccessText = "I created hello.txt.\n\n```json\n" + ResultJSON + "\n```"

// Case is one recorded situation: what the mock answers and how the CLI is run.
type Case struct {
	Name    string
	Replies []mockapi.Reply
	Options Options
	Prompt  string
	// NoSandbox runs claude --dangerously-skip-permissions without IS_SANDBOX=1:
	// as root it refuses.
	NoSandbox bool
	// NoSkipTrust runs gemini without --skip-trust, in an untrusted folder.
	NoSkipTrust bool
	// TextMode runs codex without --json, to show its prompt echo on stderr.
	TextMode bool
	// OnlyRoot: the case means something only when the tests run as root.
	OnlyRoot bool
}

// Cases are the cases recorded for cli (claude, codex or gemini).
func Cases(cli string) []Case {
	success := []mockapi.Reply{mockapi.WriteFile("hello.txt", "hello\n"), mockapi.Text(SuccessText)}
	cs := []Case{
		{Name: "success", Replies: success},
		{Name: "auth_401", Replies: []mockapi.Reply{mockapi.Fail(mockapi.Unauthorized)}},
		{Name: "forbidden_403", Replies: []mockapi.Reply{mockapi.Fail(mockapi.Forbidden)}},
		{Name: "rate_429", Replies: []mockapi.Reply{mockapi.Fail(mockapi.RateLimited)}},
		{Name: "overloaded", Replies: []mockapi.Reply{mockapi.Fail(mockapi.Overloaded)}},
		{Name: "prompt_too_long", Replies: []mockapi.Reply{mockapi.Fail(mockapi.PromptTooLong)}},
		{Name: "no_result", Replies: []mockapi.Reply{mockapi.WriteFile("hello.txt", "hello\n"), mockapi.Text("I created hello.txt.")}},
		{Name: "not_logged_in", Options: Options{NoAuth: true}},
	}
	// A subscription's limits, as the APIs answer them: claude logged in
	// with an OAuth token prints "You've hit your 5-hour limit · resets
	// 10:10pm (UTC)" (a reset later today) or "… weekly limit · resets Nov
	// 29, 11:23pm (UTC)" (days away); codex "… try again at 10:11 PM." or
	// "… try again at Jan 15th, 2027 8:00 AM.".
	now := time.Now()
	fiveHour := mockapi.Fail(mockapi.UsageLimit).Resetting(now.Add(2*time.Hour + 17*time.Second))
	weekly := mockapi.Fail(mockapi.WeeklyLimit).Resetting(now.Add(3*24*time.Hour + 5*time.Hour + 12*time.Second))
	opus := mockapi.Fail(mockapi.OpusLimit).Resetting(now.Add(4*24*time.Hour + 17*time.Second))
	// A reset later today: in five minutes, or just before midnight.
	today := now.Add(5 * time.Minute)
	if today.Day() != now.Day() {
		today = time.Date(now.Year(), now.Month(), now.Day(), 23, 59, 30, 0, now.Location())
	}
	switch cli {
	case "claude":
		sub := Options{Subscription: true}
		cs = append(cs, Case{Name: "root_refusal", Replies: success, NoSandbox: true, OnlyRoot: true},
			Case{Name: "usage_limit", Replies: []mockapi.Reply{fiveHour}, Options: sub},
			Case{Name: "weekly_limit", Replies: []mockapi.Reply{weekly}, Options: sub},
			Case{Name: "opus_limit", Replies: []mockapi.Reply{opus}, Options: sub})
	case "codex":
		cs = append(cs,
			Case{Name: "usage_limit", Replies: []mockapi.Reply{mockapi.Fail(mockapi.UsageLimit)}},
			Case{Name: "usage_limit_today", Replies: []mockapi.Reply{mockapi.Fail(mockapi.UsageLimit).Resetting(today)}},
			Case{Name: "high_demand", Replies: []mockapi.Reply{mockapi.Fail(mockapi.HighDemand)}},
			Case{Name: "prompt_echo", Prompt: EchoPrompt, Replies: []mockapi.Reply{mockapi.Fail(mockapi.Unauthorized)}},
			Case{Name: "prompt_echo_text", Prompt: EchoPrompt, Replies: []mockapi.Reply{mockapi.Fail(mockapi.Unauthorized)}, TextMode: true},
		)
	case "gemini":
		cs = append(cs, Case{Name: "untrusted", Replies: success, NoSkipTrust: true})
	}
	return cs
}
