package store_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/crmem/crmem/store"
)

// TestApply_ThroughSymlinks writes through links laid out in ways where a
// lexical resolution goes wrong, and checks against the kernel: reading the
// link (which the kernel resolves) shows the write, and the link stays.
func TestApply_ThroughSymlinks(t *testing.T) {
	tests := []struct {
		name  string
		setup func(root string) (link string)
	}{
		{"dotdot after a linked folder", func(root string) string {
			mkdirs(t, root, "realdir/sub")
			symlink(t, "realdir/sub", root, "linkdir")
			symlink(t, "../m.db", root, "realdir/sub/m.link")
			return filepath.Join(root, "linkdir", "m.link")
		}},
		{"dotdot inside the target through a linked folder", func(root string) string {
			mkdirs(t, root, "deep/x")
			symlink(t, "deep/x", root, "sub")
			symlink(t, "sub/../c.db", root, "b.link")
			symlink(t, "b.link", root, "a.link")
			return filepath.Join(root, "a.link")
		}},
		{"absolute target", func(root string) string {
			mkdirs(t, root, "abs")
			symlink(t, filepath.Join(root, "abs", "m.db"), root, "m.link")
			return filepath.Join(root, "m.link")
		}},
		{"linked folder in the path given", func(root string) string {
			mkdirs(t, root, "real/inner")
			symlink(t, "real/inner", root, "l")
			return filepath.Join(root, "l", "..", "m.db") // the kernel: real/m.db
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			link := tt.setup(root)
			db := openDB(t, link)
			dbApply(t, db, store.Add{Name: "x", Content: "through the link"})
			data, err := os.ReadFile(link) // resolved by the kernel
			if err != nil {
				t.Fatalf("kernel read of %s: %v", link, err)
			}
			f, err := store.Decode(data)
			if err != nil || len(f.Entries) != 1 || f.Entries[0].Name != "x" {
				t.Fatalf("the file the kernel reaches holds %+v, %v", f, err)
			}
			if fi, err := os.Lstat(link); err == nil && fi.Mode()&os.ModeSymlink == 0 && filepath.Base(link) != "m.db" {
				t.Errorf("%s is no longer a link", link)
			}
		})
	}
}

func mkdirs(t *testing.T, root, rel string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Join(root, rel), 0o700); err != nil {
		t.Fatal(err)
	}
}

func symlink(t *testing.T, target, root, rel string) {
	t.Helper()
	if err := os.Symlink(target, filepath.Join(root, rel)); err != nil {
		t.Fatal(err)
	}
}
