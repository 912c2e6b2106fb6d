//go:build js

package commands

import "embed"

// schemaFiles in the browser module are the argument schemas only (schemas/*.input.json),
// which check every request. The result schemas (.data.json, 16 KB of the module gzipped) serve
// the catalog, the MCP tool list and the generated contracts, none of which the page links.
//
//go:embed schemas/*.input.json
var schemaFiles embed.FS
