package crabdb

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/crmem/crmem/store"
)

// ErrChanged is why an append is refused when the file is not as it was
// read (another writer appended or compacted meanwhile): the caller reads
// it again and applies its ops to what it finds.
var ErrChanged = errors.New("crabdb: the store changed since it was read")

// Writable says why the store as read must not be appended to (nil: it
// may be). crmem appends only where crabtalk's reader would read every
// record: never after a torn tail, nor to a store whose snapshot did not
// check out whole (Source.Writable also refuses a store with entries crmem
// cannot read).
func (f *File) Writable() error {
	s := f.store
	// A torn tail noted as crmem's own interrupted append is not a
	// refusal: the next write rolls it back first (Recover).
	noted := s.size != s.end && intentWarning(f.path) != ""
	if s.size != s.end && !noted {
		return fmt.Errorf("%s has a torn record at offset %d (%d bytes): crabtalk's reader stops there and would never see a record written after it; not written. Let crabtalk repair it (its daemon writes over a torn record when it next writes; `crmem check` shows it)",
			filepath.Base(f.path), s.end, s.size-s.end)
	}
	for _, w := range s.warns {
		if noted && strings.HasPrefix(w, tornWarning) {
			continue
		}
		return fmt.Errorf("not written: %s", w)
	}
	if _, _, err := s.Stats(); err != nil {
		return fmt.Errorf("not written: %w", err)
	}
	return nil
}

// intent is the note crmem keeps beside a store while it appends: where
// the append starts, how long it is, a hash of its bytes and the header
// the file had. It is written and synced before the append and removed
// once the append is synced, so a note found later is an append that may
// have been cut short.
type intent struct {
	Offset int64  `json:"offset"`
	Length int64  `json:"length"`
	SHA256 string `json:"sha256"`
	Header string `json:"header"` // hex of the 32-byte header
}

// IntentPath is where crmem notes an append in progress to the store at
// path: a hidden file beside it.
func IntentPath(path string) string {
	return filepath.Join(filepath.Dir(path), "."+filepath.Base(path)+".crmem-append")
}

// intentWarning says that a note of an append cut short lies beside the
// store ("" when none does).
func intentWarning(path string) string {
	n, err := readIntent(path)
	if err != nil || n == nil {
		return ""
	}
	return fmt.Sprintf("a crmem write to this store was cut short (%d bytes from offset %d); the next crmem write checks it and rolls it back if it is incomplete", n.Length, n.Offset)
}

// readIntent reads the note beside path (nil when there is none).
func readIntent(path string) (*intent, error) {
	data, err := os.ReadFile(IntentPath(path))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var n intent
	if err := json.Unmarshal(data, &n); err != nil || n.Offset < HeaderLen || n.Length <= 0 {
		return &intent{Offset: -1}, nil // unreadable: a note cut short before the append began
	}
	return &n, nil
}

// writeIntent writes the note and syncs it and its folder.
func writeIntent(path string, n intent) error {
	data, _ := json.Marshal(n)
	name := IntentPath(path)
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return fmt.Errorf("note the append: %w", err)
	}
	_, err = f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(name)
		return fmt.Errorf("note the append: %w", err)
	}
	return syncDir(filepath.Dir(path))
}

// syncDir makes the creation or removal of a file in dir durable.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := d.Sync(); err != nil && !errors.Is(err, fs.ErrInvalid) && !errors.Is(err, fs.ErrPermission) {
		return fmt.Errorf("sync %s: %w", dir, err)
	}
	return nil
}

// Recover finishes what an append of crmem's that was cut short (the
// process killed, the machine down) left: when its note lies beside the
// store and the file holds more than it did before that append but not the
// whole append, and the append's first 6 bytes are still the zeros Append
// leaves until the rest is written (nobody wrote there since), the bytes
// from the append's offset on are crmem's own half-written tail and are cut
// off (the only truncation crmem ever does); a whole append, or bytes
// another writer put there, are kept. The note is removed either way. The caller holds
// crmem's lock of the folder. rolledBack says whether bytes were cut.
func Recover(path string) (rolledBack bool, err error) {
	n, err := readIntent(path)
	if err != nil || n == nil {
		return false, err
	}
	done := func() error {
		if err := os.Remove(IntentPath(path)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		return syncDir(filepath.Dir(path))
	}
	if n.Offset < 0 {
		return false, done()
	}
	fh, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return false, err
	}
	defer fh.Close()
	fi, err := fh.Stat()
	if err != nil {
		return false, err
	}
	head := make([]byte, HeaderLen)
	if _, err := io.ReadFull(fh, head); err != nil || hex.EncodeToString(head) != n.Header || fi.Size() <= n.Offset {
		// Another header (crabtalk compacted since), or nothing was
		// appended: the note is stale.
		return false, done()
	}
	if fi.Size() >= n.Offset+n.Length {
		got := make([]byte, n.Length)
		if _, err := fh.ReadAt(got, n.Offset); err == nil {
			sum := sha256.Sum256(got)
			if hex.EncodeToString(sum[:]) == n.SHA256 {
				return false, done() // the append is whole
			}
		}
	}
	// Ours to cut only while the first record's head is still the zeros
	// Append leaves until the body is whole: any writer that came since
	// (crabtalk writes at the end of what it reads, our head's offset)
	// wrote a record head there, whose key length is never zero.
	head = make([]byte, recordHead)
	if _, err := fh.ReadAt(head, n.Offset); err != nil || !bytes.Equal(head, make([]byte, recordHead)) {
		return false, done()
	}
	if err := fh.Truncate(n.Offset); err != nil {
		return false, fmt.Errorf("roll back crmem's unfinished append to %s: %w", path, err)
	}
	if err := fh.Sync(); err != nil {
		return false, fmt.Errorf("roll back crmem's unfinished append to %s: %w", path, err)
	}
	return true, done()
}

// appendHooks are test hooks of Append.
type appendHooks struct {
	// split, when set, writes the records in pieces of this many bytes
	// with a pause between (a kill test lands inside the append).
	split int
	pause time.Duration
}

// Append appends the batch's records to the store, syncs them and reads
// them back: they must decode to exactly what was meant, and the store as
// read is then the store with them. The file must be as it was read (same
// file, header and size; else ErrChanged) and Writable. The caller holds
// crmem's lock of the folder and has made sure crabtalk's daemon is not
// running.
//
// The records become visible all at once. They are written in two
// writes: first everything but the first record's 6-byte head (op, column,
// key length), which leaves a hole of zeros there, then, once that is
// synced, the head. Until the head lands, a reader (crabtalk's too) takes
// the zeros for a Put with an empty key whose value length is the first
// four bytes of the real key ("loca", 1.6 GB): a record cut short, a torn
// tail it ignores with everything after it, so it reads the old state;
// after, the new. A single write can be cut short at any page by a kill
// or a crash, and every whole record before the cut would be read: half
// an operation (an entry without its index, say).
//
// A note beside the store (IntentPath) lives for the time of the append,
// so that a crash inside it is rolled back by the next Recover; an append
// that fails is rolled back at once.
func (f *File) Append(b *Batch) error {
	if b.Len() == 0 {
		return nil
	}
	if err := f.Writable(); err != nil {
		return err
	}
	if f.store.size != f.store.end {
		// Noted as crmem's own (Writable lets it pass): Recover first.
		return fmt.Errorf("not written: %s", intentWarning(f.path))
	}
	data := b.Bytes()
	if !headlessIsTorn(data) {
		// Only a batch as large as its first key's first four bytes read
		// as a length ("loca": 1.6 GB) could be read half written.
		return fmt.Errorf("crabdb: not written: one write of %d bytes is more than crmem appends at once (%d bytes); write it in parts (an import: in several files)", len(data), maxAppend(data))
	}
	fh, err := os.OpenFile(f.path, os.O_WRONLY, 0)
	if err != nil {
		return fmt.Errorf("open for append: %w", err)
	}
	defer fh.Close()
	if err := f.unchanged(fh); err != nil {
		return err
	}
	off := f.store.end
	sum := sha256.Sum256(data)
	if err := writeIntent(f.path, intent{Offset: off, Length: int64(len(data)), SHA256: hex.EncodeToString(sum[:]), Header: hex.EncodeToString(f.head)}); err != nil {
		return err
	}
	if err := writeAt(fh, data[recordHead:], off+recordHead, f.hooks); err != nil {
		return f.rollBack(fh, off, fmt.Errorf("append to %s: %w", f.path, err))
	}
	if err := fh.Sync(); err != nil {
		return f.rollBack(fh, off, fmt.Errorf("sync %s: %w", f.path, err))
	}
	if _, err := fh.WriteAt(data[:recordHead], off); err != nil {
		return f.rollBack(fh, off, fmt.Errorf("append to %s: %w", f.path, err))
	}
	if err := fh.Sync(); err != nil {
		return f.rollBack(fh, off, fmt.Errorf("sync %s: %w", f.path, err))
	}
	back, fi, err := readBack(f.path, off, len(data))
	if err != nil {
		return err
	}
	if !bytes.Equal(back, data) {
		return fmt.Errorf("crabdb: %s: the %d bytes read back at offset %d are not the records written", f.path, len(data), off)
	}
	if err := f.store.Extend(back); err != nil || f.store.end != off+int64(len(data)) {
		return fmt.Errorf("crabdb: %s: the records appended at offset %d do not read back whole: %v", f.path, off, err)
	}
	f.info = fi
	f.appends++
	if err := os.Remove(IntentPath(f.path)); err != nil {
		return fmt.Errorf("remove %s: %w", IntentPath(f.path), err)
	}
	return nil
}

// headlessIsTorn reports whether data, with its first record's head
// zeroed (as the file holds it between Append's two writes), reads as a
// record cut short however much of the rest has been written: the zeroed
// head's value length comes from the key's first four bytes, written
// first, and must run past all of data.
func headlessIsTorn(data []byte) bool {
	if len(data) < recordHead+4 {
		return false
	}
	vlen := uint64(binary.LittleEndian.Uint32(data[recordHead : recordHead+4]))
	return vlen > uint64(len(data))
}

// maxAppend is the largest batch headlessIsTorn allows for data's first
// key.
func maxAppend(data []byte) uint64 {
	if len(data) < recordHead+4 {
		return 0
	}
	return uint64(binary.LittleEndian.Uint32(data[recordHead:recordHead+4])) - 1
}

// writeAt writes data at off in one write (in pieces under a test hook).
func writeAt(fh *os.File, data []byte, off int64, hk appendHooks) error {
	if hk.split <= 0 {
		_, err := fh.WriteAt(data, off)
		return err
	}
	for len(data) > 0 {
		n := min(hk.split, len(data))
		if _, err := fh.WriteAt(data[:n], off); err != nil {
			return err
		}
		data, off = data[n:], off+int64(n)
		time.Sleep(hk.pause)
	}
	return nil
}

// unchanged checks that the open file is the one read, with the header
// and size it had.
func (f *File) unchanged(fh *os.File) error {
	fi, err := fh.Stat()
	if err != nil {
		return err
	}
	if !os.SameFile(fi, f.info) || fi.Size() != f.store.size {
		return ErrChanged
	}
	head := make([]byte, HeaderLen)
	r, err := os.Open(f.path)
	if err != nil {
		return err
	}
	defer r.Close()
	if _, err := io.ReadFull(r, head); err != nil || !bytes.Equal(head, f.head) {
		return ErrChanged
	}
	return nil
}

// rollBack cuts off what a failed append wrote (crmem's own bytes, from
// off on) and removes the note.
func (f *File) rollBack(fh *os.File, off int64, cause error) error {
	if err := fh.Truncate(off); err != nil {
		return fmt.Errorf("%w; and rolling it back failed: %v (the next crmem write rolls it back)", cause, err)
	}
	fh.Sync()
	os.Remove(IntentPath(f.path))
	return cause
}

// readBack reads n bytes at off from the file at path, with its stat.
func readBack(path string, off int64, n int) ([]byte, os.FileInfo, error) {
	fh, fi, err := store.OpenRegular(path)
	if err != nil {
		return nil, nil, err
	}
	defer fh.Close()
	buf := make([]byte, n)
	if _, err := fh.ReadAt(buf, off); err != nil {
		return nil, nil, fmt.Errorf("read back %s: %w", path, err)
	}
	return buf, fi, nil
}
