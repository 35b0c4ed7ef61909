//go:build unix

package store_test

import (
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/sys/unix"
)

// holdLock takes the memory file's writer lock as another process would.
func holdLock(t *testing.T, path string) (release func()) {
	t.Helper()
	lock := filepath.Join(filepath.Dir(path), "."+filepath.Base(path)+".crmem.lock")
	f, err := os.OpenFile(lock, os.O_RDWR|os.O_CREATE, 0o600)
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
