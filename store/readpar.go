package store

import (
	"errors"
	"io"
	"os"
	"runtime"
	"sync"
)

// parallelReadMin is the file size from which readAll reads on every core:
// a large read is bound by copying out of the page cache and by faulting
// in the fresh buffer's pages (a 60 MB memory takes ~15k faults), work the
// kernel does on the reading thread, so disjoint ranges read on several
// threads take a fraction of the time. Smaller files take one read.
const parallelReadMin = 8 << 20

// readParallel fills buf with the file's bytes from offset 0, one ReadAt
// per core over disjoint ranges. It reports false, with no error, when the
// file ended before buf was full (it shrank since its stat): the caller
// then reads it again from the start. The file offset is not moved.
func readParallel(f *os.File, buf []byte) (full bool, err error) {
	n := max(1, runtime.GOMAXPROCS(0))
	chunk := (len(buf)/n + 1<<16 - 1) &^ (1<<16 - 1) // whole 64 KiB blocks
	var mu sync.Mutex
	full = true
	var wg sync.WaitGroup
	for lo := 0; lo < len(buf); lo += chunk {
		part := buf[lo:min(lo+chunk, len(buf))]
		wg.Go(func() {
			_, e := f.ReadAt(part, int64(lo))
			if e == nil {
				return
			}
			mu.Lock()
			defer mu.Unlock()
			if errors.Is(e, io.EOF) {
				full = false
			} else if err == nil {
				err = e
			}
		})
	}
	wg.Wait()
	return full && err == nil, err
}
