// Package exporttest provides helpers for tests of code that writes dump
// trees (export, the dump subcommand, the TUI's dump action).
package exporttest

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// ReadTree returns every file under dir, keyed by slash-separated path
// relative to dir. It fails t if the tree cannot be read.
func ReadTree(t testing.TB, dir string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		b, err := os.ReadFile(p)
		out[filepath.ToSlash(rel)] = b
		return err
	})
	if err != nil {
		t.Fatalf("read tree %s: %v", dir, err)
	}
	return out
}

// SameTree fails t unless got and want hold exactly the same files, byte
// for byte: every missing, differing and extra file is reported.
func SameTree(t testing.TB, got, want map[string][]byte) {
	t.Helper()
	for name, w := range want {
		if g, ok := got[name]; !ok {
			t.Errorf("missing %s", name)
		} else if !bytes.Equal(g, w) {
			t.Errorf("%s differs:\n got %q\nwant %q", name, g, w)
		}
	}
	for name := range got {
		if _, ok := want[name]; !ok {
			t.Errorf("extra file %s", name)
		}
	}
}
