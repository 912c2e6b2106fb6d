package jsontext

import "reflect"

// Empty is encoding/json's test for a field tagged omitempty: false, 0, a nil pointer or
// interface, an empty array, slice, map or string. The reflective writers (envelope's
// streaming writer, the browser module's JSON codec) share it.
func Empty(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Array, reflect.Map, reflect.Slice, reflect.String:
		return v.Len() == 0
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.Interface, reflect.Pointer:
		return v.IsZero()
	}
	return false
}
