//go:build unix

package export_test

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/crmem/crmem/export"
)

// outside makes a secret file and a folder holding one, outside the tree.
func outside(t *testing.T) (file, folder string) {
	t.Helper()
	dir := t.TempDir()
	file = filepath.Join(dir, "id_ed25519")
	writeFile(t, file, "PRIVATE KEY")
	folder = filepath.Join(dir, "elsewhere")
	writeFile(t, filepath.Join(folder, "stolen.md"), "PRIVATE KEY")
	return file, folder
}

func writeFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
}

func link(t *testing.T, target, path string) {
	t.Helper()
	if err := os.Symlink(target, path); err != nil {
		t.Fatal(err)
	}
}

// checkSkipped fails unless every name is in a notice and no entry holds
// the secret.
func checkSkipped(t *testing.T, notices []string, contents []string, names ...string) {
	t.Helper()
	all := strings.Join(notices, "\n")
	for _, n := range names {
		if !strings.Contains(all, n) {
			t.Errorf("no notice names %s: %q", n, notices)
		}
	}
	for _, c := range contents {
		if strings.Contains(c, "PRIVATE KEY") {
			t.Errorf("content read from outside the tree: %q", c)
		}
	}
}

// TestLoad_ReadsNothingOutsideTheTree: a link to a file, a link to a
// folder and a FIFO in a dump tree are skipped, each named.
func TestLoad_ReadsNothingOutsideTheTree(t *testing.T) {
	secret, folder := outside(t)
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "notes", "ok.md"), "fine")
	link(t, secret, filepath.Join(dir, "notes", "leak.md"))
	link(t, folder, filepath.Join(dir, "archives"))
	if err := syscall.Mkfifo(filepath.Join(dir, "notes", "pipe.md"), 0o600); err != nil {
		t.Fatal(err)
	}
	entries, notices, err := export.Load(dir, fixedNow)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 1 || entries[0].Name != "ok" {
		t.Fatalf("loaded %+v, want ok alone", entries)
	}
	checkSkipped(t, notices, []string{entries[0].Content}, "leak.md", "archives", "pipe.md")
	// A tree whose every file is skipped is refused, not loaded as empty.
	only := t.TempDir()
	writeFile(t, filepath.Join(only, "SUMMARY.md"), "# Summary")
	link(t, folder, filepath.Join(only, "notes"))
	if _, _, err := export.Load(only, fixedNow); err == nil {
		t.Error("a tree of links loaded")
	}
}

// TestImport_ReadsNothingOutsideTheTree: the legacy importers skip links
// to files and folders too.
func TestImport_ReadsNothingOutsideTheTree(t *testing.T) {
	secret, folder := outside(t)
	crab := t.TempDir()
	writeFile(t, filepath.Join(crab, "entries", "ok.md"), "---\nname: ok\ndescription: d\n---\nbody")
	link(t, secret, filepath.Join(crab, "entries", "leak.md"))
	res, err := export.ImportCrabtalk0038(crab)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Entries) != 1 {
		t.Errorf("crabtalk-0038: %d entries, want 1", len(res.Entries))
	}
	checkSkipped(t, res.Notices, contents(res), "leak.md")

	drover := t.TempDir()
	writeFile(t, filepath.Join(drover, "global", "a.md"), "---\nid: a\nsummary: fine\n---\nbody")
	link(t, secret, filepath.Join(drover, "global", "leak.md"))
	if err := os.MkdirAll(filepath.Join(drover, "agents"), 0o700); err != nil {
		t.Fatal(err)
	}
	link(t, folder, filepath.Join(drover, "agents", "bot"))
	link(t, folder, filepath.Join(drover, "runs"))
	res, err = export.ImportDrover(drover)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Entries) != 1 {
		t.Errorf("drover: %d entries, want 1", len(res.Entries))
	}
	checkSkipped(t, res.Notices, contents(res), "leak.md", "bot", "runs")
}

func contents(res *export.Imported) []string {
	var out []string
	for _, e := range res.Entries {
		out = append(out, e.Content)
	}
	return out
}

// TestLoad_PageOverCap: a page of 10 GiB (sparse) fails at once with one
// error naming it and the cap, without reading it.
func TestLoad_PageOverCap(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "notes", "ok.md"), "fine")
	big := filepath.Join(dir, "notes", "big.md")
	f, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(10 << 30); err != nil {
		t.Fatal(err)
	}
	f.Close()
	_, _, err = export.Load(dir, fixedNow)
	if err == nil || !strings.Contains(err.Error(), "big.md") || !strings.Contains(err.Error(), "too large: 10,737,418,240 bytes (a page holds at most 64 MiB)") {
		t.Fatalf("err = %v, want big.md too large", err)
	}
}
