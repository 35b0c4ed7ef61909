//go:build unix

package safefile

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestDir_Entries lists what os.ReadDir lists, with the same types (a
// FIFO, a link, a folder: listed, never opened), and lists the folder
// opened even once its path names another.
func TestDir_Entries(t *testing.T) {
	in, _ := fixture(t)
	want, err := os.ReadDir(in)
	if err != nil {
		t.Fatal(err)
	}
	d, err := OpenDir(in)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	got, err := d.Entries()
	if err != nil {
		t.Fatal(err)
	}
	type ent struct {
		name string
		typ  os.FileMode
	}
	list := func(es []os.DirEntry) []ent {
		var out []ent
		for _, e := range es {
			out = append(out, ent{e.Name(), e.Type()})
		}
		slices.SortFunc(out, func(a, b ent) int { return strings.Compare(a.name, b.name) })
		return out
	}
	if g, w := list(got), list(want); !slices.Equal(g, w) {
		t.Fatalf("Entries = %v, os.ReadDir %v", g, w)
	}

	moved := in + ".moved"
	if err := os.Rename(in, moved); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(in, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(in, "other"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	again, err := d.Entries()
	if err != nil {
		t.Fatal(err)
	}
	if g, w := list(again), list(want); !slices.Equal(g, w) {
		t.Fatalf("Entries after the path moved = %v, want the opened folder's %v", g, w)
	}
}
