package testbin

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestInside: only a path below the folder is inside it.
func TestInside(t *testing.T) {
	dir := filepath.FromSlash("/cache/go-build")
	for _, c := range []struct {
		path string
		want bool
	}{
		{"/cache/go-build/62/626c-d/crmem", true},
		{"/cache/go-build", false},
		{"/cache/go-build-other/crmem", false},
		{"/tmp/go-build935019609/b001/exe/crmem", false},
		{"62/626c-d/crmem", false},
	} {
		if got := inside(dir, filepath.FromSlash(c.path)); got != c.want {
			t.Errorf("inside(%q, %q) = %v, want %v", dir, c.path, got, c.want)
		}
	}
}

// TestBuild_SharedThroughTheCache: two builds of one package return the
// same file, kept in the build cache, and it runs. (The binary is the one
// ./cli's and ./tui's tests share: no link of its own.)
func TestBuild_SharedThroughTheCache(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: builds crmem")
	}
	if _, err := exec.LookPath("echo"); err != nil {
		t.Skip("no echo on PATH: Build links into a folder of its own here")
	}
	first, cleanup, err := Build("github.com/crmem/crmem")
	if err != nil {
		t.Fatal(err)
	}
	defer cleanup()
	second, cleanup2, err := Build("github.com/crmem/crmem")
	if err != nil {
		t.Fatal(err)
	}
	defer cleanup2()
	if first != second {
		t.Errorf("two builds: %s and %s, want one file", first, second)
	}
	out, err := exec.Command(second, "version").Output()
	if err != nil || !strings.HasPrefix(string(out), "crmem ") {
		t.Errorf("%s version: %q, %v", second, out, err)
	}
}
