package store

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/crmem/crmem/internal/safefile"
)

// swapResult says what one attempt to publish our version found.
type swapResult struct {
	// placed reports that our version was made visible at the target, if
	// only for the microseconds before a foreign version was put back:
	// another writer may have read it.
	placed bool
	// current is the fingerprint of the version now at the target.
	current Fingerprint
	// foreign, when merge is set, is the version now at the target that
	// nobody told us about (nil with foreignFP.Exists false: the file was
	// deleted). Our ops must be applied again on top of it.
	merge     bool
	foreign   []byte
	foreignFP Fingerprint
	// lost is a version that replaced ours in the instant before the put
	// back and that the put back took off the target again: its changes
	// (compared with ours) must be carried into the next round.
	lost []byte
}

// swapIn puts data at target if target still is the version expected:
// write a temp file, then exchange it with the target (or rename when the
// target does not exist, or when exchange is unsupported). A foreign
// version met on the way is left (or put back) at the target.
func (db *DB) swapIn(target string, data []byte, expected Fingerprint) (swapResult, error) {
	tmp, ours, err := tempFile{data: data, meta: metaOf(target), noSync: db.noSync, failWrite: db.failWrite}.write(target)
	if err != nil {
		return swapResult{}, err
	}
	defer os.Remove(tmp) // the temp path holds our file or a displaced one: never keep it
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
	if (res.placed || res.merge) && !db.noSync {
		if err := syncDir(filepath.Dir(target)); err != nil {
			return swapResult{}, err
		}
	}
	return res, nil
}

// place moves the temp file to the target by the safest means available.
func (db *DB) place(tmp, target string, ours, expected Fingerprint) (swapResult, error) {
	if db.noRenameat {
		return checkThenRename(tmp, target, ours, expected)
	}
	if !expected.Exists {
		err := renameNoReplace(tmp, target)
		switch {
		case err == nil:
			return swapResult{current: ours, placed: true}, nil
		case errors.Is(err, fs.ErrExist):
			return foreignAt(target) // created meanwhile: merge with it
		case !unsupported(err):
			return swapResult{}, &fs.PathError{Op: "rename", Path: target, Err: err}
		}
		return checkThenRename(tmp, target, ours, expected)
	}
	if !sameStat(target, expected) {
		// Someone wrote since our check: merge with it before anything of
		// ours becomes visible (one stat; the exchange below still catches
		// a writer that comes after it).
		if data, fp, changed, err := readIfChanged(target, expected); err != nil || changed {
			return swapResult{current: fp, merge: true, foreign: data, foreignFP: fp}, err
		}
	}
	if db.beforeExchange != nil {
		db.beforeExchange()
	}
	err := exchange(tmp, target)
	switch {
	case err == nil:
		return db.displaced(tmp, target, ours, expected)
	case errors.Is(err, fs.ErrNotExist) || unsupported(err):
		return checkThenRename(tmp, target, ours, expected)
	}
	return swapResult{}, fmt.Errorf("exchange %s: %w", target, err)
}

// displaced checks the file an exchange moved to the temp path. If it is
// not the version our state came from, someone wrote in between: their
// version goes back at once with a second exchange — held open first, and
// read only once it is back, so ours is visible for the time of a stat, an
// open and a rename, not for a whole merge round — and whatever the second
// exchange takes off the target is checked too.
func (db *DB) displaced(tmp, target string, ours, expected Fingerprint) (swapResult, error) {
	if sameStat(tmp, expected) { // only then can it be ours to replace
		fp, err := fingerprintOf(tmp)
		if err == nil && fp.Equal(expected) {
			return swapResult{current: ours, placed: true}, nil
		}
	}
	f, _, openErr := safefile.Open(tmp, safefile.Options{}) // whatever it is, opening it must not hang
	if db.betweenSwaps != nil {
		db.betweenSwaps()
	}
	err := exchange(tmp, target)
	if err != nil { // e.g. ours was removed meanwhile: theirs goes back all the same
		err = os.Rename(tmp, target)
	}
	if err != nil {
		if openErr == nil {
			f.Close()
		}
		return swapResult{}, fmt.Errorf("put back the other writer's version of %s: %w", target, err)
	}
	if openErr != nil {
		return swapResult{}, fmt.Errorf("read the other writer's version of %s: %w", target, openErr)
	}
	theirs, fp, err := readRegular(f)
	f.Close()
	if err != nil {
		return swapResult{}, fmt.Errorf("read the other writer's version of %s: %w", target, err)
	}
	res := swapResult{placed: true, merge: true, current: fp, foreign: theirs, foreignFP: fp}
	// tmp now holds what was at the target: ours, unless a writer replaced
	// ours in the instant between the exchanges.
	if lost, _, changed, err := readIfChanged(tmp, ours); err == nil && changed && lost != nil {
		res.lost = lost
	}
	return res, nil
}

// foreignAt reports the target's current version as one to merge with.
func foreignAt(target string) (swapResult, error) {
	data, fp, err := readState(target)
	if err != nil {
		return swapResult{}, err
	}
	return swapResult{current: fp, merge: true, foreign: data, foreignFP: fp}, nil
}

// checkThenRename is the fallback without renameat2: check once more, then
// rename over the target. What it can still lose: a writer that replaces
// the file between that last check and the rename (a window of one stat,
// read and rename) is overwritten, and nothing tells us it ever existed.
func checkThenRename(tmp, target string, ours, expected Fingerprint) (swapResult, error) {
	data, fp, changed, err := readIfChanged(target, expected)
	if err != nil {
		return swapResult{}, err
	}
	if changed {
		return swapResult{current: fp, merge: true, foreign: data, foreignFP: fp}, nil
	}
	if err := os.Rename(tmp, target); err != nil {
		return swapResult{}, &fs.PathError{Op: "rename", Path: target, Err: err}
	}
	return swapResult{current: ours, placed: true}, nil
}
