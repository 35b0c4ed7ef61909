package store

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// tempPrefix and tempSuffix frame crmem's temp files: ".<name>.crmem-<hex>.tmp".
// crabtalk writes "<name>.tmp", which this never matches.
func tempPrefix(target string) string { return "." + filepath.Base(target) + ".crmem-" }

const tempSuffix = ".tmp"

// removeTemps deletes temp files left by crmem writers that died mid-save.
// The caller holds the lock, so no live crmem writer owns one.
func removeTemps(target string) {
	dir, prefix := filepath.Dir(target), tempPrefix(target)
	names, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, de := range names {
		if n := de.Name(); strings.HasPrefix(n, prefix) && strings.HasSuffix(n, tempSuffix) {
			os.Remove(filepath.Join(dir, n))
		}
	}
}

// fileMeta is what a rewrite keeps of the file it replaces.
type fileMeta struct {
	perm     fs.FileMode
	uid, gid int // -1: leave as created
}

// metaOf returns the permission bits (0600 for a new file: memory is
// private) and, when this process runs as root and the file belongs to
// someone else, the owner and group the new file must keep.
func metaOf(target string) fileMeta {
	fi, err := os.Stat(target)
	if err != nil {
		return fileMeta{perm: 0o600, uid: -1, gid: -1}
	}
	uid, gid := ownerOf(fi)
	return fileMeta{perm: fi.Mode().Perm(), uid: uid, gid: gid}
}

// tempFile is a temp file being written; write fails with failWrite when
// set (a test hook standing in for a full disk).
type tempFile struct {
	data      []byte
	meta      fileMeta
	noSync    bool
	failWrite error
}

// write writes the data to a new, uniquely named temp file beside target,
// synced unless noSync. It returns the temp path and the fingerprint the
// data will have once renamed (rename keeps the mtime). On failure nothing
// is left behind.
func (t tempFile) write(target string) (string, Fingerprint, error) {
	var rnd [8]byte
	rand.Read(rnd[:])
	// name, not a named result: the cleanup below must see it even after a
	// failing return has reset the results.
	name := filepath.Join(filepath.Dir(target), tempPrefix(target)+hex.EncodeToString(rnd[:])+tempSuffix)
	// O_EXCL: the name is ours alone; 0600 until chmod: memory is private.
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return "", Fingerprint{}, tempErr("create", err)
	}
	done := false
	defer func() { // remove the temp file on every failure path
		if !done {
			f.Close()
			os.Remove(name)
		}
	}()
	if err := t.fill(f, name); err != nil {
		return "", Fingerprint{}, err
	}
	fi, err := f.Stat()
	if err != nil {
		return "", Fingerprint{}, tempErr("stat", err)
	}
	if err := f.Close(); err != nil {
		return "", Fingerprint{}, tempErr("close", err)
	}
	done = true
	return name, Fingerprint{Exists: true, Size: int64(len(t.data)), ModTime: fi.ModTime(), Hash: hashBytes(t.data)}, nil
}

// fill writes the data, owner and mode, and syncs.
func (t tempFile) fill(f *os.File, name string) error {
	data := t.data
	if t.failWrite != nil {
		data = data[:len(data)/2] // a disk that fills up half way
	}
	if _, err := f.Write(data); err != nil {
		return tempErr("write", err)
	}
	if t.failWrite != nil {
		return tempErr("write", &fs.PathError{Op: "write", Path: name, Err: t.failWrite})
	}
	if t.meta.uid >= 0 {
		// Root rewriting a user's memory: the user must still own it.
		if err := f.Chown(t.meta.uid, t.meta.gid); err != nil {
			return tempErr("chown", err)
		}
	}
	if t.meta.perm != 0o600 {
		// Keep the existing file's bits; chmod is exact where create obeys
		// umask. After chown, which may clear setuid/setgid bits.
		if err := f.Chmod(t.meta.perm); err != nil {
			return tempErr("chmod", err)
		}
	}
	if !t.noSync {
		// The data must be on disk before the rename makes it the memory
		// file, or a crash could leave the new name on empty blocks.
		if err := f.Sync(); err != nil {
			return tempErr("sync", err)
		}
	}
	return nil
}

// tempErr is a failure to write the new version of a file: the temp
// file's name means nothing to the user, and whoever reports the error
// names the file itself, so neither path is repeated in the message. The
// file is unchanged: every such failure comes before the rename.
func tempErr(op string, err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return fmt.Errorf("%s its new version: %w (the file is unchanged)", op, err)
}

// syncDir makes a rename in dir durable: without it a crash can forget the
// rename even though the data blocks were synced.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := d.Sync(); err != nil && !errors.Is(err, fs.ErrInvalid) {
		return fmt.Errorf("sync directory %s: %w", dir, err)
	}
	return nil
}
