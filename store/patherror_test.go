package store

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// TestPathError pins that the store's failures on the memory file carry the
// path as a *PathError (so callers take path and cause with errors.As) while
// printing "<path>: <cause>" and keeping errors.Is on the cause.
func TestPathError(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.db")
	if err := os.WriteFile(bad, []byte("not a memory file"), 0o600); err != nil {
		t.Fatal(err)
	}
	gone := filepath.Join(dir, "gone.db")
	if err := os.WriteFile(gone, Encode(1, nil), 0o600); err != nil {
		t.Fatal(err)
	}
	db, err := Open(gone)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(gone); err != nil {
		t.Fatal(err)
	}
	loop := filepath.Join(dir, "loop")
	if err := os.Symlink(loop, loop); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		path string
		run  func() error
		is   error
	}{
		{"decode", bad, func() error { _, err := Open(bad); return err }, ErrBadFormat},
		{"reload of a removed file", gone, func() error { _, err := db.Reload(); return err }, fs.ErrNotExist},
		{"symbolic link loop", loop, func() error { _, err := resolveTarget(loop); return err }, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.run()
			var pe *PathError
			if !errors.As(err, &pe) {
				t.Fatalf("error %v (%T) is no *PathError", err, err)
			}
			if pe.Path != tc.path || err.Error() != tc.path+": "+pe.Err.Error() {
				t.Fatalf("PathError{%q, %v} prints %q", pe.Path, pe.Err, err)
			}
			if tc.is != nil && !errors.Is(err, tc.is) {
				t.Fatalf("errors.Is(%v, %v) = false", err, tc.is)
			}
		})
	}
}

// TestCause: the cause of a failure on the file at path is what remains
// without every layer that names path (a *PathError, an *fs.PathError, in
// any nesting); a layer naming another file is kept.
func TestCause(t *testing.T) {
	const path = "/m/memory.db"
	inner := errors.New("boom")
	for _, tc := range []struct {
		err  error
		want string
	}{
		{inner, "boom"},
		{&PathError{path, inner}, "boom"},
		{&fs.PathError{Op: "open", Path: path, Err: fs.ErrPermission}, "permission denied"},
		{&PathError{path, &fs.PathError{Op: "open", Path: path, Err: fs.ErrPermission}}, "permission denied"},
		{&fs.PathError{Op: "open", Path: "/other", Err: inner}, "open /other: boom"},
		{&PathError{path, &fs.PathError{Op: "read", Path: "/other", Err: inner}}, "read /other: boom"},
	} {
		if got := Cause(path, tc.err).Error(); got != tc.want {
			t.Errorf("Cause(%v) = %q, want %q", tc.err, got, tc.want)
		}
	}
}
