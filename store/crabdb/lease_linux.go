package crabdb

import (
	"os"

	"golang.org/x/sys/unix"
)

// takeWriteLease asks the kernel for a write lease on fh, the descriptor
// Append writes with. Linux grants one only while no other descriptor of
// the file is open (in any process, this one included), to the file's
// owner or a process with CAP_LEASE; from then on an open of the file by
// anyone else waits until the lease is released (or the lease break time,
// /proc/sys/fs/lease-break-time, 45 s by default, passes). false: no lease
// (the caller re-checks instead).
func takeWriteLease(fh *os.File) bool {
	_, err := unix.FcntlInt(fh.Fd(), unix.F_SETLEASE, unix.F_WRLCK)
	return err == nil
}

// releaseLease releases fh's lease; an open waiting for it goes on.
func releaseLease(fh *os.File) {
	unix.FcntlInt(fh.Fd(), unix.F_SETLEASE, unix.F_UNLCK)
}
