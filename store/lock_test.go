//go:build unix

package store_test

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/crmem/crmem/store"
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

func TestApply_LockTimeout(t *testing.T) {
	path := writeDB(t, 2, note(1, "a", "x"))
	release := holdLock(t, path)
	defer release()
	db, err := store.OpenWith(path, store.Options{Index: store.IndexOnDemand, LockTimeout: 30 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Apply(store.Add{Name: "b"}); !errors.Is(err, store.ErrLocked) {
		t.Fatalf("error %v, want ErrLocked", err)
	}
	release()
	dbApply(t, db, store.Add{Name: "b"})
}
