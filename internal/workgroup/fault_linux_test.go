package workgroup

import (
	"os"
	"path/filepath"
	"runtime/debug"
	"testing"
	"unsafe"

	"golang.org/x/sys/unix"
)

// A worker that reads a mapped file which was cut short in place faults;
// the fault reaches Wait's caller as a panic whose value has the address,
// instead of crashing the process.
func TestGroup_FaultInMappedFileIsAPanic(t *testing.T) {
	path := filepath.Join(t.TempDir(), "mapped")
	if err := os.WriteFile(path, make([]byte, 64<<10), 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	data, err := unix.Mmap(int(f.Fd()), 0, 64<<10, unix.PROT_READ, unix.MAP_PRIVATE)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Munmap(data)
	if err := os.Truncate(path, 0); err != nil {
		t.Fatal(err)
	}
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		r := recover()
		f, ok := r.(interface{ Addr() uintptr })
		if !ok {
			t.Fatalf("recovered %v (%T), want a fault with its address", r, r)
		}
		if at := &data[40000]; f.Addr() != uintptr(unsafe.Pointer(at)) {
			t.Fatalf("fault at %#x, want %p", f.Addr(), at)
		}
	}()
	var g Group
	var sink byte
	g.Go(func() { sink = data[40000] })
	g.Wait()
	t.Fatalf("read %d from a truncated mapping", sink)
}
