package commands

import (
	"encoding"
	"encoding/json"
	"reflect"
	"testing"
)

// TestNoTextOnlyTypes: the browser module's JSON codec (internal/jsoncodec) does not consult
// MarshalText or UnmarshalText, so no type a command's arguments or result holds may have one
// without the JSON method encoding/json would otherwise use it for. (The values the page
// decodes that are not arguments, such as broker exports, are checked by make test-jsoncodec.)
func TestNoTextOnlyTypes(t *testing.T) {
	seen := map[reflect.Type]bool{}
	var walk func(reflect.Type, string)
	walk = func(typ reflect.Type, path string) {
		if seen[typ] {
			return
		}
		seen[typ] = true
		marshals, unmarshals := hasMethod(typ, reflect.TypeFor[json.Marshaler]()), hasMethod(typ, reflect.TypeFor[json.Unmarshaler]())
		if hasMethod(typ, reflect.TypeFor[encoding.TextMarshaler]()) && !marshals {
			t.Errorf("%s (%v) has MarshalText and no MarshalJSON: the page would write it differently", path, typ)
		}
		if hasMethod(typ, reflect.TypeFor[encoding.TextUnmarshaler]()) && !unmarshals {
			t.Errorf("%s (%v) has UnmarshalText and no UnmarshalJSON: the page would read it differently", path, typ)
		}
		if marshals && unmarshals {
			return
		}
		switch typ.Kind() {
		case reflect.Pointer, reflect.Slice, reflect.Array:
			walk(typ.Elem(), path+"[]")
		case reflect.Map:
			walk(typ.Key(), path+"{key}")
			walk(typ.Elem(), path+"{}")
		case reflect.Struct:
			for i := 0; i < typ.NumField(); i++ {
				if f := typ.Field(i); f.IsExported() || f.Anonymous {
					walk(f.Type, path+"."+f.Name)
				}
			}
		}
	}
	for _, c := range All() {
		walk(c.ArgsType(), c.Meta().Name+" arguments")
		walk(c.ResultType(), c.Meta().Name+" result")
	}
	if len(seen) < 50 {
		t.Fatalf("walked only %d types", len(seen))
	}
}

func hasMethod(typ, iface reflect.Type) bool {
	return typ.Implements(iface) || typ.Kind() != reflect.Pointer && typ.Kind() != reflect.Interface && reflect.PointerTo(typ).Implements(iface)
}
