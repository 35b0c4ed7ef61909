//go:build unix

package sessions

import (
	"io/fs"
	"syscall"
)

// readStep reads a step file into buf (reused across steps) with three
// system calls (open, read until EOF, close): os.ReadFile also stats the
// file and registers it with the poller, which doubles the cost of a
// folder of small files. O_NONBLOCK keeps a FIFO named like a step from
// blocking the read; it then reads as empty.
func readStep(path string, buf []byte) ([]byte, error) {
	fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC|syscall.O_NONBLOCK, 0)
	for err == syscall.EINTR {
		fd, err = syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC|syscall.O_NONBLOCK, 0)
	}
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	defer syscall.Close(fd)
	buf = buf[:0]
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := syscall.Read(fd, buf[len(buf):cap(buf)])
		switch {
		case err == syscall.EINTR:
			continue
		case err == syscall.EAGAIN:
			return buf, nil // a FIFO without a writer
		case err != nil:
			return nil, &fs.PathError{Op: "read", Path: path, Err: err}
		case n == 0:
			return buf, nil
		}
		buf = buf[:len(buf)+n]
		if len(buf) > maxStepBytes {
			return nil, &fs.PathError{Op: "read", Path: path, Err: errStepTooLarge}
		}
	}
}
