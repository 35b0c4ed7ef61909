//go:build linux || darwin

package owner

import "net"

// peerPID is the pid of the process listening at the other end of c (its
// peer credentials: peerPIDOf, per system), 0 when unknown.
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
		if p, ok := peerPIDOf(int(fd)); ok {
			pid = p
		}
	})
	return pid
}
