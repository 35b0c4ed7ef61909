//go:build unix

package safefile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// openFlags open for reading without blocking (a FIFO would wait for a
// writer), without taking a terminal as the controlling one, and closed
// on exec.
const openFlags = syscall.O_RDONLY | syscall.O_CLOEXEC | syscall.O_NONBLOCK | syscall.O_NOCTTY

// openFile opens path as o allows, not yet checked: stat'ed first, so a
// device or FIFO is refused before it is even opened (opening some
// devices acts), then opened without blocking, and the descriptor made
// blocking again for the *os.File (a regular file reads the same, and
// the runtime's poller leaves it alone).
func openFile(path string, o Options) (*os.File, error) {
	if err := preStat(path, o); err != nil {
		return nil, err
	}
	fd, err := openFd(path, o)
	if err != nil {
		return nil, err
	}
	if err := syscall.SetNonblock(fd, false); err != nil {
		syscall.Close(fd)
		return nil, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	return os.NewFile(uintptr(fd), path), nil
}

// preStat refuses at once what path leads to if it is not a regular file
// (a socket cannot even be opened: "no such device or address").
func preStat(path string, o Options) error {
	stat := os.Stat
	if o.Within != "" || o.NoFollow {
		stat = os.Lstat // the link itself is judged by openFd
	}
	if fi, err := stat(path); err == nil && !fi.Mode().IsRegular() && fi.Mode()&fs.ModeSymlink == 0 {
		return &fs.PathError{Op: "open", Path: path, Err: ErrNotRegular}
	}
	return nil
}

// openFd opens path with openFlags; with o.Within or o.NoFollow a link in
// its last element is opened only as resolveLink allows, and only if what
// it leads to is a regular file.
func openFd(path string, o Options) (int, error) {
	flags := openFlags
	checkLink := o.Within != "" || o.NoFollow
	if checkLink {
		flags |= syscall.O_NOFOLLOW
	}
	fd, err := open(path, flags)
	if err != nil && checkLink && isLinkErr(err) {
		target, rerr := resolveLink(path, o)
		if rerr != nil {
			return -1, rerr
		}
		if fi, serr := os.Lstat(target); serr == nil && !fi.Mode().IsRegular() {
			return -1, &fs.PathError{Op: "open", Path: path, Err: ErrNotRegular}
		}
		fd, err = open(target, flags)
	}
	if errors.Is(err, syscall.ENXIO) {
		err = ErrNotRegular // a socket, or a device without a driver
	}
	if err != nil {
		return -1, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	return fd, nil
}

// isLinkErr is what open with O_NOFOLLOW returns for a link: ELOOP, or
// EMLINK on FreeBSD and NetBSD.
func isLinkErr(err error) bool {
	return errors.Is(err, syscall.ELOOP) || errors.Is(err, syscall.EMLINK)
}

// open is syscall.Open retried on EINTR.
//
// A write lease on the file (another crmem appending to crabtalk's store
// holds one for the length of its append) makes a non-blocking open fail
// with EWOULDBLOCK where a blocking one would wait for the lease to go:
// open waits too, retrying for up to leaseWait (seen: a second writer
// started during an append failed with "resource temporarily
// unavailable").
func open(path string, flags int) (int, error) {
	wait := time.Millisecond
	for end := time.Now().Add(leaseWait); ; {
		fd, err := syscall.Open(path, flags, 0)
		switch {
		case err == syscall.EINTR:
		case err == syscall.EWOULDBLOCK && time.Now().Before(end):
			time.Sleep(wait)
			wait = min(2*wait, 50*time.Millisecond)
		default:
			return fd, err
		}
	}
}

// leaseWait bounds how long an open waits for another program's lease on
// the file to go (the kernel breaks one after /proc/sys/fs/lease-break-time,
// 45 s by default).
const leaseWait = 10 * time.Second

// ReadInto reads the file at path into buf (reused across calls; its
// contents are replaced) as ReadFile does, with the fewest system calls:
// open, fstat, read the size fstat gave (until end of file when it gave
// 0), close. A folder of small files
// (a session's steps) is read this way. Unlike ReadFile it does not stat
// the path before opening it: the caller lists only entries that are
// files or links (a link is judged before it is opened).
func ReadInto(path string, buf []byte, o Options) ([]byte, error) {
	fd, err := openFd(path, o)
	if err != nil {
		return nil, err
	}
	return readFd(fd, path, buf, o)
}

// Dir is a folder opened once, whose files Dir.ReadInto opens relative to
// it: the kernel resolves one path element per file, not the whole path
// (a session's steps, one file each).
type Dir struct {
	fd   int
	path string
}

// OpenDir opens the folder at path, following links (the caller judges a
// link to it, as the sessions reader does with Inside).
func OpenDir(path string) (*Dir, error) {
	fd, err := open(path, syscall.O_RDONLY|syscall.O_CLOEXEC|syscall.O_DIRECTORY|syscall.O_NONBLOCK|syscall.O_NOCTTY)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	return &Dir{fd: fd, path: path}, nil
}

// Close closes the folder.
func (d *Dir) Close() error { return syscall.Close(d.fd) }

// Entries lists the folder's entries as (*os.File).ReadDir(-1) does, in
// no set order (os.ReadDir sorts them), read through a descriptor of the
// folder opened relative to it: the folder itself, whatever its path
// names by now.
func (d *Dir) Entries() ([]fs.DirEntry, error) {
	fd, err := openat(d.fd, ".", syscall.O_RDONLY|syscall.O_CLOEXEC|syscall.O_DIRECTORY)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: d.path, Err: err}
	}
	f := os.NewFile(uintptr(fd), d.path)
	defer f.Close()
	return f.ReadDir(-1)
}

// ReadInto is ReadInto(filepath.Join(d's path, name), buf, o) for name,
// one element of a path, opened relative to the folder. A link is judged
// as ReadInto judges it, by its path.
func (d *Dir) ReadInto(name string, buf []byte, o Options) ([]byte, error) {
	if name == "" || name == "." || name == ".." || strings.ContainsRune(name, '/') {
		return ReadInto(filepath.Join(d.path, name), buf, o)
	}
	flags := openFlags
	checkLink := o.Within != "" || o.NoFollow
	if checkLink {
		flags |= syscall.O_NOFOLLOW
	}
	fd, err := openat(d.fd, name, flags)
	if err != nil && checkLink && isLinkErr(err) {
		return ReadInto(filepath.Join(d.path, name), buf, o) // resolved and judged by its path
	}
	if errors.Is(err, syscall.ENXIO) {
		err = ErrNotRegular // a socket, or a device without a driver
	}
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: filepath.Join(d.path, name), Err: err}
	}
	// The path is joined only for an error: a folder of steps is read a
	// file at a time, most of them whole.
	data, err := readFd(fd, "", buf, o)
	if pe := (*fs.PathError)(nil); errors.As(err, &pe) {
		pe.Path = filepath.Join(d.path, name)
	}
	return data, err
}

// openat is openat(2) retried on EINTR (x/sys/unix's: the syscall
// package has none on darwin).
func openat(dir int, name string, flags int) (int, error) {
	for {
		fd, err := unix.Openat(dir, name, flags, 0)
		if err != syscall.EINTR {
			return fd, err
		}
	}
}

// readFd reads the file open on fd (and closes it) as ReadInto reads
// path: a regular file on the descriptor's stat, within the cap.
func readFd(fd int, path string, buf []byte, o Options) ([]byte, error) {
	defer syscall.Close(fd)
	var st syscall.Stat_t
	var err error
	for {
		err = syscall.Fstat(fd, &st)
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		return nil, &fs.PathError{Op: "stat", Path: path, Err: err}
	}
	if st.Mode&syscall.S_IFMT != syscall.S_IFREG {
		return nil, &fs.PathError{Op: "open", Path: path, Err: ErrNotRegular}
	}
	if o.Limit > 0 && st.Size > o.Limit {
		return nil, &fs.PathError{Op: "read", Path: path, Err: &TooLargeError{Size: st.Size, Limit: o.Limit, What: o.What}}
	}
	buf = buf[:0]
	if int64(cap(buf)) < st.Size+1 {
		buf = make([]byte, 0, st.Size+1)
	}
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := syscall.Read(fd, buf[len(buf):cap(buf)])
		switch {
		case err == syscall.EINTR:
			continue
		case err != nil:
			return nil, &fs.PathError{Op: "read", Path: path, Err: err}
		case n == 0:
			return buf, nil
		}
		buf = buf[:len(buf)+n]
		if o.Limit > 0 && int64(len(buf)) > o.Limit {
			return nil, &fs.PathError{Op: "read", Path: path, Err: &TooLargeError{Size: -1, Limit: o.Limit, What: o.What}}
		}
		if st.Size > 0 && int64(len(buf)) == st.Size {
			// The file as the descriptor's stat described it: no read
			// for its end (one system call of five a step). A file that
			// says size 0 (/proc) is read to its end.
			return buf, nil
		}
	}
}
