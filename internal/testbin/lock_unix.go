//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package testbin

import "syscall"

// lockDir takes an exclusive lock on the folder dir, waiting for it, and
// returns its release. The folder is opened with syscall.Open, not os.Open:
// go test records what a test opens with os, and would then key its cache
// of the test's result on the folder's listing.
func lockDir(dir string) (func(), error) {
	fd, err := syscall.Open(dir, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return nil, err
	}
	for {
		err = syscall.Flock(fd, syscall.LOCK_EX)
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		syscall.Close(fd)
		return nil, err
	}
	return func() { syscall.Close(fd) }, nil
}
