// Package wiretest checks, for tests only, that a type can cross the
// network as plain data: NotPlain walks it for what cannot (a func, a
// chan, an interface, an unexported field), Fill sets every field of a
// value, and RoundTrip sends a value through JSON and Temporal's default
// data converter and back.
package wiretest

import (
	"encoding"
	"encoding/json"
	"fmt"
	"reflect"
)

// NotPlain lists what in type t cannot cross the network as data: a func,
// a chan or an interface (an io.Writer, an error), and an unexported field
// (JSON and Temporal's data converter drop it), each named by its path
// ("Attempt.Log"). A type that marshals itself (time.Time) is taken as
// plain. Request, Result and the remote package's request and result must
// list nothing (their tests say so).
func NotPlain(t reflect.Type) []string {
	var out []string
	walkPlain(t, t.Name(), map[reflect.Type]bool{}, &out)
	return out
}

var (
	jsonMarshaler = reflect.TypeFor[json.Marshaler]()
	textMarshaler = reflect.TypeFor[encoding.TextMarshaler]()
)

func walkPlain(t reflect.Type, path string, seen map[reflect.Type]bool, out *[]string) {
	if seen[t] {
		return
	}
	seen[t] = true
	switch t.Kind() {
	case reflect.Func, reflect.Chan, reflect.Interface, reflect.UnsafePointer, reflect.Uintptr, reflect.Complex64, reflect.Complex128:
		*out = append(*out, fmt.Sprintf("%s is a %s (%s)", path, t.Kind(), t))
	case reflect.Pointer, reflect.Slice, reflect.Array:
		walkPlain(t.Elem(), path, seen, out)
	case reflect.Map:
		walkPlain(t.Key(), path+"[key]", seen, out)
		walkPlain(t.Elem(), path, seen, out)
	case reflect.Struct:
		if marshals(t) {
			return
		}
		for f := range t.Fields() {
			p := path + "." + f.Name
			if !f.IsExported() {
				*out = append(*out, fmt.Sprintf("%s is unexported (%s): it does not cross", p, f.Type))
				continue
			}
			if f.Tag.Get("json") == "-" {
				*out = append(*out, fmt.Sprintf("%s is left out of JSON", p))
				continue
			}
			walkPlain(f.Type, p, seen, out)
		}
	}
}

// marshals says whether t (or *t) encodes itself.
func marshals(t reflect.Type) bool {
	p := reflect.PointerTo(t)
	return t.Implements(jsonMarshaler) || p.Implements(jsonMarshaler) ||
		t.Implements(textMarshaler) || p.Implements(textMarshaler)
}
