//go:build unix

package editor

import (
	"os"
	"path/filepath"
	"slices"
	"syscall"
	"testing"

	"github.com/crmem/crmem/store"
)

// staleOpts are editor options with a private temp folder.
func staleOpts(t *testing.T) (Options, string) {
	tmp := t.TempDir()
	return Options{TempDir: tmp, Getenv: func(k string) string {
		if k == "EDITOR" {
			return "true"
		}
		return ""
	}}, tmp
}

func editFolders(t *testing.T, tmp string) []string {
	t.Helper()
	m, err := filepath.Glob(filepath.Join(tmp, "crmem-edit-*"))
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(m)
	return m
}

// TestRemoveStale: the next edit removes the folder of an edit whose crmem
// was killed (its lock gone, its text crmem's own copy), and leaves one in
// use by a live edit (another crmem), one holding text the user saved,
// and anything that is not crmem's own folder.
func TestRemoveStale(t *testing.T) {
	old := syscall.Umask(0) // the folder is 0700 whatever the umask
	defer syscall.Umask(old)
	opts, tmp := staleOpts(t)
	secret := store.Entry{ID: 1, Name: "creds", Kind: store.Note, CreatedAt: 1767225600, Content: "token ghp_secret"}

	killed, err := Edit(secret, opts)
	if err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(killed.dir)
	if err != nil || fi.Mode().Perm() != 0o700 {
		t.Fatalf("edit folder mode %v (%v), want 0700", fi.Mode().Perm(), err)
	}
	killed.unlock() // as the kernel does when the process dies

	typed, err := Edit(secret, opts)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(typed.path, []byte("the user's own words"), 0o600); err != nil {
		t.Fatal(err)
	}
	typed.unlock()

	foreign := filepath.Join(tmp, "crmem-edit-foreign")
	if err := os.Mkdir(foreign, 0o700); err != nil { // no sum: not one crmem made
		t.Fatal(err)
	}
	outside := t.TempDir()
	linked := filepath.Join(tmp, "crmem-edit-link")
	if err := os.Symlink(outside, linked); err != nil {
		t.Fatal(err)
	}

	live, err := Edit(secret, opts) // removes the killed one, not itself
	if err != nil {
		t.Fatal(err)
	}
	defer live.Cleanup()
	if _, err := os.Stat(killed.dir); err == nil {
		t.Errorf("the killed edit's folder %s is still there", killed.dir)
	}
	for _, keep := range []string{typed.path, foreign, linked, outside, live.path} {
		if _, err := os.Stat(keep); err != nil {
			t.Errorf("%s removed: %v", keep, err)
		}
	}

	// A second crmem starting an edit now leaves the live one alone.
	if n := RemoveStale(opts); n != 0 {
		t.Errorf("removed %d folders, want none (one in use, one the user's)", n)
	}
	if _, err := os.Stat(live.path); err != nil {
		t.Errorf("a live edit's file was removed: %v", err)
	}
	if got := len(editFolders(t, tmp)); got != 4 {
		t.Errorf("%d crmem-edit-* entries left, want 4 (typed, foreign, link, live)", got)
	}
}
