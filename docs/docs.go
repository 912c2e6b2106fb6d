// Package docs embeds the user documentation (tax-rules.md, dsl-syntax.md, ...) so that front
// ends can serve it: the MCP server publishes it as resources.
package docs

import "embed"

// FS holds every file in this directory. Front ends read the Markdown documents by name, e.g.
// fs.ReadFile(docs.FS, "tax-rules.md").
//
// The pattern is "*" rather than "*.md" so the package builds before the documents exist.
//
//go:embed *
var FS embed.FS
