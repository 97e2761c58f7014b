package phaseid

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestJoin(t *testing.T) {
	t.Parallel()
	require.Equal(t, "", Join([]ID(nil), ", "))
	require.Equal(t, "2a", Join([]ID{"2a"}, ", "))
	require.Equal(t, "2A, 2-B, 10", Join([]Display{"2A", "2-B", "10"}, ", "))
}

func TestOrFallsBackToTheID(t *testing.T) {
	t.Parallel()
	require.Equal(t, Display("2-A"), Display("2-A").Or("2a"))
	require.Equal(t, Display("2a"), Display("").Or("2a"), "a record without a display id shows its id")
}

// The types are strings to encoding/json: the state files and the event
// stream keep their format.
func TestJSONIsAPlainString(t *testing.T) {
	t.Parallel()
	type rec struct {
		ID      ID             `json:"phase_id"`
		Display Display        `json:"display_id"`
		Deps    []ID           `json:"deps"`
		ByID    map[ID]Display `json:"by_id"`
	}
	in := rec{ID: "2a", Display: "2-A", Deps: []ID{"1"}, ByID: map[ID]Display{"2a": "2-A"}}
	out, err := json.Marshal(in)
	require.NoError(t, err)
	require.JSONEq(t, `{"phase_id":"2a","display_id":"2-A","deps":["1"],"by_id":{"2a":"2-A"}}`, string(out))
	var back rec
	require.NoError(t, json.Unmarshal(out, &back))
	require.Equal(t, in, back)
}
