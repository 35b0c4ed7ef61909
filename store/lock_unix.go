//go:build unix

package store

import (
	"errors"
	"fmt"
	"os"
	"time"

	"golang.org/x/sys/unix"
)

// lockWaitNotice is how long a writer waits before onWait is called.
const lockWaitNotice = time.Second

// lockDir takes an exclusive flock on the folder that holds the memory
// file, so crmem writers of that folder queue one behind the other. The
// lock is on the folder's own inode: nothing is created beside the memory,
// and the kernel drops the lock when the process exits, so a crashed
// writer never leaves a stale one. It waits as long as it takes (timeout 0)
// or up to timeout (then ErrLocked); onWait, if set, is called once when
// the wait passes a second. The returned func releases the lock.
func lockDir(dir string, timeout time.Duration, onWait func()) (func(), error) {
	f, err := os.Open(dir)
	if err != nil {
		return nil, fmt.Errorf("lock: %w", err)
	}
	start := time.Now()
	wait, told := time.Millisecond, false
	for {
		err := unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB)
		if err == nil {
			break
		}
		if !errors.Is(err, unix.EWOULDBLOCK) && !errors.Is(err, unix.EINTR) {
			f.Close()
			return nil, fmt.Errorf("lock %s: %w", dir, err)
		}
		waited := time.Since(start)
		if timeout > 0 && waited > timeout {
			f.Close()
			return nil, fmt.Errorf("%w (waited %v for %s)", ErrLocked, timeout, dir)
		}
		if !told && onWait != nil && waited >= lockWaitNotice {
			told = true
			onWait()
		}
		time.Sleep(wait)
		wait = min(2*wait, 20*time.Millisecond)
	}
	return func() {
		unix.Flock(int(f.Fd()), unix.LOCK_UN)
		f.Close()
	}, nil
}
