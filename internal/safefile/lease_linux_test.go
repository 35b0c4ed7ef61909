//go:build linux

package safefile

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// TestReadFile_WaitsForALease: a file under another writer's write lease
// (crmem appending to crabtalk's store holds one for its append) is read
// once the lease goes, not refused with EWOULDBLOCK as a non-blocking
// open gives (seen: a second `crmem add` started during an import failed
// with "resource temporarily unavailable", TestStoreCLI_TwoWritersQueue).
func TestReadFile_WaitsForALease(t *testing.T) {
	path := filepath.Join(t.TempDir(), "store.crmem")
	if err := os.WriteFile(path, []byte("appended"), 0o600); err != nil {
		t.Fatal(err)
	}
	holder, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer holder.Close()
	if _, err := unix.FcntlInt(holder.Fd(), unix.F_SETLEASE, unix.F_WRLCK); err != nil {
		t.Skipf("no write lease here: %v", err)
	}
	released := make(chan struct{})
	go func() {
		time.Sleep(100 * time.Millisecond)
		unix.FcntlInt(holder.Fd(), unix.F_SETLEASE, unix.F_UNLCK)
		close(released)
	}()
	data, err := ReadFile(path, Options{})
	if err != nil {
		t.Fatalf("read under a lease: %v", err)
	}
	select {
	case <-released:
	default:
		t.Error("read before the lease was released")
	}
	if string(data) != "appended" {
		t.Errorf("read %q", data)
	}
}
