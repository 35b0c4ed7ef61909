//go:build !unix

package bm25

import "time"

// cpuTime has no portable CPU clock to read here: it reports zero, so the
// benchmarks' cpu-ms/op metric reads 0 on these platforms.
func cpuTime() time.Duration { return 0 }
