package remote

import (
	"reflect"
	"strings"
	"testing"

	"github.com/autobuild-sh/autobuild/internal/executor/wiretest"
)

// What crosses the server (a request, a result, a limit's details, a
// heartbeat's progress) is plain data, and the request and result are the
// engine's own with the remote's fields beside them: one definition.
func TestWhatCrossesIsPlain(t *testing.T) {
	for _, typ := range []reflect.Type{reflect.TypeFor[AttemptRequest](), reflect.TypeFor[AttemptResult](),
		reflect.TypeFor[Limit](), reflect.TypeFor[Progress]()} {
		if bad := wiretest.NotPlain(typ); len(bad) > 0 {
			t.Errorf("%s cannot cross the network:\n%s", typ, strings.Join(bad, "\n"))
		}
	}
	for typ, embeds := range map[reflect.Type]string{
		reflect.TypeFor[AttemptRequest](): "executor.Request", reflect.TypeFor[AttemptResult](): "executor.Result",
	} {
		if f := typ.Field(0); !f.Anonymous || f.Type.String() != embeds {
			t.Errorf("%s's first field is %s, want the embedded %s", typ, f.Type, embeds)
		}
	}
}

func TestRequestAndResultRoundTrip(t *testing.T) {
	var req AttemptRequest
	wiretest.Fill(&req)
	if req.Base == "" || req.Remote == "" || req.WaitLimit == 0 {
		t.Fatalf("Fill left fields empty: %+v", req)
	}
	wiretest.RoundTrip(t, req)
	var res AttemptResult
	wiretest.Fill(&res)
	if res.Commit == "" || res.Limit == nil || res.Fault == nil || res.Worker == "" {
		t.Fatalf("Fill left fields empty: %+v", res)
	}
	wiretest.RoundTrip(t, res)
	var l Limit
	wiretest.Fill(&l)
	if l.Result == nil || l.Result.Limit != nil {
		t.Fatalf("Fill of a Limit: %+v", l)
	}
	wiretest.RoundTrip(t, l)
}
