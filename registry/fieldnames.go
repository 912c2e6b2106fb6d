//go:build !js

package registry

import (
	"reflect"

	"github.com/cgt-tools/cgt/records"
)

// fieldNames are the field names a result type's records can carry, listed in the fields
// argument's schema (records.FieldNames).
func fieldNames(t reflect.Type) []string { return records.FieldNames(t) }
