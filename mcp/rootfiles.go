package mcp

import (
	"bytes"
	"context"
	"encoding/base64"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/cgt-tools/cgt/cgt/imports"
)

// The files under the roots are listed as resources, so an agent can see what the person
// has given it: ledgers, broker exports and HMRC rate files, in every subfolder. Dot files and
// folders (and node_modules) are left out, and so is every other file. The list is made again
// on each resources/list, so files added while the server runs appear; each is read through
// the same root rules as a path argument.
const (
	maxRootEntries = 20000 // directory entries visited per listing, over all roots
	maxRootFiles   = 500   // files listed at most
	sniffBytes     = 64 << 10
)

// rootFileExts are the extensions of the files that may be ledgers or exports; which they
// are is read from the content (except .cgt, which is a ledger by name).
var rootFileExts = map[string]string{
	".cgt": "text/plain", ".txt": "text/plain", ".csv": "text/csv", ".tsv": "text/tab-separated-values",
	".json": "application/json", ".xml": "application/xml",
}

// rootFile is one file under a root, as listed.
type rootFile struct {
	abs, name, kind, mime string
	size                  int64
}

// scanRoots lists the ledgers, exports and rate files under the roots, by relative path.
func scanRoots(roots *Roots) []rootFile {
	var out []rootFile
	visited := 0
	multi := len(roots.dirs) > 1
	for _, dir := range roots.dirs {
		_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			visited++
			if visited > maxRootEntries || len(out) >= maxRootFiles {
				return fs.SkipAll
			}
			if err != nil {
				return nil
			}
			name := d.Name()
			if p != dir && (strings.HasPrefix(name, ".") || d.IsDir() && name == "node_modules") {
				if d.IsDir() {
					return fs.SkipDir
				}
				return nil
			}
			mime, ok := rootFileExts[strings.ToLower(filepath.Ext(name))]
			if d.IsDir() || !ok {
				return nil
			}
			info, err := d.Info()
			if err != nil || !info.Mode().IsRegular() || info.Size() > MaxFileSize || info.Size() == 0 {
				return nil
			}
			kind := classify(p, name)
			if kind == "" {
				return nil
			}
			rel, _ := filepath.Rel(dir, p)
			rel = filepath.ToSlash(rel)
			if multi {
				rel = filepath.Base(dir) + "/" + rel
			}
			out = append(out, rootFile{abs: p, name: rel, kind: kind, mime: mime, size: info.Size()})
			return nil
		})
	}
	slices.SortFunc(out, func(a, b rootFile) int { return strings.Compare(a.name, b.name) })
	return out
}

var ledgerLine = regexp.MustCompile(`^\s*\d{4}-\d{2}-\d{2}\s+[A-Za-z]+\s`)

// classify says what a file is from its start: a ledger, a broker's export (naming the
// broker), HMRC's monthly rates; "" for anything else.
func classify(p, name string) string {
	if strings.EqualFold(filepath.Ext(name), ".cgt") {
		return "ledger"
	}
	f, err := os.Open(p)
	if err != nil {
		return ""
	}
	head, _ := io.ReadAll(io.LimitReader(f, sniffBytes))
	f.Close()
	if im := imports.Detect(head); im != nil {
		return "broker export: " + im.Title
	}
	trimmed := bytes.TrimLeft(head, "\ufeff \t\r\n")
	switch {
	case bytes.HasPrefix(trimmed, []byte("<?xml")) && bytes.Contains(head, []byte("<exchangeRateMonthList")),
		bytes.HasPrefix(trimmed, []byte("<exchangeRateMonthList")):
		return "HMRC exchange rates"
	case bytes.HasPrefix(trimmed, []byte("[")) && bytes.Contains(head, []byte(`"action"`)) && bytes.Contains(head, []byte(`"date"`)):
		return "ledger (JSON transactions)"
	}
	for _, line := range bytes.SplitN(head, []byte("\n"), 50) {
		line = bytes.TrimSpace(line)
		if len(line) == 0 || line[0] == '#' {
			continue
		}
		if ledgerLine.Match(line) {
			return "ledger"
		}
		break
	}
	return ""
}

// fileURI is the file: URI of an absolute path.
func fileURI(abs string) string {
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(abs)}).String()
}

// rootResources are the files under the roots as resources, read through the root rules.
func rootResources(roots *Roots) []server.ServerResource {
	files := scanRoots(roots)
	out := make([]server.ServerResource, 0, len(files))
	for _, f := range files {
		size := f.size
		res := mcpgo.NewResource(fileURI(f.abs), f.name,
			mcpgo.WithResourceDescription(strings.ToUpper(f.kind[:1])+f.kind[1:]+` under the server's root: pass it in path as "`+f.name+`" (or its absolute path).`),
			mcpgo.WithMIMEType(f.mime))
		res.Size = &size
		out = append(out, server.ServerResource{Resource: res, Handler: rootFileHandler(roots, f)})
	}
	return out
}

func rootFileHandler(roots *Roots, f rootFile) server.ResourceHandlerFunc {
	return func(_ context.Context, req mcpgo.ReadResourceRequest) ([]mcpgo.ResourceContents, error) {
		data, err := roots.ReadResource(f.abs)
		if err != nil {
			return nil, err
		}
		uri := req.Params.URI
		if utf8.Valid(data) {
			return []mcpgo.ResourceContents{mcpgo.TextResourceContents{URI: uri, MIMEType: f.mime, Text: string(data)}}, nil
		}
		return []mcpgo.ResourceContents{mcpgo.BlobResourceContents{URI: uri, MIMEType: f.mime, Blob: base64.StdEncoding.EncodeToString(data)}}, nil
	}
}

// rootLister keeps the server's root-file resources those under the roots now: files added
// since the last listing are listed, files gone are not.
type rootLister struct {
	mu     sync.Mutex
	roots  *Roots
	s      *server.MCPServer
	listed map[string]bool
}

func (l *rootLister) refresh() {
	if l == nil || l.s == nil || len(l.roots.dirs) == 0 {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	fresh := rootResources(l.roots)
	now := make(map[string]bool, len(fresh))
	for _, r := range fresh {
		now[r.Resource.URI] = true
	}
	var gone []string
	for uri := range l.listed {
		if !now[uri] {
			gone = append(gone, uri)
		}
	}
	if len(gone) > 0 {
		l.s.DeleteResources(gone...)
	}
	if len(fresh) > 0 {
		l.s.AddResources(fresh...)
	}
	l.listed = now
}
