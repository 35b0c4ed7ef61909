package store

import (
	"unsafe"

	"golang.org/x/sys/unix"
)

// hugePage is the size of an x86-64 or arm64 transparent huge page.
const hugePage = 2 << 20

// hugeBufferMin is the smallest buffer readBuffer backs with huge pages.
// Every 4 KiB page a fresh process touches costs a page fault (~20 µs on
// the VMs crmem was measured on: reading a 1.8 MB memory into a plain
// buffer took 10 ms, into a huge page 1.5 ms); one huge page costs about
// as much as a dozen small faults, so below 256 KiB it is not worth it.
const hugeBufferMin = 256 << 10

// readBuffer returns an empty buffer with room for n bytes. From
// hugeBufferMin on, its bytes are a run of whole 2 MiB pages that the
// kernel is asked to back with transparent huge pages when they are first
// touched (MADV_HUGEPAGE: a hint that changes nothing where they are off).
// The run is carved out of an allocation one huge page larger, so that it
// starts on a 2 MiB boundary; the rest of that allocation is address
// space never touched, not memory.
func readBuffer(n int) []byte {
	if n < hugeBufferMin {
		return make([]byte, 0, n)
	}
	span := (n + hugePage - 1) &^ (hugePage - 1)
	raw := make([]byte, span+hugePage)
	p := uintptr(unsafe.Pointer(unsafe.SliceData(raw)))
	off := int((p+hugePage-1)&^(hugePage-1) - p)
	buf := raw[off : off+span : off+span]
	_ = unix.Madvise(buf, unix.MADV_HUGEPAGE)
	return buf[:0]
}
