package safefile

import (
	"encoding/binary"
	"io/fs"
	"path/filepath"
	"sync"
	"syscall"

	"golang.org/x/sys/unix"
)

// EachEntry calls fn with the name and type (fs.ModeType bits: 0 for a
// regular file) of each of the folder's entries, as Entries lists them,
// in no set order; name is valid only until fn returns. Read straight
// from getdents64 into one buffer: Entries made a DirEntry and a string
// for each entry, most of listing 500 sessions of 120 steps. An entry
// whose type the file system does not give is lstat'ed, as os.ReadDir
// does, and left out if it is gone by then.
func (d *Dir) EachEntry(fn func(name []byte, typ fs.FileMode)) error {
	fd, err := openat(d.fd, ".", syscall.O_RDONLY|syscall.O_CLOEXEC|syscall.O_DIRECTORY)
	if err != nil {
		return &fs.PathError{Op: "open", Path: d.path, Err: err}
	}
	defer syscall.Close(fd)
	buf := direntBufs.Get().(*[8192]byte)
	defer direntBufs.Put(buf)
	for {
		n, err := syscall.Getdents(fd, buf[:])
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return &fs.PathError{Op: "readdirent", Path: d.path, Err: err}
		}
		if n <= 0 {
			return nil
		}
		if err := eachDirent(fd, d.path, buf[:n], fn); err != nil {
			return err
		}
	}
}

// eachDirent calls fn with the name and type of each entry of recs,
// records getdents64 read from the folder open on fd (at path, for
// errors), as EachEntry lists them: ".", ".." and entries of inode 0
// left out, a type the records do not give lstat'ed through fd, an entry
// gone by then left out, a record whose length does not fit an error.
func eachDirent(fd int, path string, recs []byte, fn func(name []byte, typ fs.FileMode)) error {
	// struct linux_dirent64: d_ino u64, d_off s64, d_reclen u16,
	// d_type u8, d_name NUL-terminated.
	for rec := recs; len(rec) >= 19; {
		reclen := int(binary.NativeEndian.Uint16(rec[16:]))
		if reclen < 19 || reclen > len(rec) {
			return &fs.PathError{Op: "readdirent", Path: path, Err: syscall.EIO}
		}
		ino, typ, name := binary.NativeEndian.Uint64(rec), rec[18], rec[19:reclen]
		rec = rec[reclen:]
		for i, c := range name {
			if c == 0 {
				name = name[:i]
				break
			}
		}
		if ino == 0 || string(name) == "." || string(name) == ".." {
			continue // os.ReadDir skips these too
		}
		mode, ok := direntMode(typ)
		if !ok {
			var st unix.Stat_t
			if err := fstatat(fd, string(name), &st); err != nil {
				if err == syscall.ENOENT {
					continue // gone since it was listed
				}
				return &fs.PathError{Op: "lstat", Path: filepath.Join(path, string(name)), Err: err}
			}
			mode = statMode(st.Mode)
		}
		fn(name, mode)
	}
	return nil
}

// direntBufs are EachEntry's buffers, one per listing at a time (a buffer
// of its own escaped: one made for each session listed).
var direntBufs = sync.Pool{New: func() any { return new([8192]byte) }}

// fstatat is fstatat(2) of name in the folder open on dir, not following
// a link, retried on EINTR.
func fstatat(dir int, name string, st *unix.Stat_t) error {
	for {
		err := unix.Fstatat(dir, name, st, unix.AT_SYMLINK_NOFOLLOW)
		if err != syscall.EINTR {
			return err
		}
	}
}

// direntMode is the type a dirent's d_type gives, as os.ReadDir reads
// it; ok is false for DT_UNKNOWN (and any type it does not know).
func direntMode(typ byte) (fs.FileMode, bool) {
	switch typ {
	case syscall.DT_REG:
		return 0, true
	case syscall.DT_DIR:
		return fs.ModeDir, true
	case syscall.DT_LNK:
		return fs.ModeSymlink, true
	case syscall.DT_FIFO:
		return fs.ModeNamedPipe, true
	case syscall.DT_SOCK:
		return fs.ModeSocket, true
	case syscall.DT_CHR:
		return fs.ModeDevice | fs.ModeCharDevice, true
	case syscall.DT_BLK:
		return fs.ModeDevice, true
	}
	return 0, false
}

// statMode is the type of a stat's st_mode, as os reads it.
func statMode(m uint32) fs.FileMode {
	switch m & syscall.S_IFMT {
	case syscall.S_IFDIR:
		return fs.ModeDir
	case syscall.S_IFLNK:
		return fs.ModeSymlink
	case syscall.S_IFIFO:
		return fs.ModeNamedPipe
	case syscall.S_IFSOCK:
		return fs.ModeSocket
	case syscall.S_IFCHR:
		return fs.ModeDevice | fs.ModeCharDevice
	case syscall.S_IFBLK:
		return fs.ModeDevice
	}
	return 0
}
