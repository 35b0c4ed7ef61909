//go:build linux

package store_test

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/crmem/crmem/store"
)

// TestLockHolder: the kernel names the process holding crmem's lock of a
// folder (this one, through holdLock), and a writer that gives up waiting
// names it too; nobody holds a folder no crmem writes.
func TestLockHolder(t *testing.T) {
	path := writeDB(t, 2, note(1, "a", "x"))
	dir := filepath.Dir(path)
	if got := store.LockHolder(dir); got != 0 {
		t.Errorf("LockHolder before the lock = %d, want 0", got)
	}
	release := holdLock(t, path)
	defer release()
	if got := store.LockHolder(dir); got != os.Getpid() {
		t.Fatalf("LockHolder = %d, want this process %d", got, os.Getpid())
	}
	if got := store.LockHolder(t.TempDir()); got != 0 {
		t.Errorf("LockHolder of another folder = %d, want 0", got)
	}
	db, err := store.OpenWith(path, store.Options{Index: store.IndexOnDemand, LockTimeout: 30 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	_, err = db.Apply(store.Add{Name: "b"})
	want := "another crmem (pid " + strconv.Itoa(os.Getpid()) + ") still held crmem's lock"
	if !errors.Is(err, store.ErrLocked) || !strings.Contains(err.Error(), want) {
		t.Errorf("Apply = %v, want ErrLocked saying %q", err, want)
	}
}

// TestLockHolderName: the other crmem by pid where it is known.
func TestLockHolderName(t *testing.T) {
	for pid, want := range map[int]string{0: "another crmem", -1: "another crmem", 4242: "another crmem (pid 4242)"} {
		if got := store.LockHolderName(pid); got != want {
			t.Errorf("LockHolderName(%d) = %q, want %q", pid, got, want)
		}
	}
}
