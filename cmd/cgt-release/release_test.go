package main

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"github.com/cgt-tools/cgt/registry"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cgt-tools/cgt/catalog"
	"github.com/cgt-tools/cgt/internal/version"
)

// The versions cannot drift: the contract, the bundle manifest and server.json all carry the
// release of internal/version, and the manifest lists exactly the tools in tools.json.
func TestManifestAndServerJSON(t *testing.T) {
	root, err := moduleRoot()
	if err != nil {
		t.Fatal(err)
	}
	if catalog.Version != version.Release {
		t.Errorf("catalog.Version %s, internal/version.Release %s", catalog.Version, version.Release)
	}
	tools, err := readTools(filepath.Join(root, "tools.json"))
	if err != nil {
		t.Fatal(err)
	}
	var contract struct {
		Version  string `json:"version"`
		Commands []struct {
			MCPName     string `json:"mcp_name"`
			SideEffects string `json:"side_effects"`
		} `json:"commands"`
	}
	data, _ := os.ReadFile(filepath.Join(root, "tools.json"))
	if err := json.Unmarshal(data, &contract); err != nil {
		t.Fatal(err)
	}
	if contract.Version != version.Release {
		t.Errorf("tools.json is version %s, the release %s: run make gen", contract.Version, version.Release)
	}
	ver := version.Release
	sums := map[string]string{}
	for _, target := range Targets {
		raw, err := Manifest(ver, target, tools)
		if err != nil {
			t.Fatal(err)
		}
		var m struct {
			ManifestVersion string `json:"manifest_version"`
			Name, Version   string
			Description     string
			Author          struct{ Name string }
			Server          struct {
				Type       string `json:"type"`
				EntryPoint string `json:"entry_point"`
				MCPConfig  struct {
					Command string   `json:"command"`
					Args    []string `json:"args"`
				} `json:"mcp_config"`
			}
			Tools         []Tool
			License       string
			Compatibility struct{ Platforms []string }
			UserConfig    map[string]struct{ Type, Default string } `json:"user_config"`
		}
		if err := json.Unmarshal(raw, &m); err != nil {
			t.Fatal(err)
		}
		if m.ManifestVersion != ManifestVersion || m.Name != "cgt" || m.Version != ver || m.Description == "" || m.Author.Name == "" {
			t.Errorf("%s: manifest %+v", target, m)
		}
		if m.Server.Type != "binary" || m.Server.EntryPoint != "server/cgt-mcp"+target.exe() ||
			m.Server.MCPConfig.Command != "${__dirname}/"+m.Server.EntryPoint {
			t.Errorf("%s: server %+v", target, m.Server)
		}
		for _, a := range m.Server.MCPConfig.Args {
			if k, ok := strings.CutPrefix(a, "${user_config."); ok {
				if _, declared := m.UserConfig[strings.TrimSuffix(k, "}")]; !declared {
					t.Errorf("%s: argument %s names no user_config entry", target, a)
				}
			}
		}
		if m.License != "MIT" || m.UserConfig["ledger_folder"].Default != "${HOME}/Documents/cgt" || !slices.Contains(m.Server.MCPConfig.Args, "--make-root") {
			t.Errorf("%s: licence %q, default folder %q, args %v: want MIT and an empty folder of cgt's own, made on the first run",
				target, m.License, m.UserConfig["ledger_folder"].Default, m.Server.MCPConfig.Args)
		}
		served := 0 // the servers do not offer the command line's own (fx.update)
		for _, c := range contract.Commands {
			if registry.SideEffect(c.SideEffects).Served() {
				served++
			}
		}
		if len(m.Tools) != served || served == 0 {
			t.Errorf("%s: %d tools in the manifest, %d served in tools.json", target, len(m.Tools), served)
		}
		if len(m.Compatibility.Platforms) != 1 || m.Compatibility.Platforms[0] != mcpbPlatform(target.OS) {
			t.Errorf("%s: platforms %v", target, m.Compatibility.Platforms)
		}
		sums[BundleName(ver, target)] = strings.Repeat("ab", 32)
	}

	raw, err := ServerJSON(ver, sums)
	if err != nil {
		t.Fatal(err)
	}
	var s struct {
		Schema      string `json:"$schema"`
		Name        string
		Description string
		Version     string
		Repository  struct{ URL, Source string }
		Packages    []struct {
			RegistryType string
			Identifier   string
			Version      string
			FileSha256   string
			Transport    struct{ Type string }
		}
		Meta map[string]struct {
			License          string
			PackagePlatforms []struct{ Identifier, OS, Arch string }
		} `json:"_meta"`
	}
	if err := json.Unmarshal(raw, &s); err != nil {
		t.Fatal(err)
	}
	// The registry's rules: one slash in a reverse-DNS name, a description of at most 100
	// characters, an exact version, and for an MCP bundle a release URL containing "mcp" and
	// the file's SHA-256.
	if !regexp.MustCompile(`^[a-zA-Z0-9.-]+/[a-zA-Z0-9._-]+$`).MatchString(s.Name) || !strings.HasPrefix(s.Name, "io.github.") {
		t.Errorf("name %q", s.Name)
	}
	if s.Schema != ServerSchema || len(s.Description) == 0 || len(s.Description) > 100 || s.Version != ver || s.Repository.Source != "github" {
		t.Errorf("server.json %+v", s)
	}
	if len(s.Packages) != len(Targets) {
		t.Fatalf("%d packages, want one per target", len(s.Packages))
	}
	for _, p := range s.Packages {
		if p.RegistryType != "mcpb" || !strings.Contains(p.Identifier, "mcp") || !strings.HasPrefix(p.Identifier, repository+"/releases/download/v"+ver+"/") ||
			p.Version != ver || !regexp.MustCompile(`^[a-f0-9]{64}$`).MatchString(p.FileSha256) || p.Transport.Type != "stdio" {
			t.Errorf("package %+v", p)
		}
	}
	// Each bundle's platform, beside the package list in the schema's publisher-provided _meta.
	plats := s.Meta["io.modelcontextprotocol.registry/publisher-provided"].PackagePlatforms
	if len(plats) != len(s.Packages) {
		t.Fatalf("%d platforms for %d packages", len(plats), len(s.Packages))
	}
	for i, p := range plats {
		if p.Identifier != s.Packages[i].Identifier || !strings.HasSuffix(p.Identifier, "_"+Targets[i].OS+"_"+Targets[i].Arch+".mcpb") ||
			!slices.Contains([]string{"linux", "darwin", "win32"}, p.OS) || !slices.Contains([]string{"x64", "arm64"}, p.Arch) {
			t.Errorf("platform %d: %+v for %s", i, p, s.Packages[i].Identifier)
		}
	}
	if _, err := ServerJSON(ver, map[string]string{}); err == nil {
		t.Error("server.json without the bundles' checksums")
	}
}

// The same inputs give the same archive bytes, whatever the files' times on disk.
func TestArchivesAreReproducible(t *testing.T) {
	dir := t.TempDir()
	target := Target{"linux", "amd64"}
	for _, p := range Programs {
		os.WriteFile(filepath.Join(dir, p), []byte("program "+p), 0o755)
	}
	readme := filepath.Join(dir, "README.md")
	os.WriteFile(readme, []byte("# cgt\n"), 0o644)
	example := filepath.Join(dir, "portfolio.cgt")
	os.WriteFile(example, []byte("2024-01-02 BUY X 1 @ 1 GBP\n"), 0o644)
	docs := []doc{{"README.md", readme}, {"examples/portfolio.cgt", example}}
	mtime := time.Unix(1764000000, 0).UTC()
	build := func(win bool) []byte {
		tg := target
		if win {
			tg = Target{"windows", "amd64"}
			for _, p := range Programs {
				os.WriteFile(filepath.Join(dir, p+".exe"), []byte("program "+p), 0o755)
			}
		}
		out := filepath.Join(t.TempDir(), ArchiveName("1.2.3", tg))
		if err := writeArchive(out, tg, "1.2.3", dir, docs, mtime); err != nil {
			t.Fatal(err)
		}
		b, _ := os.ReadFile(out)
		return b
	}
	tgz := build(false)
	os.Chtimes(readme, time.Now(), time.Now())
	if !bytes.Equal(tgz, build(false)) {
		t.Error("two tar.gz archives of the same files differ")
	}
	zr, _ := gzip.NewReader(bytes.NewReader(tgz))
	tr := tar.NewReader(zr)
	var names []string
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if !h.ModTime.Equal(mtime) || h.Uid != 0 || h.Gid != 0 || (h.Typeflag == tar.TypeReg && strings.HasPrefix(filepath.Base(h.Name), "cgt") && h.Mode != 0o755) {
			t.Errorf("%s: mtime %v uid %d mode %o", h.Name, h.ModTime, h.Uid, h.Mode)
		}
		names = append(names, h.Name)
	}
	want := "cgt_1.2.3_linux_amd64/ cgt_1.2.3_linux_amd64/README.md cgt_1.2.3_linux_amd64/cgt cgt_1.2.3_linux_amd64/cgt-fetch cgt_1.2.3_linux_amd64/cgt-mcp cgt_1.2.3_linux_amd64/cgt-serve " +
		"cgt_1.2.3_linux_amd64/examples/ cgt_1.2.3_linux_amd64/examples/portfolio.cgt cgt_1.2.3_linux_amd64/tool-cli"
	if strings.Join(names, " ") != want {
		t.Errorf("entries %v", names)
	}

	zipped := build(true)
	if !bytes.Equal(zipped, build(true)) {
		t.Error("two zip archives of the same files differ")
	}
	zr2, err := zip.NewReader(bytes.NewReader(zipped), int64(len(zipped)))
	if err != nil {
		t.Fatal(err)
	}
	if len(zr2.File) != len(Programs)+2 || zr2.File[1].Name != "cgt_1.2.3_windows_amd64/cgt-fetch.exe" {
		t.Errorf("zip entries: %d, second %s", len(zr2.File), zr2.File[1].Name)
	}
}

func TestChecksumsFile(t *testing.T) {
	got := string(checksums(map[string]string{"b.zip": "22", "a.tar.gz": "11"}))
	if got != "11  a.tar.gz\n22  b.zip\n" {
		t.Errorf("%q", got)
	}
}

// Every archive carries the licence, the notices of the bundled data and of what the programs
// link, and the examples the README's first command runs; the generator, which works only in
// a checkout, is not shipped.
func TestReleaseDocsCarryLicenceNoticesAndExamples(t *testing.T) {
	root, err := moduleRoot()
	if err != nil {
		t.Fatal(err)
	}
	docs, err := releaseDocs(root, Target{"linux", "amd64"}, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]string{}
	for _, d := range docs {
		data, err := os.ReadFile(d.path)
		if err != nil {
			t.Fatal(err)
		}
		byName[d.name] = string(data)
	}
	for _, name := range []string{"LICENSE", "NOTICE", "THIRD_PARTY_NOTICES", "README.md", "examples/portfolio.cgt"} {
		if byName[name] == "" {
			t.Errorf("the archive lacks %s", name)
		}
	}
	if !strings.HasPrefix(byName["LICENSE"], "MIT License") {
		t.Errorf("LICENSE does not start as the MIT License: %.40q", byName["LICENSE"])
	}
	notices, err := dataNotices(root)
	if err != nil || !slices.Contains(notices, "cgt/fx/NOTICE.txt") {
		t.Fatalf("data notices %v (%v), want cgt/fx/NOTICE.txt among them", notices, err)
	}
	for _, n := range notices {
		text, _ := os.ReadFile(filepath.Join(root, n))
		if !strings.Contains(byName["NOTICE"], strings.TrimSpace(string(text))) {
			t.Errorf("NOTICE lacks %s in full", n)
		}
	}
	if !strings.Contains(byName["NOTICE"], "Open Government Licence v3.0") {
		t.Error("NOTICE does not carry the Open Government Licence notice of HMRC's rates")
	}
	for _, m := range []string{"Go standard library", "github.com/mark3labs/mcp-go", "github.com/shopspring/decimal", "golang.org/x/term"} {
		if !strings.Contains(byName["THIRD_PARTY_NOTICES"], m) {
			t.Errorf("THIRD_PARTY_NOTICES lacks %s", m)
		}
	}
	if slices.Contains(Programs, "cgt-gen") {
		t.Error("the archives ship cgt-gen, which works only in a checkout")
	}
	for _, d := range bundleDocs(docs) {
		if strings.HasPrefix(d.name, "examples/") {
			t.Errorf("the MCP bundle carries %s", d.name)
		}
	}
	if len(bundleDocs(docs)) != 4 {
		t.Errorf("bundle documents %v, want README.md, LICENSE, NOTICE, THIRD_PARTY_NOTICES", bundleDocs(docs))
	}
}
