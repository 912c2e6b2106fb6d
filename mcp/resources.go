package mcp

import (
	"context"
	"fmt"
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

// MaxResourceBytes is the largest file a resources/read returns (a binary one is sent as
// base64, a third larger): what one answer may hold, as a tool result's MaxChars.
const MaxResourceBytes = MaxChars

// resourceReads bounds the resources/read requests served at once: each holds up to
// MaxResourceBytes, so a client asking for many at once cannot make the server hold more
// than a few.
var resourceReads = make(chan struct{}, 2)

// boundedResources is a resource handler middleware: reads wait their turn (at most
// cap(resourceReads) at once, or until the request ends) and an answer over MaxChars
// characters is an error, never sent.
func boundedResources(next server.ResourceHandlerFunc) server.ResourceHandlerFunc {
	return func(ctx context.Context, req mcpgo.ReadResourceRequest) ([]mcpgo.ResourceContents, error) {
		select {
		case resourceReads <- struct{}{}:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		defer func() { <-resourceReads }()
		contents, err := next(ctx, req)
		if err != nil {
			return nil, err
		}
		n := 0
		for _, c := range contents {
			switch t := c.(type) {
			case mcpgo.TextResourceContents:
				n += len(t.Text)
			case mcpgo.BlobResourceContents:
				n += len(t.Blob)
			}
		}
		if n > MaxChars {
			return nil, fmt.Errorf("%s is %d characters, over the %d a resources/read answer may hold", req.Params.URI, n, MaxChars)
		}
		return contents, nil
	}
}

// maxPromptArgument is the longest prompt argument accepted: prompts take a year, an income,
// a few prices, and repeat them in their text.
const maxPromptArgument = 1000

// boundedPrompts is a prompt handler middleware refusing an argument longer than
// maxPromptArgument, so that a prompt's text stays short.
func boundedPrompts(next server.PromptHandlerFunc) server.PromptHandlerFunc {
	return func(ctx context.Context, req mcpgo.GetPromptRequest) (*mcpgo.GetPromptResult, error) {
		for k, v := range req.Params.Arguments {
			if len(v) > maxPromptArgument {
				return nil, fmt.Errorf("prompt argument %s is %d characters; prompt arguments are at most %d", clipName(k), len(v), maxPromptArgument)
			}
		}
		return next(ctx, req)
	}
}

// clipName quotes a name from a request, cut to a sensible length.
func clipName(s string) string {
	if len(s) > 40 {
		s = s[:40] + "…"
	}
	return fmt.Sprintf("%q", s)
}
