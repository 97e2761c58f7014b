package wiretest

import (
	"reflect"
	"strconv"
	"time"
)

// Fill sets every field of the value v points to, recursively, to a value
// that is not its zero (a string names its field, numbers count up, a
// slice or a map gets one element, a pointer a filled value), so that a
// round trip that drops or mixes up a field shows. A type met again below
// itself (a result that holds a result) is left nil there.
func Fill(v any) {
	f := filler{now: time.Date(2026, 11, 27, 4, 5, 6, 0, time.UTC)}
	f.fill(reflect.ValueOf(v).Elem(), "v", map[reflect.Type]bool{})
}

type filler struct {
	n   int
	now time.Time
}

var timeType = reflect.TypeFor[time.Time]()

func (f *filler) fill(v reflect.Value, path string, above map[reflect.Type]bool) {
	f.n++
	switch {
	case v.Type() == timeType:
		v.Set(reflect.ValueOf(f.now.Add(time.Duration(f.n) * time.Second)))
		return
	case above[v.Type()]:
		return
	}
	above[v.Type()] = true
	defer delete(above, v.Type())
	switch v.Kind() {
	case reflect.String:
		v.SetString(path)
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(int64(f.n))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(uint64(f.n))
	case reflect.Float32, reflect.Float64:
		v.SetFloat(float64(f.n) + 0.5)
	case reflect.Pointer:
		if above[v.Type().Elem()] {
			return
		}
		p := reflect.New(v.Type().Elem())
		f.fill(p.Elem(), path, above)
		v.Set(p)
	case reflect.Slice:
		s := reflect.MakeSlice(v.Type(), 1, 1)
		f.fill(s.Index(0), path+"[0]", above)
		v.Set(s)
	case reflect.Map:
		m := reflect.MakeMap(v.Type())
		k := reflect.New(v.Type().Key()).Elem()
		f.fill(k, path+"-key"+strconv.Itoa(f.n), above)
		e := reflect.New(v.Type().Elem()).Elem()
		f.fill(e, path+"[k]", above)
		m.SetMapIndex(k, e)
		v.Set(m)
	case reflect.Struct:
		for i := range v.NumField() {
			if sf := v.Type().Field(i); sf.IsExported() {
				f.fill(v.Field(i), path+"."+sf.Name, above)
			}
		}
	}
}
