package store

import (
	"unsafe"

	"golang.org/x/sys/unix"
)

// hugePage is the size of an x86-64 or arm64 transparent huge page.
const hugePage = 2 << 20

// adviseHugePages asks the kernel to back the whole 2 MiB pages inside buf
// with huge pages when they are first touched (MADV_HUGEPAGE; a hint that
// changes nothing where transparent huge pages are off). buf must be a
// fresh allocation not yet written.
func adviseHugePages(buf []byte) {
	if len(buf) < 2*hugePage {
		return
	}
	p := uintptr(unsafe.Pointer(unsafe.SliceData(buf)))
	lo := (p+hugePage-1)&^(hugePage-1) - p
	hi := (p+uintptr(len(buf)))&^(hugePage-1) - p
	if hi > lo {
		_ = unix.Madvise(buf[lo:hi], unix.MADV_HUGEPAGE)
	}
}
