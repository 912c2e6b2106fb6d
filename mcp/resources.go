package mcp

import (
	"context"
	"io/fs"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/cgt-tools/cgt/docs"
)

// Resource is a fixed document the server publishes.
type Resource struct {
	URI         string
	Name        string
	Title       string
	Description string
	MIMEType    string
	Text        []byte
}

// docResources are the documents of docs/ the server publishes, by file name.
var docResources = []struct{ file, uri, name, title, description string }{
	{"tax-rules.md", "cgt://docs/tax-rules", "tax-rules", "UK CGT rules cgt applies",
		"How cgt computes gains: share identification (same day, 30 days, Section 104), tax years, annual exempt amounts and rates, losses, exchange rates and rounding, with HMRC references."},
	{"dsl-syntax.md", "cgt://docs/dsl-syntax", "dsl-syntax", "Ledger syntax",
		"The ledger language: one transaction per line (BUY, SELL, DIVIDEND, ACCUMULATION, CAPRETURN, SPLIT, UNSPLIT), amounts and currencies, fees, comments, and the JSON transaction form."},
}

// cgtResources are the documentation present in docs/ and the catalog.
func cgtResources(catalogJSON []byte) []Resource {
	var out []Resource
	for _, d := range docResources {
		text, err := fs.ReadFile(docs.FS, d.file)
		if err != nil {
			continue // not written yet: the resource is simply not offered
		}
		out = append(out, Resource{URI: d.uri, Name: d.name, Title: d.title, Description: d.description,
			MIMEType: "text/markdown", Text: text})
	}
	return append(out, catalogResource(catalogJSON))
}

func catalogResource(catalogJSON []byte) Resource {
	return Resource{URI: "cgt://catalog/tools.json", Name: "tools.json", Title: "cgt command catalog",
		Description: "The machine contract: every command with its arguments, input and output schemas, side effects, error codes and agent hints (the same content as tools.json).",
		MIMEType:    "application/json", Text: catalogJSON}
}

// addResources registers each resource with a handler that returns its fixed text.
func addResources(s *server.MCPServer, resources []Resource) {
	for _, r := range resources {
		res := mcpgo.NewResource(r.URI, r.Name, mcpgo.WithResourceDescription(r.Description), mcpgo.WithMIMEType(r.MIMEType))
		res.Title = r.Title
		contents := []mcpgo.ResourceContents{mcpgo.TextResourceContents{URI: r.URI, MIMEType: r.MIMEType, Text: string(r.Text)}}
		s.AddResource(res, func(context.Context, mcpgo.ReadResourceRequest) ([]mcpgo.ResourceContents, error) {
			return contents, nil
		})
	}
}
