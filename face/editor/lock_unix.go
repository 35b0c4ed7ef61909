//go:build unix

package editor

import (
	"os"

	"golang.org/x/sys/unix"
)

// lockDir takes the lock that says an edit's folder is in use, held until
// the returned file is closed (or the process ends: the kernel drops it,
// so a killed crmem leaves no stale lock).
func lockDir(dir string) (*os.File, error) {
	f, err := os.Open(dir)
	if err != nil {
		return nil, err
	}
	if err := unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// tryLockDir takes dir's lock if dir is a real folder (not a link) owned
// by this user with mode 0700 and no process holds the lock.
func tryLockDir(dir string) (unlock func(), ok bool) {
	fd, err := unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, false
	}
	var st unix.Stat_t
	if unix.Fstat(fd, &st) != nil || int(st.Uid) != os.Getuid() || st.Mode&0o777 != 0o700 ||
		unix.Flock(fd, unix.LOCK_EX|unix.LOCK_NB) != nil {
		unix.Close(fd)
		return nil, false
	}
	return func() { unix.Close(fd) }, true
}
