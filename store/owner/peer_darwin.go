//go:build darwin

package owner

import (
	"net"

	"golang.org/x/sys/unix"
)

// peerPID is the pid of the process listening at the other end of c (its
// LOCAL_PEERPID), 0 when unknown.
func peerPID(c net.Conn) int {
	uc, ok := c.(*net.UnixConn)
	if !ok {
		return 0
	}
	raw, err := uc.SyscallConn()
	if err != nil {
		return 0
	}
	var pid int
	_ = raw.Control(func(fd uintptr) {
		if p, err := unix.GetsockoptInt(int(fd), unix.SOL_LOCAL, unix.LOCAL_PEERPID); err == nil {
			pid = p
		}
	})
	return pid
}
