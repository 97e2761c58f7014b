package adapters

import (
	"encoding/json"
	"errors"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/autobuild-sh/autobuild/internal/agent"
	"github.com/autobuild-sh/autobuild/internal/failreport"
	"github.com/autobuild-sh/autobuild/internal/lazyre"
	"github.com/autobuild-sh/autobuild/internal/state"
)

const contextExhausted = failreport.ContextExhausted

// acpAuthRequired is ACP's error code for "authenticate first".
const acpAuthRequired = -32000

// usageAcc adds up what an ACP agent reports of its usage.
type usageAcc struct {
	in, out, cacheRead, cacheWrite int64
	cost                           float64
}

func (s *ACPSession) addUsage(u *usageAcc) {
	if u == nil {
		return
	}
	if s.usage == nil {
		s.usage = &usageAcc{}
	}
	s.usage.in += u.in
	s.usage.out += u.out
	s.usage.cacheRead += u.cacheRead
	s.usage.cacheWrite += u.cacheWrite
	if u.cost > 0 {
		s.usage.cost = u.cost
	}
}

// state is the usage as autobuild records it, nil when none was reported.
func (u *usageAcc) state() *state.Usage {
	if u == nil {
		return nil
	}
	return counted(&state.Usage{InputTokens: u.in, OutputTokens: u.out, CacheReadTokens: u.cacheRead,
		CacheWriteTokens: u.cacheWrite, CostUSD: u.cost, Turns: 1})
}

// promptUsage is what the prompt's answer reports: ACP's usage (opencode),
// or gemini's _meta.quota.token_count.
func promptUsage(r sdk.PromptResponse) *usageAcc {
	if u := r.Usage; u != nil {
		acc := &usageAcc{in: int64(u.InputTokens), out: int64(u.OutputTokens)}
		if u.CachedReadTokens != nil {
			acc.cacheRead = int64(*u.CachedReadTokens)
		}
		if u.CachedWriteTokens != nil {
			acc.cacheWrite = int64(*u.CachedWriteTokens)
		}
		return acc
	}
	quota, _ := r.Meta["quota"].(map[string]any)
	tc, _ := quota["token_count"].(map[string]any)
	if tc == nil {
		return nil
	}
	num := func(keys ...string) int64 {
		for _, k := range keys {
			if f, ok := tc[k].(float64); ok {
				return int64(f)
			}
		}
		return 0
	}
	return &usageAcc{in: num("input_tokens", "inputTokens", "prompt_tokens"), out: num("output_tokens", "outputTokens", "candidates_tokens")}
}

// acpErrorText is a failed request's error as text: its message and data.
func acpErrorText(err error) (code int, text string) {
	var re *sdk.RequestError
	if !errors.As(err, &re) {
		return 0, err.Error()
	}
	text = re.Message
	if re.Data != nil {
		if b, e := json.Marshal(re.Data); e == nil && string(b) != "null" {
			text += " " + string(b)
		}
	}
	return re.Code, text
}

// classify reads a failed request's error: ACP's auth_required code, an
// HTTP status the agent passes on, then its words.
func (s *ACPSession) classify(err error) *agent.Signal {
	code, text := acpErrorText(err)
	name := s.cfg.Agent
	if name == "" {
		name = "the ACP agent"
	}
	fx := s.cfg.Fixes
	if fx == nil {
		fx = acpFixes(name)
	}
	if acpContextRE().MatchString(text) {
		return &agent.Signal{Type: failreport.ContextExhausted, Message: cleanLine(firstLine(text))}
	}
	if code == acpAuthRequired {
		return fx.signal(name, failreport.AgentSetup, setupLogin, cleanLine(firstLine(text)))
	}
	if st := httpStatusIn(text); st != 0 {
		if t, kind, ok := statusSignal(st); ok {
			if sig := fx.fromText(name, text); sig != nil && sig.Type == t {
				return sig
			}
			return fx.signal(name, t, kind, cleanLine(firstLine(text)))
		}
	}
	return fx.fromText(name, text)
}

// acpFixes are the fixes for an ACP agent autobuild has no preset for.
func acpFixes(name string) fixes {
	return fixes{
		setupLogin:   "log in to " + name + " (run it once by itself) or set its API key",
		setupKey:     "check " + name + "'s API key or login; a key that worked before may have been revoked",
		setupRoot:    "run autobuild as a non-root user",
		setupTrust:   "run " + name + " once in the repository and trust it",
		setupAccess:  "check that " + name + "'s key may use its model",
		setupNetwork: "check the network and " + name + "'s model endpoint",
	}
}

// httpStatusIn finds an HTTP error status an agent quotes in its error
// ("status 429", "429 Too Many Requests", "[API Error: 401 ...]").
func httpStatusIn(text string) int {
	for _, m := range httpStatusRE().FindAllStringSubmatch(text, -1) {
		for _, g := range m[1:] {
			switch g {
			case "401":
				return 401
			case "403":
				return 403
			case "413":
				return 413
			case "429":
				return 429
			case "503":
				return 503
			case "529":
				return 529
			}
		}
	}
	return 0
}

// errorLineRE is a message line that reports an API error rather than
// saying something: "Error: 400 ...", "[API Error: 401 ...]".
// copilot sends its notes as chunks without line breaks between them
// ("Retrying...Error: ...").
var errorLineRE = lazyre.New(`(?m)(?:^|\.\.\.)\s*(\[?(?:API )?Error:? .*)$`)

// errorLine is the last error line of a message, "" for none.
func errorLine(msg string) string {
	m := errorLineRE().FindAllStringSubmatch(msg, -1)
	if len(m) == 0 {
		return ""
	}
	return cleanLine(m[len(m)-1][1])
}

// acpContextRE are the ACP agents' own names for a context that ran out
// (opencode's ContextOverflowError) that the shared patterns do not know.
var acpContextRE = lazyre.New(`(?i)ContextOverflowError|context exceeds (?:the )?model(?:'s)? limit|too large to compact`)

var httpStatusRE = lazyre.New(`(?i)(?:status|code|error|http)[^0-9\n]{0,12}\b(401|403|413|429|503|529)\b|\b(401|403|413|429|503|529)\s+(?:unauthori|forbidden|too many|service unavailable|payload too large|request entity)`)
