package main

import (
	"encoding/json"
	"fmt"
	"os"
	"sort"

	"github.com/cgt-tools/cgt/catalog"
	"github.com/cgt-tools/cgt/registry"
)

// Where the release files are published; the MCP Registry name follows the GitHub owner.
const (
	repository   = "https://github.com/cgt-tools/cgt"
	registryName = "io.github.cgt-tools/cgt"
	// ServerSchema is the MCP Registry's server.json schema the file declares.
	ServerSchema = "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json"
	// ManifestVersion is the MCP Bundle (.mcpb) manifest specification the bundles follow.
	ManifestVersion = "0.3"
	// License is the SPDX identifier of the licence in LICENSE.
	License = "MIT"
	// defaultLedgerFolder is the bundle's folder unless the person picks another: a folder of
	// cgt's own, made empty on the first run (cgt-mcp --make-root), never the whole Documents
	// folder, whose other files an agent has no business reading.
	defaultLedgerFolder = "${HOME}/Documents/cgt"
	// shortDescription is the registry's description (at most 100 characters) and the bundle's.
	shortDescription = "UK Capital Gains Tax on shares and funds: HMRC share matching, pools and SA108 figures"
)

// Tool is a tool as the bundle manifest lists it.
type Tool struct {
	Name        string `json:"name"`
	Description string `json:"description"`
}

// readTools reads the tools cgt-mcp serves from the committed contract (tools.json).
func readTools(path string) ([]Tool, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var cat struct {
		Commands []struct {
			Name        string `json:"name"`
			MCPName     string `json:"mcp_name"`
			Summary     string `json:"summary"`
			SideEffects string `json:"side_effects"`
		} `json:"commands"`
	}
	if err := json.Unmarshal(data, &cat); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	tools := make([]Tool, 0, len(cat.Commands))
	for _, c := range cat.Commands {
		if !registry.SideEffect(c.SideEffects).Served() {
			continue // the command line's only (fx.update): cgt-mcp does not serve it
		}
		if c.MCPName == "" {
			return nil, fmt.Errorf("%s: command %s has no mcp_name", path, c.Name)
		}
		tools = append(tools, Tool{Name: c.MCPName, Description: c.Summary})
	}
	sort.Slice(tools, func(i, j int) bool { return tools[i].Name < tools[j].Name })
	return tools, nil
}

// mcpbPlatform is the bundle's name for an operating system (Node's process.platform).
func mcpbPlatform(goos string) string {
	if goos == "windows" {
		return "win32"
	}
	return goos
}

// nodeArch is Node's name for a Go architecture (process.arch).
func nodeArch(goarch string) string {
	if goarch == "amd64" {
		return "x64"
	}
	return goarch
}

// Manifest is the manifest.json of a target's MCP bundle: a binary server (server/cgt-mcp) run
// with --root set to the folder the person picks when installing it.
func Manifest(ver string, t Target, tools []Tool) ([]byte, error) {
	entry := "server/cgt-mcp" + t.exe()
	m := map[string]any{
		"manifest_version": ManifestVersion,
		"name":             "cgt",
		"display_name":     "cgt: UK Capital Gains Tax",
		"version":          ver,
		"description":      shortDescription,
		"long_description": catalog.Product().Description + "\n\nThe tools read ledgers and broker exports only inside the folder chosen when the bundle is installed; ledgers can also be passed inline.",
		"author":           map[string]any{"name": "cgt contributors", "url": repository},
		"repository":       map[string]any{"type": "git", "url": repository + ".git"},
		"homepage":         repository,
		"license":          License,
		"documentation":    repository + "#readme",
		"support":          repository + "/issues",
		"server": map[string]any{
			"type":        "binary",
			"entry_point": entry,
			"mcp_config": map[string]any{
				"command": "${__dirname}/" + entry,
				"args":    []any{"--root", "${user_config.ledger_folder}", "--make-root"},
			},
		},
		"tools":           tools,
		"tools_generated": false,
		"keywords":        []any{"tax", "capital gains", "uk", "hmrc", "sa108", "shares", "self assessment"},
		"compatibility":   map[string]any{"platforms": []any{mcpbPlatform(t.OS)}},
		"user_config": map[string]any{
			"ledger_folder": map[string]any{
				"type":        "directory",
				"title":       "Ledger folder",
				"description": "The folder holding your cgt ledgers and broker exports; cgt reads files only inside it. The default, Documents/cgt, is made empty on the first run: put there only the files cgt may read.",
				"required":    true,
				"default":     defaultLedgerFolder,
			},
		},
	}
	return catalog.CanonicalJSON(m)
}

// publisherMeta is the key of server.json's _meta under which the registry keeps what the
// publisher says beyond its schema.
const publisherMeta = "io.modelcontextprotocol.registry/publisher-provided"

// ServerJSON is the server.json the MCP Registry publishes: cgt-mcp as one MCP bundle per
// platform, downloaded from the GitHub release, each with its SHA-256. The registry's package
// entry has no field for a platform (its schema allows no other properties), so each bundle's
// platform is said where the schema leaves room: in _meta's publisher-provided object, one
// entry per package in the same order, naming the identifier, the operating system and the
// architecture (Node's process.platform and process.arch, as MCP clients and the bundle
// manifest's compatibility.platforms name them), and in the file name (_OS_ARCH.mcpb).
func ServerJSON(ver string, sums map[string]string) ([]byte, error) {
	var pkgs, platforms []any
	for _, t := range Targets {
		name := BundleName(ver, t)
		sum, ok := sums[name]
		if !ok {
			return nil, fmt.Errorf("no checksum for %s", name)
		}
		pkgs = append(pkgs, map[string]any{
			"registryType": "mcpb",
			"identifier":   repository + "/releases/download/v" + ver + "/" + name,
			"version":      ver,
			"fileSha256":   sum,
			"transport":    map[string]any{"type": "stdio"},
		})
		platforms = append(platforms, map[string]any{
			"identifier": repository + "/releases/download/v" + ver + "/" + name,
			"os":         mcpbPlatform(t.OS),
			"arch":       nodeArch(t.Arch),
		})
	}
	s := map[string]any{
		"$schema":     ServerSchema,
		"name":        registryName,
		"title":       "cgt: UK Capital Gains Tax",
		"description": shortDescription,
		"version":     ver,
		"repository":  map[string]any{"url": repository, "source": "github"},
		"websiteUrl":  repository,
		"packages":    pkgs,
		"_meta": map[string]any{publisherMeta: map[string]any{
			"license":          License,
			"packagePlatforms": platforms,
		}},
	}
	return catalog.CanonicalJSON(s)
}
