package crabdb

import (
	"fmt"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestAppend_WriteLeaseMakesAnOpenWait: while crmem appends, holding the
// kernel's write lease, an open of the store by anyone else (crabtalk's
// daemon starting, say, after crmem's last check that nobody writes it)
// waits until the append is over: it never sees the reserve, and writes
// after the whole append. Where the kernel grants no lease (not the
// file's owner without CAP_LEASE, a file system without leases) the test
// says so and stops: Append then runs the guard again after the reserve
// (TestAppend_RecheckAfterReserve). The open is seen waiting in
// /proc/locks (the lease BREAKING) before the append goes on.
func TestAppend_WriteLeaseMakesAnOpenWait(t *testing.T) {
	path := copyBefore(t, t.TempDir(), "store.crmem")
	f, err := Open(path)
	must(t, err)
	fi, err := os.Stat(path)
	must(t, err)
	ino := fmt.Sprintf(":%d ", fi.Sys().(*syscall.Stat_t).Ino)
	var leased, breaking bool
	opened := make(chan time.Time, 1)
	var trimmedAt time.Time
	f.hooks = appendHooks{
		leased: func(l bool) { leased = l },
		afterStep: func(step int) {
			switch {
			case !leased:
			case step == stepReserved:
				go func() {
					fh, err := os.OpenFile(path, os.O_RDWR, 0) // as crabdb's open_with
					if err == nil {
						fh.Close()
					}
					opened <- time.Now()
				}()
				// Wait until the kernel says the open is breaking the
				// lease (it waits in the open for the lease's release).
				for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
					locks, _ := os.ReadFile("/proc/locks")
					if breaking = strings.Contains(string(locks), "BREAK") && strings.Contains(string(locks), ino); breaking {
						break
					}
				}
			case step == stepTrimmed:
				trimmedAt = time.Now() // the lease is released after this
			}
		},
	}
	b := f.Store().NewBatch()
	must(t, b.PutMemory(Entry{Name: "leased", Kind: "note", Content: "under a lease", CreatedAt: "2026-01-01T00:00:00+00:00"}))
	must(t, f.Append(b))
	if !leased {
		t.Skip("the kernel granted no write lease here: Append re-checks instead")
	}
	if !breaking {
		t.Fatal("/proc/locks never showed the open breaking crmem's lease")
	}
	if at := <-opened; !at.After(trimmedAt) {
		t.Errorf("the open went through at %v, before the append's end (%v)", at, trimmedAt)
	}
}
