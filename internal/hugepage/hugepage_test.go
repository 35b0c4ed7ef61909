package hugepage

import (
	"runtime"
	"testing"
	"unsafe"
)

// entry is an element with pointers and a size that does not divide 2 MiB.
type entry struct {
	id   uint64
	name string
	tags []string
	kind uint8
}

// check asserts what Slice promises for n elements of T.
func check[T any](t *testing.T, n int, fill func(int) T) {
	t.Helper()
	s := Slice[T](n)
	size := int(unsafe.Sizeof(*new(T)))
	if len(s) != 0 || cap(s) != n {
		t.Errorf("%T n %d: len %d cap %d, want 0 and n", *new(T), n, len(s), cap(s))
		return
	}
	if runtime.GOOS == "linux" && n*size >= Min {
		// The first whole element at or after a 2 MiB boundary.
		if p := uintptr(unsafe.Pointer(unsafe.SliceData(s[:1]))); p%Size >= uintptr(size) {
			t.Errorf("%T n %d: first element at %#x, not the first after a 2 MiB boundary", *new(T), n, p)
		}
	}
	for i := range n { // every element is there to be written
		s = append(s, fill(i))
	}
	if cap(s) != n {
		t.Errorf("%T n %d: appending n elements moved the slice (cap %d)", *new(T), n, cap(s))
	}
}

func TestSlice(t *testing.T) {
	for _, n := range []int{0, 1, 4096, Min - 1, Min, Size - 1, Size, Size + 1, 5 * Size / 2} {
		check(t, n, func(i int) byte { return byte(i) })
	}
	size := int(unsafe.Sizeof(entry{}))
	for _, n := range []int{0, 1, Min/size - 1, Min / size, Size/size + 1, 3 * Size / size} {
		check(t, n, func(i int) entry { return entry{id: uint64(i), name: "x", tags: []string{"y"}, kind: uint8(i)} })
	}
	if s := Bytes(Min); cap(s) != Min || len(s) != 0 {
		t.Errorf("Bytes(Min): len %d cap %d", len(s), cap(s))
	}
}
