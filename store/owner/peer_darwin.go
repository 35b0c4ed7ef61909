//go:build darwin

package owner

import "golang.org/x/sys/unix"

// peerPIDOf is the pid LOCAL_PEERPID gives for the socket fd.
func peerPIDOf(fd int) (int, bool) {
	p, err := unix.GetsockoptInt(fd, unix.SOL_LOCAL, unix.LOCAL_PEERPID)
	return p, err == nil
}
