//go:build unix

package store

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
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
			return nil, fmt.Errorf("%w (%s still held crmem's lock of %s after %v; nothing written)", ErrLocked, LockHolderName(LockHolder(dir)), dir, timeout)
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

// LockHolder is the process holding crmem's lock of the folder dir (the
// flock lockDir takes), as the kernel lists it in /proc/locks; 0 when no
// process holds it or it cannot be told (no /proc/locks: not Linux). The
// kernel names the process that took the lock, which is the crmem writing
// the folder's memory file.
func LockHolder(dir string) int {
	var st unix.Stat_t
	if err := unix.Stat(dir, &st); err != nil {
		return 0
	}
	f, err := os.Open("/proc/locks")
	if err != nil {
		return 0
	}
	defer f.Close()
	return lockHolderIn(bufio.NewScanner(f), uint32(unix.Major(uint64(st.Dev))), uint32(unix.Minor(uint64(st.Dev))), st.Ino)
}

// lockHolderIn finds, in /proc/locks' lines, the pid holding a FLOCK on
// the file with device major:minor and inode ino (0: none). A line is
// "1: FLOCK  ADVISORY  WRITE 4242 fd:01:1234 0 EOF", the device in hex;
// a waiter's line ("1: -> FLOCK …") is skipped.
func lockHolderIn(sc *bufio.Scanner, major, minor uint32, ino uint64) int {
	want := fmt.Sprintf("%02x:%02x:%d", major, minor, ino)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 6 || f[1] != "FLOCK" || f[5] != want {
			continue
		}
		if pid, err := strconv.Atoi(f[4]); err == nil && pid > 0 {
			return pid
		}
	}
	return 0
}
