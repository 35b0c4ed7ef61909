//go:build unix

package store_test

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/crmem/crmem/store"
)

// TestApply_WaitsForTheLock: with the default options a writer waits as
// long as the lock is held (no timeout) and says so after a second; once
// the lock is released its write lands.
func TestApply_WaitsForTheLock(t *testing.T) {
	path := writeDB(t, 2, note(1, "a", "x"))
	release := holdLock(t, path)
	defer release()
	waiting := make(chan struct{})
	db, err := store.OpenWith(path, store.Options{Index: store.IndexOnDemand, OnLockWait: func() { close(waiting) }})
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := db.Apply(store.Add{Name: "b"})
		done <- err
	}()
	select {
	case <-waiting:
	case err := <-done:
		t.Fatalf("Apply returned %v while the lock was held", err)
	}
	release()
	if err := <-done; err != nil {
		t.Fatalf("after the lock was released: %v", err)
	}
	if got := diskNames(t, path); !slices.Equal(got, []string{"a", "b"}) {
		t.Errorf("file holds %v", got)
	}
}

// TestApply_QueuedWritersOnLargeFile starts 24 writer processes at once on
// a file of 100k entries: every one of them lands, and the folder holds the
// memory file alone afterwards.
func TestApply_QueuedWritersOnLargeFile(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: 24 processes each reading a 100k-entry file")
	}
	const writers, entries = 24, 100_000
	big := make([]store.Entry, entries)
	for i := range big {
		big[i] = note(uint64(i+1), fmt.Sprintf("entry-%d", i), "a few words of content for the large file")
	}
	path := writeDB(t, entries+1, big...)
	var cmds []interface{ Wait() error }
	for w := range writers {
		cmd := helperCmd(t, "add", path, fmt.Sprintf("queued%d", w), "1")
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cmds = append(cmds, cmd)
	}
	for _, c := range cmds {
		if err := c.Wait(); err != nil {
			t.Errorf("writer: %v", err)
		}
	}
	f := onDisk(t, path)
	landed := 0
	for _, e := range f.Entries {
		if strings.HasPrefix(e.Name, "queued") {
			landed++
		}
	}
	if landed != writers || len(f.Entries) != entries+writers {
		t.Errorf("%d of %d writers landed, %d entries", landed, writers, len(f.Entries))
	}
	des, _ := os.ReadDir(filepath.Dir(path))
	if len(des) != 1 {
		t.Errorf("folder holds %d names, want the memory file alone", len(des))
	}
}
