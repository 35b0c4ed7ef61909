package safefile

import (
	"encoding/binary"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"syscall"
	"testing"
)

// dirent is one linux_dirent64 record: d_ino, d_off, d_reclen, d_type and
// the NUL-terminated name, padded with NULs to a multiple of 8 bytes as
// the kernel pads them (pad more for a name followed by several NULs).
func dirent(ino uint64, typ byte, name string, pad int) []byte {
	n := (19 + len(name) + 1 + 7) &^ 7
	n += pad
	rec := make([]byte, n)
	binary.NativeEndian.PutUint64(rec, ino)
	binary.NativeEndian.PutUint64(rec[8:], 1)
	binary.NativeEndian.PutUint16(rec[16:], uint16(n))
	rec[18] = typ
	copy(rec[19:], name)
	return rec
}

// TestEachDirent_TypesTheRecordsDoNotGive reads records as a file system
// that gives no types (DT_UNKNOWN, as some do) writes them: each entry is
// lstat'ed through the folder's descriptor, so a link is a link (never
// what it points to), a FIFO a FIFO; an entry gone since it was listed is
// left out; ".", ".." and inode 0 are skipped, as os.ReadDir skips them;
// a record whose length does not fit is an error, not a read past it.
func TestEachDirent_TypesTheRecordsDoNotGive(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "step-000001"), []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("step-000001", filepath.Join(dir, "link")); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo"), 0o644); err != nil {
		t.Fatal(err)
	}
	fd, err := syscall.Open(dir, syscall.O_RDONLY|syscall.O_DIRECTORY|syscall.O_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer syscall.Close(fd)

	var recs []byte
	for _, r := range [][]byte{
		dirent(1, syscall.DT_UNKNOWN, ".", 0),
		dirent(2, syscall.DT_UNKNOWN, "..", 0),
		dirent(3, syscall.DT_UNKNOWN, "step-000001", 16), // NULs past the name's
		dirent(4, syscall.DT_UNKNOWN, "sub", 0),
		dirent(5, syscall.DT_UNKNOWN, "link", 0),
		dirent(6, syscall.DT_UNKNOWN, "fifo", 0),
		dirent(7, syscall.DT_UNKNOWN, "gone", 0),   // removed since it was listed
		dirent(0, syscall.DT_REG, "deleted", 0),    // inode 0: a deleted entry
		dirent(8, syscall.DT_REG, "typed", 0),      // a type given is taken as is
		dirent(9, syscall.DT_LNK, "typed-link", 0), // likewise, never followed
	} {
		recs = append(recs, r...)
	}
	type ent struct {
		name string
		typ  fs.FileMode
	}
	var got []ent
	if err := eachDirent(fd, dir, recs, func(name []byte, typ fs.FileMode) { got = append(got, ent{string(name), typ}) }); err != nil {
		t.Fatal(err)
	}
	want := []ent{
		{"step-000001", 0},
		{"sub", fs.ModeDir},
		{"link", fs.ModeSymlink},
		{"fifo", fs.ModeNamedPipe},
		{"typed", 0},
		{"typed-link", fs.ModeSymlink},
	}
	if !slices.Equal(got, want) {
		t.Fatalf("eachDirent = %v, want %v", got, want)
	}
	for _, e := range want[:4] {
		st, err := os.Lstat(filepath.Join(dir, e.name))
		if err != nil || st.Mode().Type() != e.typ {
			t.Errorf("%s: os.Lstat says %v (%v), eachDirent %v", e.name, st.Mode().Type(), err, e.typ)
		}
	}

	for _, tc := range []struct {
		name string
		recs []byte
	}{
		{"length past the records", dirent(3, syscall.DT_REG, "step-000001", 0)[:24]},
		{"length under a record's head", func() []byte {
			r := dirent(3, syscall.DT_REG, "x", 0)
			binary.NativeEndian.PutUint16(r[16:], 18)
			return r
		}()},
	} {
		called := false
		err := eachDirent(fd, dir, tc.recs, func([]byte, fs.FileMode) { called = true })
		var pe *fs.PathError
		if !errors.As(err, &pe) || !errors.Is(err, syscall.EIO) || called {
			t.Errorf("%s: err %v, called %v; want an EIO PathError before any entry", tc.name, err, called)
		}
	}
}
