package store

import (
	"errors"
	"fmt"
	"hash/maphash"
	"io"
	"io/fs"
	"os"
	"time"

	"github.com/crmem/crmem/internal/hugepage"
	"github.com/crmem/crmem/internal/safefile"
)

// Fingerprint identifies one version of the file: size, mtime and a hash of
// the content (mtime alone is too coarse: two writes can share a tick). The
// zero value, Exists false, is a missing file.
type Fingerprint struct {
	Exists  bool
	Size    int64
	ModTime time.Time
	// Hash is a 64-bit maphash of the content, seeded once per process:
	// it is comparable within one process only, and runs at memory speed.
	Hash uint64
}

// Equal reports whether two fingerprints describe the same file version.
func (f Fingerprint) Equal(g Fingerprint) bool {
	return f.Exists == g.Exists && f.Size == g.Size && f.ModTime.Equal(g.ModTime) && f.Hash == g.Hash
}

// hashSeed is set once at start-up and never changes.
var hashSeed = maphash.MakeSeed()

func hashBytes(data []byte) uint64 { return maphash.Bytes(hashSeed, data) }

// readState reads the file at path with its fingerprint. A missing file is
// not an error: it returns no data and a fingerprint with Exists false.
func readState(path string) ([]byte, Fingerprint, error) {
	data, fp, err := readStateUnhashed(path)
	if err == nil && fp.Exists {
		fp.Hash = hashBytes(data)
	}
	return data, fp, err
}

// readStateUnhashed is readState leaving the fingerprint's Hash unset.
func readStateUnhashed(path string) ([]byte, Fingerprint, error) {
	f, _, err := OpenRegular(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, Fingerprint{}, nil
	}
	if err != nil {
		return nil, Fingerprint{}, err
	}
	defer f.Close()
	return readOpenUnhashed(f)
}

// readRegular is readOpen for a file that was opened without the checks of
// OpenRegular: anything but a regular file fails with ErrNotRegular.
func readRegular(f *os.File) ([]byte, Fingerprint, error) {
	fi, err := f.Stat()
	if err != nil {
		return nil, Fingerprint{}, err
	}
	if !fi.Mode().IsRegular() {
		return nil, Fingerprint{}, &fs.PathError{Op: "read", Path: f.Name(), Err: ErrNotRegular}
	}
	return readOpen(f)
}

// readOpen reads an open file from its start with its fingerprint.
func readOpen(f *os.File) ([]byte, Fingerprint, error) {
	data, fp, err := readOpenUnhashed(f)
	if err != nil {
		return nil, Fingerprint{}, err
	}
	fp.Hash = hashBytes(data)
	return data, fp, nil
}

// readOpenUnhashed is readOpen leaving the fingerprint's Hash unset.
func readOpenUnhashed(f *os.File) ([]byte, Fingerprint, error) {
	// Stat before reading: a write during the read changes the mtime, so
	// the next comparison sees a new version rather than missing one.
	fi, err := f.Stat()
	if err != nil {
		return nil, Fingerprint{}, err
	}
	data, err := readAll(f, fi.Size())
	if err != nil {
		return nil, Fingerprint{}, fmt.Errorf("read %s: %w", f.Name(), err)
	}
	return data, Fingerprint{Exists: true, Size: int64(len(data)), ModTime: fi.ModTime()}, nil
}

// EntryReadMax caps the text of one entry read from a file or stream
// crmem did not write: `add NAME -`'s standard input, a page of a load
// tree, the file $EDITOR saved. 64 MiB is 50 times the largest entry of
// the 100k-entry corpus and far past what a recall should hand an agent;
// it keeps /dev/zero or a runaway pipe from growing until memory runs out.
const EntryReadMax = 64 << 20

// OpenRegular opens path for reading if it is a regular file, and returns
// its stat. Anything else (a folder, FIFO, socket or device) fails at once
// with ErrNotRegular, before a byte is read: it is safefile.Open without a
// cap (stat'ed first, opening never blocks, the check repeated on the
// opened fd, so what is read is what was checked). Every reader of a
// memory file or a crabtalk store opens it this way.
func OpenRegular(path string) (*os.File, fs.FileInfo, error) {
	return safefile.Open(path, safefile.Options{})
}

// ReadFile reads the memory file at path as every crmem read does: only a
// regular file is read (ErrNotRegular otherwise, at once). A missing file
// fails with an error matching fs.ErrNotExist.
func ReadFile(path string) ([]byte, error) {
	data, _, err := ReadFileInfo(path)
	return data, err
}

// ReadFileInfo is ReadFile that also returns the stat of the file it read
// (taken before reading, so a write meanwhile shows as a newer version).
// crabtalk's store is read through it too.
func ReadFileInfo(path string) ([]byte, fs.FileInfo, error) {
	f, fi, err := OpenRegular(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	data, err := readAll(f, fi.Size())
	if err != nil {
		return nil, nil, &fs.PathError{Op: "read", Path: path, Err: err}
	}
	return data, fi, nil
}

// fingerprintOf computes the fingerprint of the file at path by streaming
// it through the hash, without holding its content: the common "unchanged"
// check before a save or on a watcher event allocates nothing big.
func fingerprintOf(path string) (Fingerprint, error) {
	f, fi, err := OpenRegular(path)
	if errors.Is(err, fs.ErrNotExist) {
		return Fingerprint{}, nil
	}
	if err != nil {
		return Fingerprint{}, err
	}
	defer f.Close()
	var h maphash.Hash
	h.SetSeed(hashSeed)
	n, err := io.CopyBuffer(&h, f, make([]byte, 256<<10))
	if err != nil {
		return Fingerprint{}, &fs.PathError{Op: "read", Path: path, Err: err}
	}
	return Fingerprint{Exists: true, Size: n, ModTime: fi.ModTime(), Hash: h.Sum64()}, nil
}

// readIfChanged returns the file's content and fingerprint, or changed
// false (and no content) when its fingerprint still equals known.
func readIfChanged(path string, known Fingerprint) (data []byte, fp Fingerprint, changed bool, err error) {
	if sameStat(path, known) { // only then is hashing needed to tell
		fp, err = fingerprintOf(path)
		if err != nil || fp.Equal(known) {
			return nil, fp, false, err
		}
	}
	data, fp, err = readState(path)
	if err != nil || fp.Equal(known) {
		return nil, fp, false, err
	}
	return data, fp, true, nil
}

// readIfChangedUnhashed is readIfChanged for a reader that hashes the
// content on its own way through it (a v1 reload by difference, while
// each entry is in cache, rather than one more pass over 60 MB): when the
// file's size or mtime already differ from known, it is read and its
// fingerprint's Hash left unset (hashed false) for the caller to set;
// otherwise it is readIfChanged.
func readIfChangedUnhashed(path string, known Fingerprint) (data []byte, fp Fingerprint, changed, hashed bool, err error) {
	if sameStat(path, known) {
		data, fp, changed, err = readIfChanged(path, known)
		return data, fp, changed, true, err
	}
	f, _, err := OpenRegular(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, Fingerprint{}, !known.Equal(Fingerprint{}), true, nil
	}
	if err != nil {
		return nil, Fingerprint{}, false, true, err
	}
	defer f.Close()
	data, fp, err = readOpenUnhashed(f)
	if err != nil {
		return nil, Fingerprint{}, false, true, err
	}
	return data, fp, true, false, nil
}

// sameStat reports whether the file's existence, size and mtime match known.
func sameStat(path string, known Fingerprint) bool {
	fi, err := os.Stat(path)
	if err != nil {
		return !known.Exists && errors.Is(err, fs.ErrNotExist)
	}
	return known.Exists && fi.Size() == known.Size && fi.ModTime().Equal(known.ModTime)
}

// readAll reads r to its end into one buffer of the expected size, growing
// only if the file grew meanwhile. A large file (r at its start) is read on
// every core first (readParallel), then on from there. The buffer asks for
// huge pages (package hugepage): a 60 MB memory otherwise faults in as
// ~15k small pages, a third of a one-shot search's time, against a few
// dozen.
func readAll(r io.Reader, size int64) ([]byte, error) {
	buf := hugepage.Bytes(int(size) + 1) // +1 so reaching EOF needs no regrowth
	if f, ok := r.(*os.File); ok && size >= parallelReadMin {
		full, err := readParallel(f, buf[:size])
		if err != nil {
			return nil, err
		}
		if full { // go on after it, in case the file grew
			buf = buf[:size]
		}
		if _, err := f.Seek(int64(len(buf)), io.SeekStart); err != nil {
			return nil, err
		}
	}
	for {
		n, err := r.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return nil, err
		}
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
	}
}
