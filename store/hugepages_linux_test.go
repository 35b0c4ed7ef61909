package store

import (
	"testing"
	"unsafe"
)

// TestReadBuffer: room for n bytes, empty; from hugeBufferMin on it starts
// on a huge-page boundary and spans whole huge pages, so the kernel can
// back all of it with them.
func TestReadBuffer(t *testing.T) {
	for _, n := range []int{0, 1, 4096, hugeBufferMin - 1, hugeBufferMin, hugePage - 1, hugePage, hugePage + 1, 5 * hugePage / 2} {
		buf := readBuffer(n)
		if len(buf) != 0 || cap(buf) < n {
			t.Errorf("n %d: len %d cap %d", n, len(buf), cap(buf))
			continue
		}
		if n < hugeBufferMin {
			if cap(buf) != n {
				t.Errorf("n %d below the huge-page minimum: cap %d, want exactly n", n, cap(buf))
			}
			continue
		}
		if p := uintptr(unsafe.Pointer(unsafe.SliceData(buf))); p%hugePage != 0 {
			t.Errorf("n %d: starts at %#x, not on a 2 MiB boundary", n, p)
		}
		if cap(buf)%hugePage != 0 || cap(buf)-n >= hugePage {
			t.Errorf("n %d: cap %d is not the whole huge pages n needs", n, cap(buf))
		}
		buf = buf[:n]
		for i := range buf { // every byte is there to be written
			buf[i] = byte(i)
		}
	}
}
