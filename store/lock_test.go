//go:build unix

package store_test

import (
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/sys/unix"
)

// holdLock takes the memory file's writer lock (a flock on its folder) as
// another crmem process would.
func holdLock(t *testing.T, path string) (release func()) {
	t.Helper()
	f, err := os.Open(filepath.Dir(path))
	if err != nil {
		t.Fatal(err)
	}
	if err := unix.Flock(int(f.Fd()), unix.LOCK_EX); err != nil {
		t.Fatal(err)
	}
	done := false
	return func() {
		if !done {
			done = true
			f.Close()
		}
	}
}
