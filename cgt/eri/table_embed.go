//go:build !js

package eri

import _ "embed"

// embeddedTable is the table cmd/erigen writes (make eri) from ../shared/eri; NOTICE.txt beside
// it is the compilation's licence, which travels with it.
//
//go:embed table.txt
var embeddedTable string
