//go:build js

package eri

// embeddedTable is empty in the browser module, which the page gives the same table.txt
// (UseBundled) after fetching it beside the module: 48 KB less in the module every visitor
// downloads.
var embeddedTable string
