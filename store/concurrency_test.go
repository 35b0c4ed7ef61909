package store_test

import (
	"fmt"
	"path/filepath"
	"sync"
	"testing"

	"github.com/crmem/crmem/store"
)

// TestConcurrentWriters runs goroutines with their own DB handles and child
// processes against one file, all adding distinct entries: every entry ends
// up in the file.
func TestConcurrentWriters(t *testing.T) {
	const goroutines, procs, each = 6, 3, 8
	path := filepath.Join(t.TempDir(), "memory.db")
	var want []string
	var cmds []interface{ Wait() error }
	for p := range procs {
		prefix := fmt.Sprintf("proc%d", p)
		cmd := helperCmd(t, "add", path, prefix, fmt.Sprint(each))
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cmds = append(cmds, cmd)
		for i := range each {
			want = append(want, fmt.Sprintf("%s-%d", prefix, i))
		}
	}
	var wg sync.WaitGroup
	errs := make(chan error, goroutines)
	for g := range goroutines {
		prefix := fmt.Sprintf("go%d", g)
		for i := range each {
			want = append(want, fmt.Sprintf("%s-%d", prefix, i))
		}
		wg.Go(func() {
			db, err := store.OpenWith(path, store.Options{Index: store.IndexOnDemand})
			if err != nil {
				errs <- err
				return
			}
			for i := range each {
				if _, err := db.Apply(store.Add{Name: fmt.Sprintf("%s-%d", prefix, i)}); err != nil {
					errs <- err
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	for _, c := range cmds {
		if err := c.Wait(); err != nil {
			t.Errorf("child: %v", err)
		}
	}
	f := onDisk(t, path)
	got := map[string]bool{}
	ids := map[uint64]bool{}
	for _, e := range f.Entries {
		got[e.Name] = true
		if ids[e.ID] {
			t.Errorf("id %d used twice", e.ID)
		}
		ids[e.ID] = true
	}
	for _, name := range want {
		if !got[name] {
			t.Errorf("%s lost", name)
		}
	}
	if len(f.Entries) != len(want) {
		t.Errorf("%d entries, want %d", len(f.Entries), len(want))
	}
}
