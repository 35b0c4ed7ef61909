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
	"math"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/crmem/crmem/store"
)

// errChanged is why an append is refused when the file is not as it was
// read (another writer appended or compacted meanwhile): the caller reads
// it again and applies its ops to what it finds.
var errChanged = errors.New("crabdb: the store changed since it was read")

// Writable says why the store as read must not be appended to (nil: it
// may be). crmem appends only where crabtalk's reader would read every
// record: never after a torn tail, nor to a store whose snapshot did not
// check out whole (Source.Writable also refuses a store with entries crmem
// cannot read).
func (f *File) Writable() error {
	s := f.store
	// A torn tail noted as crmem's own interrupted append is not a
	// refusal: the next write rolls it back first (recoverAppend).
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
	// Scheme is how the append writes: schemeReserve (reserve, fill,
	// switch, trim), or "" for a note of crmem before it (the batch with
	// its first 6 bytes zeroed, then those 6 bytes).
	Scheme string `json:"scheme,omitempty"`
}

// schemeReserve is the note's Scheme of Append as it now writes.
const schemeReserve = "reserve"

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
	return fmt.Sprintf("a crmem write to this store was cut short (%d bytes from offset %d), or another crmem is writing it; the next crmem start repairs what is unfinished", n.Length, n.Offset)
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
	if err := json.Unmarshal(data, &n); err != nil || n.Offset < HeaderLen || n.Length <= 0 || n.Length > maxAppendBytes || n.Offset > math.MaxInt64/2 {
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

// Repair is what a note of crmem's unfinished append found beside a store
// stands for, and what recoverAppend does about it.
type Repair struct {
	Offset int64 // where the append started
	Length int64 // the batch's bytes
	// State is how far the append got: "noted" (nothing written),
	// "reserved", "filled", "switched", "trimmed" (whole; only the note
	// was left), "reserve cut short", "legacy" (the two-write append of
	// crmem before the reserve, its head still zeros), "crabtalk wrote at
	// its offset" (another writer wrote there since), "stale" (the header
	// changed: a compaction since).
	State string
	// After: another writer (crabtalk) appended after the reserve or its
	// tail, which then stay (harmless records).
	After bool
	// CutAt is the offset the file is cut to (-1: not cut); Size the size
	// it had.
	CutAt, Size int64
	// Inspected: only looked at (inspectAppend), nothing done yet.
	Inspected bool
	// Busy: another crmem held the folder's lock throughout (it may be
	// appending now, and the note be its own).
	Busy bool
	// Held says why bytes that are crmem's to cut were not cut at this
	// start (someone else has the store open for writing).
	Held string
}

// String is the line `crmem check` and a start print.
func (r Repair) String() string {
	if r.Offset < 0 {
		return "the note of a crmem write cut short before it began (nothing written to the store): removed"
	}
	s := fmt.Sprintf("crmem's unfinished append at offset %d (%d bytes): %s", r.Offset, r.Length, r.State)
	if r.Busy {
		s += " (another crmem holds the folder's lock: it may be writing now)"
	}
	switch {
	case r.Held != "" && r.CutAt >= 0:
		return s + fmt.Sprintf("; left as it is (%d bytes of crmem's own at offset %d, harmless to crabtalk's reader; cut by the next crmem start while nobody else writes the store): %s", r.Size-r.CutAt, r.CutAt, r.Held)
	case r.Inspected && r.CutAt >= 0:
		return s + fmt.Sprintf("; the next crmem start repairs it (%d bytes of crmem's own to cut at offset %d)", r.Size-r.CutAt, r.CutAt)
	case r.CutAt >= 0:
		return s + fmt.Sprintf("; repaired (%d bytes of crmem's own cut at offset %d)", r.Size-r.CutAt, r.CutAt)
	case r.After:
		return s + "; crabtalk has written after it; harmless"
	}
	return s + "; nothing to repair"
}

// recoverAppend finishes what an append of crmem's that was cut short (the
// process killed, the machine down) left, when its note lies beside the
// store, and removes the note: the only bytes it ever cuts are crmem's
// own, inside the append's room [offset, offset+length+10), and only when
// nobody wrote after them (assess says which). The caller holds crmem's
// lock of the folder. rolledBack says whether bytes were cut.
func recoverAppend(path string) (rolledBack bool, err error) {
	r, err := recoverReport(path)
	return r != nil && r.CutAt >= 0, err
}

// recoverReport is recoverAppend, saying what it found and did (nil: no note).
func recoverReport(path string) (*Repair, error) {
	n, err := readIntent(path)
	if err != nil || n == nil {
		return nil, err
	}
	done := func() error {
		if err := os.Remove(IntentPath(path)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		return syncDir(filepath.Dir(path))
	}
	if n.Offset < 0 {
		return &Repair{Offset: -1, State: "noted", CutAt: -1}, done()
	}
	fh, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	r, err := assessFile(fh, *n)
	if err != nil {
		return nil, err
	}
	if r.CutAt >= 0 {
		if err := fh.Truncate(r.CutAt); err != nil {
			return nil, fmt.Errorf("roll back crmem's unfinished append to %s: %w", path, err)
		}
		if err := fh.Sync(); err != nil {
			return nil, fmt.Errorf("roll back crmem's unfinished append to %s: %w", path, err)
		}
	}
	return &r, done()
}

// inspectAppend says what the note beside the store at path stands for,
// changing nothing (nil: no note).
func inspectAppend(path string) (*Repair, error) {
	n, err := readIntent(path)
	if err != nil || n == nil || n.Offset < 0 {
		return nil, err
	}
	fh, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	r, err := assessFile(fh, *n)
	r.Inspected = true
	return &r, err
}

// assessFile reads what assess needs of the open store: its header and
// its bytes from the note's offset, up to a little past the append's room.
func assessFile(fh *os.File, n intent) (Repair, error) {
	fi, err := fh.Stat()
	if err != nil {
		return Repair{}, err
	}
	head := make([]byte, HeaderLen)
	if _, err := fh.ReadAt(head, 0); err != nil && !errors.Is(err, io.EOF) {
		return Repair{}, err
	}
	var tail []byte
	if fi.Size() > n.Offset {
		tail = make([]byte, min(fi.Size()-n.Offset, int64(reserveLen(int(n.Length)))+1))
		if _, err := fh.ReadAt(tail, n.Offset); err != nil && !errors.Is(err, io.EOF) {
			return Repair{}, err
		}
	}
	return assess(n, head, tail, fi.Size()), nil
}

// assess works out the state of a noted append from the store's header,
// its size and tail, its bytes from the note's offset (at least up to a
// byte past the append's room, where the file has them):
//
//   - the batch whole at the offset: followed by nothing ("trimmed"), by
//     deleteTail alone ("switched": cut to the batch's end), or by another
//     writer's records ("After": left);
//   - the reserve record's head at the offset, the reserve whole
//     ("reserved" or "filled"): cut to the offset when nothing follows,
//     else left (the reserve is a harmless record crabtalk appended after);
//     cut short ("reserve cut short"): cut to the offset;
//   - the zeroed head of the old two-write append ("legacy"): cut to the
//     offset;
//   - anything else at the offset is another writer's record written over
//     crmem's: the bytes from the offset are decoded as
//     crabdb decodes them, and at the first that does not decode (an
//     unknown op, or a record that runs past the end), the rest is cut if
//     it lies inside the append's room (crmem's own leftover bytes) and is
//     the end of the file (State "crabtalk wrote at its offset"; also when
//     crmem was stopped before it wrote anything). Leftover bytes that happen to decode as
//     records are read as such by crabtalk too; they are not told apart.
func assess(n intent, head, tail []byte, size int64) Repair {
	r := Repair{Offset: n.Offset, Length: n.Length, CutAt: -1, Size: size}
	room := n.Offset + n.Length
	if n.Scheme == schemeReserve {
		room = n.Offset + int64(reserveLen(int(n.Length)))
	}
	if hex.EncodeToString(head) != n.Header {
		r.State = "stale"
		return r
	}
	if size <= n.Offset {
		r.State = "noted"
		return r
	}
	if int64(len(tail)) >= n.Length {
		sum := sha256.Sum256(tail[:n.Length])
		if hex.EncodeToString(sum[:]) == n.SHA256 {
			return assessWritten(r, n, tail, size)
		}
	}
	if n.Scheme == schemeReserve && bytes.HasPrefix(reserveHead(n.Length), tail[:min(len(tail), recordHead)]) {
		return assessReserve(r, n, tail, size, room)
	}
	if n.Scheme == "" && len(tail) >= recordHead && bytes.Equal(tail[:recordHead], make([]byte, recordHead)) {
		r.State = "legacy"
		if size > room {
			r.After = true // bytes past crmem's room are not its own to cut
		} else {
			r.CutAt = n.Offset
		}
		return r
	}
	return assessForeign(r, n, tail, size, room)
}

// assessWritten is assess of an append whose records are at their offset
// whole (trimmed, or switched with deleteTail still after them).
func assessWritten(r Repair, n intent, tail []byte, size int64) Repair {
	rest := tail[n.Length:]
	switch {
	case size == n.Offset+n.Length:
		r.State = "trimmed"
	case bytes.HasPrefix(rest, deleteTail):
		r.State = "switched"
		if size == n.Offset+n.Length+int64(len(deleteTail)) {
			r.CutAt = n.Offset + n.Length
		} else {
			r.After = true
		}
	default:
		r.State, r.After = "trimmed", true
	}
	return r
}

// assessReserve is assess of an append whose reserve's head is at its
// offset: reserved, filled or cut short, its room ending at room.
func assessReserve(r Repair, n intent, tail []byte, size, room int64) Repair {
	whole := size >= room && bytes.Equal(tail[room-n.Offset-int64(len(deleteTail)):room-n.Offset], deleteTail)
	switch {
	case !whole && size > room:
		// Not the reserve's bytes past its room: nobody's to cut.
		r.State, r.After = "reserve cut short", true
	case !whole:
		r.State, r.CutAt = "reserve cut short", n.Offset
	case size == room:
		r.State, r.CutAt = "reserved", n.Offset
	default:
		r.State, r.After = "reserved", true
	}
	if whole && !allBytes(tail[recordHead:n.Length], reserveFill) {
		r.State = "filled"
	}
	return r
}

// assessForeign is assess of an append whose offset holds neither its
// records nor its reserve: another writer's record written over crmem's.
// Its leftover bytes are cut from the first that does not decode, when
// they lie inside the append's room (ending at room) and end the file.
func assessForeign(r Repair, n intent, tail []byte, size, room int64) Repair {
	r.State = "crabtalk wrote at its offset"
	if size > room {
		// Past crmem's room the bytes are another writer's: nothing is
		// cut, and crabtalk reads what it wrote.
		r.After = true
		return r
	}
	at := 0
	for at < len(tail) {
		rec, ok, err := decodeRecord(tail[at:])
		if err != nil || !ok {
			break
		}
		at += rec.size
	}
	if at == len(tail) && size == n.Offset+int64(len(tail)) {
		return r // decodes to the end: crabtalk reads it
	}
	r.CutAt = n.Offset + int64(at)
	return r
}

// allBytes says whether every byte of b is c.
func allBytes(b []byte, c byte) bool {
	for _, x := range b {
		if x != c {
			return false
		}
	}
	return true
}

// appendHooks are test hooks of Append.
type appendHooks struct {
	// split, when set, writes the records in pieces of this many bytes
	// with a pause between (a kill test lands inside the append).
	split int
	pause time.Duration
	// stopAfter, when set, stops the append after that step (1 noted,
	// 2 reserved, 3 filled, 4 switched, 5 trimmed) as a kill there would:
	// nothing after it runs, not even the rollback.
	stopAfter int
	// afterStep, when set, is called after each step.
	afterStep func(step int)
	// leased, when set, is told whether the append holds a write lease.
	leased func(bool)
}

// stop calls the afterStep hook after step s and says whether the append
// stops there (stopAfter).
func (hk appendHooks) stop(s int) bool {
	if hk.afterStep != nil {
		hk.afterStep(s)
	}
	return hk.stopAfter == s
}

// The steps of Append, as appendHooks number them.
const (
	stepNoted = 1 + iota
	stepReserved
	stepFilled
	stepSwitched
	stepTrimmed
)

// errStopped is what Append returns when appendHooks.stopAfter stopped it.
var errStopped = errors.New("crabdb: append stopped by a test hook")

// maxAppendBytes is the most crmem appends at once: crabdb reads a
// store's whole log into memory on open, and one append this large is
// already an import to split.
const maxAppendBytes = 1 << 30

// reserveFill is the byte the reserve record's key is made of. Not zero:
// if the reserve's one write is cut short (a kill inside a large write, a
// power cut) and crabtalk then writes its record over the start of it, the
// rest of the key is read from where crabtalk's record ends, and a run of
// 0x01 reads as a delete in column 1 whose key (16,843,009 bytes) runs past
// the end: a torn tail crabtalk stops at, or, past that length, a delete
// of a key nobody has; zeros would read as puts of an empty key.
const reserveFill = 0x01

// reserveLen is the length of the reserve record for a batch of n bytes.
func reserveLen(n int) int { return n + 10 }

// reserveRecord is the record that reserves the room of a batch of n
// bytes: a delete in column 0 (crabtalk's agents) of a key of n bytes,
// reserveFill but for its last 6 bytes [1 0 0 0 0 0], with an empty value.
// Nobody has that key (every agent key starts with its realm, "local"),
// and crabdb's delete of a key it does not have changes nothing. Its key
// holds the batch but for the batch's first 6 bytes; its last 6 key bytes
// and the value length are, once the batch's head is written over the
// reserve's, a delete of column 0's empty key (deleteTail), as harmless.
func reserveRecord(n int) []byte {
	r := make([]byte, reserveLen(n))
	copy(r, reserveHead(int64(n)))
	for i := recordHead; i < n; i++ {
		r[i] = reserveFill
	}
	copy(r[n:], deleteTail)
	return r
}

// reserveHead is the reserve record's first 6 bytes for a batch of n
// bytes: op, column and key length.
func reserveHead(n int64) []byte {
	h := []byte{OpDelete, ColAgent, 0, 0, 0, 0}
	binary.LittleEndian.PutUint32(h[2:], uint32(n))
	return h
}

// deleteTail is the record the reserve leaves after the batch once the
// batch's head is switched in: a delete of column 0's empty key with an
// empty value. Append trims it off; a kill before that leaves it, and
// recoverAppend trims it.
var deleteTail = []byte{OpDelete, ColAgent, 0, 0, 0, 0, 0, 0, 0, 0}

// Append appends the batch's records to the store, syncs them and reads
// them back: they must decode to exactly what was meant, and the store as
// read is then the store with them. The file must be as it was read (same
// file, header and size; else errChanged) and Writable. The caller holds
// crmem's lock of the folder and has made sure crabtalk's daemon is not
// running.
//
// The records become visible all at once, and whatever stops the append
// (a kill at any system call, a power cut) leaves a file that crabtalk's
// reader reads whole and appends after, never over: crabdb stops at a torn
// record and writes its next record at that offset without cutting what
// follows, so a torn tail of crmem's would be read, after crabtalk's
// record, as records of the bytes left over (`unknown record op`, and the
// daemon does not start). For a batch B of n bytes at offset end:
//
//  1. reserve: one write of a complete, harmless record R of n+10 bytes at
//     end (reserveRecord: a delete of a key nobody has), synced;
//  2. fill: B but its first 6 bytes written inside R's key, at end+6,
//     synced: R's lengths and its last 10 bytes are untouched, so whole or
//     cut short, the file still ends in one complete harmless R;
//  3. switch: B's first 6 bytes (its first record's op, column and key
//     length) written over R's, one 6-byte write, synced: the file now
//     holds B whole and then deleteTail, a delete of column 0's empty key;
//  4. trim: the file cut to end+n (deleteTail dropped), synced: the bytes
//     crabtalk's own code writes for B.
//
// A reader at any point sees the old state and R, or the new state and
// deleteTail, or the new state. What remains: a power cut can tear the
// reserve's one write (as it can crabtalk's own append; the reserve's
// filler reads then as a torn tail or as harmless deletes, see reserveFill)
// or the 6-byte switch.
//
// A note beside the store (IntentPath) lives for the time of the append,
// so that the next crmem start finds and finishes what a kill left
// (recoverAppend); an append that fails is rolled back at once. SIGINT, SIGTERM
// and SIGHUP wait until the append is over (holdSignals).
//
// The gap between the caller's check that nobody else writes the store
// and the first byte written is closed by a write lease (Linux): taken on
// the descriptor Append writes with, it is granted only while no other
// descriptor of the file is open anywhere, and any open of the file from
// then on waits until the append has released it. Where no lease is
// granted (the file is open elsewhere, for reading say, another system,
// a file system without leases, not the file's owner), the check is
// re-run once the reserve is synced and before anything else is written
// (File.recheck), and again just before the trim, which is skipped (the
// harmless deleteTail stays) when the file grew or anyone else has it open
// for writing. What remains without a lease: a writer that opens the store
// between that last check and the trim (the check's own time, a few
// milliseconds where /proc is scanned) and writes after deleteTail before
// the trim loses its record to the trim, or, having read deleteTail,
// writes after the trim and leaves 10 bytes of zeros (a put of column 0's
// empty key) before its record.
func (f *File) Append(b *Batch) error {
	if b.Len() == 0 {
		return nil
	}
	data, err := f.appendable(b)
	if err != nil {
		return err
	}
	defer holdSignals(f.onHeld)()
	off := f.store.end
	fh, leased, err := f.openAppend()
	if err != nil {
		return err
	}
	defer fh.Close()
	if leased {
		defer releaseLease(fh)
	}
	sum := sha256.Sum256(data)
	if err := writeIntent(f.path, intent{Offset: off, Length: int64(len(data)), SHA256: hex.EncodeToString(sum[:]), Header: hex.EncodeToString(f.head), Scheme: schemeReserve}); err != nil {
		return err
	}
	if f.hooks.stop(stepNoted) {
		return errStopped
	}
	if err := f.reserveAndWrite(fh, data, off, leased); err != nil {
		return err
	}
	if leased {
		releaseLease(fh)
	}
	if err := f.readAppended(off, data); err != nil {
		return err
	}
	if err := os.Remove(IntentPath(f.path)); err != nil {
		return fmt.Errorf("remove %s: %w", IntentPath(f.path), err)
	}
	return nil
}

// reserveAndWrite is the append's four steps at off, once noted: reserve,
// fill, switch, trim, each synced (Append). A test hook may stop it after
// any step (errStopped), as a kill there would.
func (f *File) reserveAndWrite(fh *os.File, data []byte, off int64, leased bool) error {
	hk := f.hooks
	end := off + int64(reserveLen(len(data))) // where the reserve ends
	if err := f.writeSynced(fh, reserveRecord(len(data)), off, off, end, hk); err != nil {
		return err
	}
	if hk.stop(stepReserved) {
		return errStopped
	}
	if !leased && f.recheck != nil {
		if err := f.recheck(); err != nil {
			// Someone opened the store since the caller's check: the
			// reserve stays (a harmless record, which a writer that read
			// it appends after), and nothing else is written.
			os.Remove(IntentPath(f.path))
			return err
		}
	}
	if err := f.writeSynced(fh, data[recordHead:], off+recordHead, off, end, hk); err != nil {
		return err
	}
	if hk.stop(stepFilled) {
		return errStopped
	}
	// The switch: one 6-byte write, never split (no test hooks).
	if err := f.writeSynced(fh, data[:recordHead], off, off, end, appendHooks{}); err != nil {
		return err
	}
	if hk.stop(stepSwitched) {
		return errStopped
	}
	if err := f.trimReserve(fh, off+int64(len(data)), end, leased); err != nil {
		return err
	}
	if hk.stop(stepTrimmed) {
		return errStopped
	}
	return nil
}

// appendable is the bytes of b, once it is sure they may be appended: the
// store is writable, holds no unfinished append of crmem's, has not
// changed since it was read, and b is not more than one append writes.
func (f *File) appendable(b *Batch) ([]byte, error) {
	if err := f.Writable(); err != nil {
		return nil, err
	}
	if f.store.size != f.store.end {
		// Noted as crmem's own (Writable lets it pass): recoverAppend first.
		return nil, fmt.Errorf("not written: %s", intentWarning(f.path))
	}
	data := b.Bytes()
	if len(data) > maxAppendBytes {
		return nil, fmt.Errorf("crabdb: not written: one write of %d bytes is more than crmem appends at once (%d bytes); write it in parts (an import: in several files)", len(data), maxAppendBytes)
	}
	if err := f.unchanged(); err != nil {
		return nil, err
	}
	return data, nil
}

// openAppend opens the store for an append, with a write lease where one
// is granted (leased), and makes sure it is the file read, at the size
// read (else errChanged). The caller releases the lease, then closes.
func (f *File) openAppend() (fh *os.File, leased bool, err error) {
	fh, err = os.OpenFile(f.path, os.O_WRONLY, 0)
	if err != nil {
		return nil, false, fmt.Errorf("open for append: %w", err)
	}
	leased = takeWriteLease(fh)
	if f.hooks.leased != nil {
		f.hooks.leased(leased)
	}
	if fi, err := fh.Stat(); err != nil || !os.SameFile(fi, f.info) || fi.Size() != f.store.size {
		if leased {
			releaseLease(fh)
		}
		fh.Close()
		return nil, false, errChanged
	}
	return fh, leased, nil
}

// writeSynced writes p at at and syncs it, one step of an append at off
// whose reserve ends at end: a failure rolls the append back.
func (f *File) writeSynced(fh *os.File, p []byte, at, off, end int64, hk appendHooks) error {
	if err := writeAt(fh, p, at, hk); err != nil {
		return f.rollBack(fh, off, end, fmt.Errorf("append to %s: %w", f.path, err))
	}
	if err := fh.Sync(); err != nil {
		return f.rollBack(fh, off, end, fmt.Errorf("sync %s: %w", f.path, err))
	}
	return nil
}

// trimReserve cuts the reserve's last 10 bytes (deleteTail, at to end)
// and syncs, when nobody appended after them and, without a lease, the
// check that nobody else writes the store passes once more.
func (f *File) trimReserve(fh *os.File, at, end int64, leased bool) error {
	trim := false
	if fi, err := fh.Stat(); err == nil && fi.Size() == end {
		// Nobody appended after deleteTail. Without a lease, someone may
		// have opened the store since the re-check and read deleteTail: a
		// write of theirs after the cut would leave a hole of zeros (a put
		// of column 0's empty key). So the guard runs once more, and
		// deleteTail, harmless, stays if anyone else has the store open
		// for writing.
		trim = leased || f.recheck == nil || f.recheck() == nil
	}
	if !trim {
		return nil
	}
	if err := fh.Truncate(at); err != nil {
		return fmt.Errorf("append to %s: trim the reserve's last 10 bytes: %w", f.path, err)
	}
	if err := fh.Sync(); err != nil {
		return fmt.Errorf("sync %s: %w", f.path, err)
	}
	return nil
}

// readAppended reads back the data appended at off and the store's tail
// from there, and extends the store with it: the append is done only
// once what is on disk is the records written and reads whole.
func (f *File) readAppended(off int64, data []byte) error {
	back, fi, err := readBack(f.path, off, len(data))
	if err != nil {
		return err
	}
	if !bytes.Equal(back, data) {
		return fmt.Errorf("crabdb: %s: the %d bytes read back at offset %d are not the records written", f.path, len(data), off)
	}
	tail, _, err := readBack(f.path, off, int(fi.Size()-off))
	if err != nil {
		return err
	}
	if err := f.store.Extend(tail); err != nil || f.store.end < off+int64(len(data)) {
		return fmt.Errorf("crabdb: %s: the records appended at offset %d do not read back whole: %v", f.path, off, err)
	}
	f.info = fi
	f.appends++
	return nil
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
func (f *File) unchanged() error {
	r, err := os.Open(f.path)
	if err != nil {
		return err
	}
	defer r.Close()
	fi, err := r.Stat()
	if err != nil {
		return err
	}
	if !os.SameFile(fi, f.info) || fi.Size() != f.store.size {
		return errChanged
	}
	head := make([]byte, HeaderLen)
	if _, err := io.ReadFull(r, head); err != nil || !bytes.Equal(head, f.head) {
		return errChanged
	}
	return nil
}

// rollBack cuts off what a failed append wrote (crmem's own bytes, from
// off to at most upTo) and removes the note; bytes past upTo are another
// writer's, written after crmem's reserve, which then stays.
func (f *File) rollBack(fh *os.File, off, upTo int64, cause error) error {
	if fi, err := fh.Stat(); err != nil || fi.Size() > upTo {
		os.Remove(IntentPath(f.path))
		return cause
	}
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

// repairLockWait is how long a start waits for crmem's lock of the
// folder before it leaves a noted append to the crmem that holds it.
const repairLockWait = 2 * time.Second

// RepairAtStart is what every crmem start does before it reads the store
// at path, the way SQLite's first reader rolls back a hot journal: when
// the note of an unfinished append of crmem's lies beside it, it takes
// crmem's lock of the folder (a crmem appending now holds it, and its
// note is no leftover) and repairs what the note stands for (recoverAppend). nil
// when there is no note, or another crmem held the lock throughout (it
// is writing; its own end removes the note); the store is read either way.
// When the lock stays taken, the note is only looked at (Inspected): what
// it stands for is said, and left to the crmem that holds the lock, or to
// the next start.
//
// Bytes are cut only once guard (the check before every write: nobody
// else, crabtalk's daemon above all, has the store open for writing)
// passes: crabdb keeps its append position in memory, and a daemon that
// read the reserve or the 10-byte tail and then found them cut would write
// past the end, leaving a hole of zeros that reads as records. With guard
// nil, or failing, nothing is cut (Held says why) and the note stays.
func RepairAtStart(path string, guard store.Guard) (*Repair, error) {
	if _, err := os.Lstat(IntentPath(path)); err != nil {
		return nil, nil
	}
	unlock, err := store.LockDir(filepath.Dir(path), repairLockWait)
	if errors.Is(err, store.ErrLocked) {
		r, err := inspectAppend(path)
		if err != nil || r == nil {
			return nil, nil
		}
		r.Busy = true
		return r, nil
	}
	if err != nil {
		return nil, err
	}
	defer unlock()
	look, err := inspectAppend(path)
	if err != nil {
		return nil, err
	}
	if look == nil {
		// A note cut short as it was written (empty, or not whole) was
		// written before any byte of an append: nothing to repair, and
		// the note, crmem's own, goes, rather than waiting beside the
		// store for the next crmem write.
		return recoverReport(path)
	}
	if look.CutAt >= 0 {
		why := "nothing checks that crabtalk's daemon is not running"
		if guard != nil {
			why = ""
			if _, err := guard(path); err != nil {
				why = err.Error()
			}
		}
		if why != "" {
			look.Held = why
			return look, nil
		}
	}
	r, err := recoverReport(path)
	if err != nil {
		return nil, fmt.Errorf("repair crmem's unfinished append to %s: %w", path, err)
	}
	return r, nil
}
