//go:build unix

package safefile

import (
	"fmt"
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
	each := func() []ent {
		var out []ent
		if err := d.EachEntry(func(name []byte, typ os.FileMode) { out = append(out, ent{string(name), typ}) }); err != nil {
			t.Fatal(err)
		}
		slices.SortFunc(out, func(a, b ent) int { return strings.Compare(a.name, b.name) })
		return out
	}
	if g, w := each(), list(want); !slices.Equal(g, w) {
		t.Fatalf("EachEntry = %v, os.ReadDir %v", g, w)
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
	if g, w := each(), list(want); !slices.Equal(g, w) {
		t.Fatalf("EachEntry after the path moved = %v, want the opened folder's %v", g, w)
	}
}

// TestDir_EachEntry_Many lists a folder of more entries than one read of
// the system's listing returns, with names up to the longest a file
// system takes, as os.ReadDir lists it.
func TestDir_EachEntry_Many(t *testing.T) {
	dir := t.TempDir()
	for i := range 700 {
		name := fmt.Sprintf("step-%06d", i)
		if i%100 == 0 {
			name += strings.Repeat("x", 255-len(name))
		}
		if err := os.WriteFile(filepath.Join(dir, name), nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("step-000001", filepath.Join(dir, "link")); err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	d, err := OpenDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	var got []string
	if err := d.EachEntry(func(name []byte, typ os.FileMode) { got = append(got, fmt.Sprint(string(name), " ", typ)) }); err != nil {
		t.Fatal(err)
	}
	slices.Sort(got)
	var w []string
	for _, e := range want {
		w = append(w, fmt.Sprint(e.Name(), " ", e.Type()))
	}
	if !slices.Equal(got, w) {
		t.Fatalf("EachEntry listed %d entries, os.ReadDir %d:\n%q\n%q", len(got), len(w), got, w)
	}
}
