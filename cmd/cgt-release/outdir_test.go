package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// tree makes root/checkout (with a go.mod) and returns root and the checkout.
func tree(t *testing.T) (string, string) {
	t.Helper()
	root := t.TempDir()
	checkout := filepath.Join(root, "checkout")
	mustWrite(t, filepath.Join(checkout, "go.mod"), "module "+modulePath+"\n")
	return root, checkout
}

func mustWrite(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func exists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}

func TestOutputRefusedWhenItIsOrContainsTheCheckout(t *testing.T) {
	root, checkout := tree(t)
	t.Chdir(checkout)
	for _, out := range []string{".", "..", checkout, root, "/", filepath.Join(checkout, "sub", "..")} {
		err := prepareOutput(checkout, out)
		if err == nil || !strings.Contains(err.Error(), "is the source tree or contains it") {
			t.Errorf("-out %s: %v, want a refusal", out, err)
		}
	}
	if !exists(filepath.Join(checkout, "go.mod")) {
		t.Fatal("the checkout lost its go.mod")
	}
}

func TestOutputRefusedThroughASymbolicLinkToTheParent(t *testing.T) {
	root, checkout := tree(t)
	link := filepath.Join(t.TempDir(), "up")
	if err := os.Symlink(root, link); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	if err := prepareOutput(checkout, link); err == nil {
		t.Fatal("a link to the checkout's parent was accepted")
	}
}

func TestOutputCreatedWhenMissing(t *testing.T) {
	_, checkout := tree(t)
	out := filepath.Join(checkout, "dist", "nested")
	if err := prepareOutput(checkout, out); err != nil {
		t.Fatal(err)
	}
	if !exists(filepath.Join(out, markerName)) {
		t.Error("no marker in the new output directory")
	}
}

func TestEmptyOutputAccepted(t *testing.T) {
	_, checkout := tree(t)
	out := t.TempDir()
	if err := prepareOutput(checkout, out); err != nil {
		t.Fatal(err)
	}
}

func TestOutputWithForeignFilesRefusedAndUntouched(t *testing.T) {
	_, checkout := tree(t)
	cases := map[string][]string{
		"unmarked release files": {"SHA256SUMS", "cgt_0.1.0_linux_amd64.tar.gz"},
		"marker and a document":  {markerName, "SHA256SUMS", "notes.txt"},
		"marker and a folder":    {markerName, "photos/cat.jpg"},
	}
	for name, files := range cases {
		t.Run(name, func(t *testing.T) {
			out := t.TempDir()
			for _, f := range files {
				mustWrite(t, filepath.Join(out, f), "x")
			}
			err := prepareOutput(checkout, out)
			if err == nil || !strings.Contains(err.Error(), "empties only its own earlier output") {
				t.Fatalf("got %v, want a refusal", err)
			}
			for _, f := range files {
				if !exists(filepath.Join(out, f)) {
					t.Errorf("%s was removed", f)
				}
			}
		})
	}
}

func TestOwnEarlierOutputEmptied(t *testing.T) {
	_, checkout := tree(t)
	out := filepath.Join(t.TempDir(), "dist")
	if err := prepareOutput(checkout, out); err != nil {
		t.Fatal(err)
	}
	old := []string{"SHA256SUMS", "server.json", "cgt_0.0.9_linux_amd64.tar.gz", "cgt_0.0.9_windows_arm64.zip", "cgt-mcp_0.0.9_darwin_arm64.mcpb"}
	for _, f := range old {
		mustWrite(t, filepath.Join(out, f), "old")
	}
	if err := prepareOutput(checkout, out); err != nil {
		t.Fatal(err)
	}
	entries, _ := os.ReadDir(out)
	if len(entries) != 1 || entries[0].Name() != markerName {
		t.Errorf("after emptying: %v, want only the marker", entries)
	}
}
