package agent

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// FuzzParseResult feeds arbitrary agent output to ParseResult: it never
// panics; it finds a result, finds none (ErrNoResult), or says what is
// wrong; a result it finds has a valid status and counts, and, printed
// back as the output's last JSON block, is found again unchanged.
func FuzzParseResult(f *testing.F) {
	for _, seed := range []string{
		"",
		"Done.\n```json\n{\"phase_id\": \"2a\", \"status\": \"complete\", \"tasks\": {\"total\": 2, \"completed\": 2}, \"commit_message\": \"feat: x\"}\n```\n",
		"{\"status\": \"failed\", \"error\": {\"type\": \"test_failure\", \"message\": \"boom\"}}",
		"```json\n{\"status\": \"COMPLETE\"\n```",
		"```\n{\"tasks\": {\"total\": -1}}\n```",
		"{\"status\": \"complete\"} {\"status\": \"failed\"}",
		"progress {\"step\": 1}\n{\"commit_message\": \"\\u001b]52;c;AAAA\\u0007\"}",
		"```json\n```\n```json\n{\"status\": \"complete\"}\n```\ntrailing words",
		strings.Repeat("{", 1000),
		"\xff\xfe{\"status\": \"complete\"}",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, output string) {
		r, err := ParseResult(output)
		if err != nil {
			require.Nil(t, r)
			if !errors.Is(err, ErrNoResult) {
				require.NotEmpty(t, err.Error())
			}
			return
		}
		require.NotNil(t, r)
		require.Contains(t, []string{"", StatusComplete, StatusFailed}, r.Status)
		require.GreaterOrEqual(t, r.Tasks.Total, 0)
		require.GreaterOrEqual(t, r.Tasks.Completed, 0)
		block, err := json.Marshal(r)
		require.NoError(t, err)
		again, err := ParseResult("```json\n" + string(block) + "\n```\n")
		require.NoError(t, err)
		require.Equal(t, r, again)
	})
}
