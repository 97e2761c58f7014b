package wiretest

import (
	"encoding/json"
	"reflect"
	"testing"

	"go.temporal.io/sdk/converter"
)

// RoundTrip sends the value in through JSON and through Temporal's default
// data converter (what an activity's input and result, an update's
// argument and a heartbeat's details go through), and fails t unless each
// comes back equal to it. T is the value's type, not a pointer.
func RoundTrip[T any](t testing.TB, in T) {
	t.Helper()
	data, err := json.Marshal(in)
	if err != nil {
		t.Fatalf("JSON of %T: %v", in, err)
	}
	var back T
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatalf("reading back the JSON of %T: %v", in, err)
	}
	if !reflect.DeepEqual(in, back) {
		t.Fatalf("%T through JSON:\n%s\ncame back as\n%+v\nnot\n%+v", in, data, back, in)
	}
	dc := converter.GetDefaultDataConverter()
	payload, err := dc.ToPayload(in)
	if err != nil {
		t.Fatalf("Temporal's data converter on %T: %v", in, err)
	}
	var again T
	if err := dc.FromPayload(payload, &again); err != nil {
		t.Fatalf("Temporal's data converter reading back %T: %v", in, err)
	}
	if !reflect.DeepEqual(in, again) {
		t.Fatalf("%T through Temporal's data converter came back as\n%+v\nnot\n%+v", in, again, in)
	}
}
