//go:build linux

package tui

import (
	"time"

	"golang.org/x/sys/unix"
)

// threadCPU is the CPU time (user and system) the calling thread has
// used; the key benchmark locks its goroutine to the thread, so this is
// the loop's own work, whatever else the machine runs.
func threadCPU() time.Duration {
	var ru unix.Rusage
	if err := unix.Getrusage(unix.RUSAGE_THREAD, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// processCPU is the CPU time (user and system) the whole process has used:
// a step's work on every thread, the collector's included.
func processCPU() time.Duration {
	var ru unix.Rusage
	if err := unix.Getrusage(unix.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
