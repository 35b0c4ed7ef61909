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

// maxLinks bounds symlink resolution, as the kernel does.
const maxLinks = 40

// resolveLink follows symlinks to the file a save must replace, so the link
// itself stays in place. A missing final target is returned as is (the save
// creates it).
func resolveLink(path string) (string, error) {
	for range maxLinks {
		fi, err := os.Lstat(path)
		if errors.Is(err, fs.ErrNotExist) {
			return path, nil
		}
		if err != nil {
			return "", err
		}
		if fi.Mode()&fs.ModeSymlink == 0 {
			return path, nil
		}
		link, err := os.Readlink(path)
		if err != nil {
			return "", err
		}
		if !filepath.IsAbs(link) {
			link = filepath.Join(filepath.Dir(path), link)
		}
		path = link
	}
	return "", fmt.Errorf("%s: too many levels of symbolic links", path)
}

// tempPrefix and tempSuffix frame crmem's temp files: ".<name>.crmem-<hex>.tmp".
// crabtalk writes "<name>.tmp", which this never matches.
func tempPrefix(target string) string { return "." + filepath.Base(target) + ".crmem-" }

const tempSuffix = ".tmp"

// lockPath is the sidecar file crmem writers flock.
func lockPath(target string) string {
	return filepath.Join(filepath.Dir(target), "."+filepath.Base(target)+".crmem.lock")
}

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

// writeTemp writes data to a new, uniquely named temp file beside target,
// with the given permission bits, synced unless noSync. It returns the temp
// path and the fingerprint the data will have once renamed (rename keeps
// the mtime). On failure nothing is left behind.
func writeTemp(target string, data []byte, perm fs.FileMode, noSync bool) (path string, fp Fingerprint, err error) {
	var rnd [8]byte
	rand.Read(rnd[:])
	path = filepath.Join(filepath.Dir(target), tempPrefix(target)+hex.EncodeToString(rnd[:])+tempSuffix)
	// O_EXCL: the name is ours alone; 0600 until chmod: memory is private.
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return "", Fingerprint{}, fmt.Errorf("create temp file: %w", err)
	}
	done := false
	defer func() { // remove the temp file on every failure path
		if !done {
			f.Close()
			os.Remove(path)
		}
	}()
	if _, err := f.Write(data); err != nil {
		return "", Fingerprint{}, fmt.Errorf("write %s: %w", path, err)
	}
	if perm != 0o600 {
		// Keep the existing file's bits; chmod is exact where create obeys umask.
		if err := f.Chmod(perm); err != nil {
			return "", Fingerprint{}, fmt.Errorf("chmod %s: %w", path, err)
		}
	}
	if !noSync {
		// The data must be on disk before the rename makes it the memory
		// file, or a crash could leave the new name on empty blocks.
		if err := f.Sync(); err != nil {
			return "", Fingerprint{}, fmt.Errorf("sync %s: %w", path, err)
		}
	}
	fi, err := f.Stat()
	if err != nil {
		return "", Fingerprint{}, err
	}
	if err := f.Close(); err != nil {
		return "", Fingerprint{}, fmt.Errorf("close %s: %w", path, err)
	}
	done = true
	return path, Fingerprint{Exists: true, Size: int64(len(data)), ModTime: fi.ModTime(), Hash: hashBytes(data)}, nil
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

// filePerm returns the permission bits a save must keep: the existing
// file's, or 0600 for a new file (memory is private).
func filePerm(target string) fs.FileMode {
	if fi, err := os.Stat(target); err == nil {
		return fi.Mode().Perm()
	}
	return 0o600
}

// swapResult says what a save found at the target.
type swapResult struct {
	current Fingerprint // the version now at the target
	// foreign, when not nil, is a version nobody told us about, met while
	// swapping in (a writer slipped in after our check): it must be merged.
	foreign   []byte
	foreignFP Fingerprint
	// placed reports whether our data is now at the target.
	placed bool
}

// swapIn puts data at target if target still is the version expected:
// write a temp file, then exchange it with the target (or rename when the
// target does not exist, or when exchange is unsupported).
func (db *DB) swapIn(target string, data []byte, expected Fingerprint) (swapResult, error) {
	tmp, ours, err := writeTemp(target, data, filePerm(target), db.noSync)
	if err != nil {
		return swapResult{}, err
	}
	defer os.Remove(tmp) // the temp path holds our file or the displaced one: never keep it
	if db.beforeSwap != nil {
		db.beforeSwap()
	}
	if db.swapErr != nil {
		return swapResult{}, db.swapErr
	}
	res, err := db.place(tmp, target, ours, expected)
	if err != nil {
		return swapResult{}, err
	}
	if res.placed && !db.noSync {
		if err := syncDir(filepath.Dir(target)); err != nil {
			return swapResult{}, err
		}
	}
	return res, nil
}

// place moves the temp file to the target by the safest means available.
func (db *DB) place(tmp, target string, ours, expected Fingerprint) (swapResult, error) {
	if db.noRenameat {
		return db.checkThenRename(tmp, target, ours, expected)
	}
	if !expected.Exists {
		err := renameNoReplace(tmp, target)
		switch {
		case err == nil:
			return swapResult{current: ours, placed: true}, nil
		case errors.Is(err, fs.ErrExist):
			return foreignAt(target) // created meanwhile: merge with it
		case !unsupported(err):
			return swapResult{}, fmt.Errorf("rename %s: %w", target, err)
		}
		return db.checkThenRename(tmp, target, ours, expected)
	}
	err := exchange(tmp, target)
	switch {
	case err == nil:
		return displaced(tmp, ours, expected)
	case errors.Is(err, fs.ErrNotExist) || unsupported(err):
		return db.checkThenRename(tmp, target, ours, expected)
	}
	return swapResult{}, fmt.Errorf("exchange %s: %w", target, err)
}

// displaced checks the file an exchange moved to the temp path: if it is
// not the version our state came from, someone wrote in between.
func displaced(tmp string, ours, expected Fingerprint) (swapResult, error) {
	old, fp, changed, err := readIfChanged(tmp, expected)
	if err != nil {
		return swapResult{}, err
	}
	res := swapResult{current: ours, placed: true}
	if changed {
		res.foreign, res.foreignFP = old, fp
	}
	return res, nil
}

// foreignAt reports the target's current version as one to merge with.
func foreignAt(target string) (swapResult, error) {
	data, fp, err := readState(target)
	if err != nil {
		return swapResult{}, err
	}
	return swapResult{current: fp, foreign: data, foreignFP: fp}, nil
}

// checkThenRename is the fallback without renameat2: check once more, then
// rename over the target (a writer in the last instant can still be lost).
func (db *DB) checkThenRename(tmp, target string, ours, expected Fingerprint) (swapResult, error) {
	data, fp, changed, err := readIfChanged(target, expected)
	if err != nil {
		return swapResult{}, err
	}
	if changed {
		return swapResult{current: fp, foreign: data, foreignFP: fp}, nil
	}
	if err := os.Rename(tmp, target); err != nil {
		return swapResult{}, fmt.Errorf("rename %s: %w", target, err)
	}
	return swapResult{current: ours, placed: true}, nil
}
