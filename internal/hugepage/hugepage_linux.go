package hugepage

import (
	"unsafe"

	"golang.org/x/sys/unix"
)

// Slice returns an empty slice with room for n elements. From Min bytes
// on, its first element is the first whole one after a 2 MiB boundary (on
// it, for bytes), and the whole 2 MiB pages the elements span are advised
// as huge (MADV_HUGEPAGE, a hint that changes nothing where transparent
// huge pages are off). The run is carved out of
// an allocation two huge pages larger; the rest of it is address space
// never touched, not memory.
func Slice[T any](n int) []T {
	size := int(unsafe.Sizeof(*new(T)))
	if size == 0 || n < Min/size {
		return make([]T, 0, n)
	}
	raw := make([]T, n+2*Size/size+2)
	all := unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(raw))), len(raw)*size)
	p := uintptr(unsafe.Pointer(unsafe.SliceData(all)))
	lo := int((p+Size-1)&^(Size-1) - p) // the first huge page's offset in all
	first := (lo + size - 1) / size     // the first element at or after it
	hi := (first*size + n*size + Size - 1 + int(p%Size)) &^ (Size - 1)
	hi -= int(p % Size) // the end of the last huge page the elements touch
	_ = unix.Madvise(all[lo:hi], unix.MADV_HUGEPAGE)
	return raw[first : first : first+n]
}
