// Package docs embeds the user documentation (tax-rules.md, dsl-syntax.md, ...) so that front
// ends can serve it: the MCP server publishes it as resources.
package docs

import "embed"

// FS holds the Markdown documents of this directory. Front ends read them by name, e.g.
// fs.ReadFile(docs.FS, "tax-rules.md").
//
//go:embed *.md
var FS embed.FS
