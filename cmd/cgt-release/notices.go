package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

// doc is a file an archive or a bundle carries besides the programs: its slash-separated name
// inside (below the archive's top directory) and where it is on disk.
type doc struct{ name, path string }

// dataNoticeGlob finds the notices of the data sets cgt bundles: each sits beside its data as
// NOTICE.txt (cgt/fx/NOTICE.txt for HMRC's exchange rates, and so on). Every one found is
// copied in full into the NOTICE file of every archive and bundle, so adding a data set with
// its notice needs no change here.
const dataNoticeGlob = "cgt/*/NOTICE.txt"

// dataNotices are the notices dataNoticeGlob finds, relative to root, sorted.
func dataNotices(root string) ([]string, error) {
	found, err := filepath.Glob(filepath.Join(root, filepath.FromSlash(dataNoticeGlob)))
	if err != nil {
		return nil, err
	}
	var rel []string
	for _, f := range found {
		r, err := filepath.Rel(root, f)
		if err != nil {
			return nil, err
		}
		rel = append(rel, filepath.ToSlash(r))
	}
	sort.Strings(rel)
	return rel, nil
}

// noticeText is the NOTICE a release carries: the tree's NOTICE, then each data notice in full
// under its path.
func noticeText(root string) ([]byte, error) {
	head, err := os.ReadFile(filepath.Join(root, "NOTICE"))
	if err != nil {
		return nil, fmt.Errorf("the release needs the tree's NOTICE: %w", err)
	}
	notices, err := dataNotices(root)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	b.Write(bytes.TrimRight(head, "\n"))
	b.WriteString("\n")
	for _, n := range notices {
		text, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(n)))
		if err != nil {
			return nil, err
		}
		fmt.Fprintf(&b, "\n=== %s ===\n\n%s\n", n, bytes.TrimRight(text, "\n"))
	}
	return b.Bytes(), nil
}

// licenceFile matches the licence and notice files at the top of a Go module.
var licenceFile = regexp.MustCompile(`(?i)^(licen[cs]e|copying|notice)(\.(md|txt))?$`)

// linkedModule is a module the programs link, as go list describes it.
type linkedModule struct{ Path, Version, Dir string }

// thirdPartyText lists the licences of what the programs for t link: Go's standard library and
// runtime, then every module outside cgt, each with its licence files in full (MIT, BSD and
// Apache-2.0 all ask that their text travel with the binaries).
func thirdPartyText(root string, t Target) ([]byte, error) {
	mods, err := linkedModules(root, t)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	b.WriteString("cgt's programs are built with Go and link the modules below. Their licences follow in full.\n")
	goroot, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		return nil, fmt.Errorf("go env GOROOT: %w", err)
	}
	goLicence, err := os.ReadFile(filepath.Join(strings.TrimSpace(string(goroot)), "LICENSE"))
	if err != nil {
		return nil, fmt.Errorf("the Go distribution's LICENSE: %w", err)
	}
	fmt.Fprintf(&b, "\n=== Go standard library and runtime ===\n\n%s\n", bytes.TrimRight(goLicence, "\n"))
	for _, m := range mods {
		files, err := licenceFiles(m.Dir)
		if err != nil {
			return nil, err
		}
		if len(files) == 0 {
			return nil, fmt.Errorf("module %s %s has no licence file in %s", m.Path, m.Version, m.Dir)
		}
		for _, f := range files {
			text, err := os.ReadFile(filepath.Join(m.Dir, f))
			if err != nil {
				return nil, err
			}
			fmt.Fprintf(&b, "\n=== %s %s (%s) ===\n\n%s\n", m.Path, m.Version, f, bytes.TrimRight(text, "\n"))
		}
	}
	return b.Bytes(), nil
}

// linkedModules are the modules other than cgt that the release programs import for t, by path.
func linkedModules(root string, t Target) ([]linkedModule, error) {
	args := []string{"list", "-deps", "-json=Module"}
	for _, p := range Programs {
		args = append(args, "./cmd/"+p)
	}
	cmd := exec.Command("go", args...)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOOS="+t.OS, "GOARCH="+t.Arch, "GOFLAGS=")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go list for %s: %v\n%s", t, err, stderr.String())
	}
	seen := map[string]linkedModule{}
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p struct{ Module *linkedModule }
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			return nil, err
		}
		if p.Module != nil && p.Module.Path != modulePath {
			seen[p.Module.Path] = *p.Module
		}
	}
	mods := make([]linkedModule, 0, len(seen))
	for _, m := range seen {
		mods = append(mods, m)
	}
	sort.Slice(mods, func(i, j int) bool { return mods[i].Path < mods[j].Path })
	return mods, nil
}

// licenceFiles are the licence and notice files at the top of dir, sorted.
func licenceFiles(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range entries {
		if e.Type().IsRegular() && licenceFile.MatchString(e.Name()) {
			out = append(out, e.Name())
		}
	}
	return out, nil
}

// releaseDocs writes the generated documents for t into dir and returns every document an
// archive carries: README.md, LICENSE, NOTICE (with the data notices), THIRD_PARTY_NOTICES and
// the examples the README's first command runs (examples/portfolio.cgt and the rest).
func releaseDocs(root string, t Target, dir string) ([]doc, error) {
	notice, err := noticeText(root)
	if err != nil {
		return nil, err
	}
	third, err := thirdPartyText(root, t)
	if err != nil {
		return nil, err
	}
	generated := map[string][]byte{"NOTICE": notice, "THIRD_PARTY_NOTICES": third}
	var docs []doc
	for _, name := range []string{"NOTICE", "THIRD_PARTY_NOTICES"} {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, generated[name], 0o644); err != nil {
			return nil, err
		}
		docs = append(docs, doc{name, p})
	}
	for _, name := range []string{"README.md", "LICENSE"} {
		p := filepath.Join(root, name)
		if st, err := os.Stat(p); err != nil || !st.Mode().IsRegular() {
			return nil, fmt.Errorf("the release needs %s at the top of the tree", name)
		}
		docs = append(docs, doc{name, p})
	}
	examples, err := exampleDocs(root)
	if err != nil {
		return nil, err
	}
	docs = append(docs, examples...)
	sort.Slice(docs, func(i, j int) bool { return docs[i].name < docs[j].name })
	return docs, nil
}

// exampleDocs are the regular files under examples/, as examples/NAME.
func exampleDocs(root string) ([]doc, error) {
	var docs []doc
	base := filepath.Join(root, "examples")
	err := filepath.WalkDir(base, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return err
		}
		docs = append(docs, doc{filepath.ToSlash(rel), p})
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("the release carries examples/: %w", err)
	}
	return docs, nil
}

// bundleDocs are the documents an MCP bundle carries: the licence and the notices, and the
// README (not the examples: the bundle's server reads the person's own folder).
func bundleDocs(docs []doc) []doc {
	var out []doc
	for _, d := range docs {
		if !strings.HasPrefix(d.name, "examples/") {
			out = append(out, d)
		}
	}
	return out
}
