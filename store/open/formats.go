package open

import (
	"fmt"
	"path/filepath"

	"github.com/crmem/crmem/internal/humanize"
	"github.com/crmem/crmem/store"
	"github.com/crmem/crmem/store/check"
	"github.com/crmem/crmem/store/crabdb"
)

// What the faces need to know of crabtalk's store, given here so that only
// this package and the adapters import store/crabdb: a third format is an
// adapter and a case in this package.

// StoreFileName is the name crabtalk gives its store in its home folder.
const StoreFileName = crabdb.FileName

// StoreFormat is the name of crabtalk's store format, as Features say it.
const StoreFormat = crabdb.FormatName

// Detected is what Detect found data to hold.
type Detected struct {
	// Name is the format's name as its Features say it; "" when no
	// reader takes the data.
	Name string
	// Store reports whether it is crabtalk's store.
	Store bool
}

// Detect tells the format data holds by its structure (SPEC §10).
func Detect(data []byte) Detected {
	switch crabdb.Detect(data) {
	case crabdb.FormatStore:
		return Detected{Name: StoreFormat, Store: true}
	case crabdb.FormatV1:
		return Detected{Name: store.FormatV1}
	}
	return Detected{}
}

// IsStore reports whether path is a regular file holding a crabtalk store
// (decided by structure, SPEC §10).
func IsStore(path string) bool { return crabdb.IsStore(path) }

// RepairAtStart repairs what an append of crmem's to crabtalk's store at
// path left unfinished, as every start does before it reads the store,
// each cut checked first with guard; it says what was done ("": nothing).
// Source, DB and Contents's callers that read the file's bytes themselves
// call it first.
func RepairAtStart(path string, guard store.Guard) (string, error) {
	rep, err := crabdb.RepairAtStart(path, guard)
	if err != nil || rep == nil {
		return "", err
	}
	return rep.String(), nil
}

// WaitAppends waits for the appends to crabtalk's store under way to end,
// for a process about to exit.
func WaitAppends() { crabdb.WaitAppends() }

// Unreadable gives both readers' reasons for a file named like a store
// (".crmem") that neither reads: its name says what the user expects, its
// structure decides nothing (a store shorter than its header, say). Any
// other file is left to the v1 reader (nil).
func Unreadable(path string) error {
	if filepath.Ext(path) != ".crmem" {
		return nil
	}
	data, err := store.ReadFile(path)
	if err != nil {
		return nil // the v1 reader reports it
	}
	f, v1err := store.Decode(data)
	if v1err == nil && f.Trailing == 0 {
		return nil
	}
	if cut := crabdb.CutShort(data, v1err); cut != nil {
		return cut
	}
	_, err = crabdb.Read(data)
	switch {
	case err == nil:
	case v1err != nil:
		return fmt.Errorf("%v (nor a CRMEM v1 memory file: %v)", err, v1err)
	default:
		// The v1 reader takes it only with bytes after its last entry
		// (a store whose index runs past the end, say): its name says
		// store, and a memory with no entries would mislead.
		return fmt.Errorf("%v (and read as a CRMEM v1 memory file, %s of %s bytes would be trailing)", err, humanize.Count(f.Trailing), humanize.Count(len(data)))
	}
	return nil
}

// Check checks the memory file at path whose bytes are data (crmem
// check): crabtalk's store when it is one by structure (SPEC §10), else a
// CRMEM v1 file whose sessions are in sessionsDir. The error is the
// reader's refusal, if any; the report then says only that (Valid false,
// Error its reason).
func Check(path string, data []byte, sessionsDir string) (*check.Report, error) {
	format, f, err := crabdb.DetectDecoded(data)
	if format == crabdb.FormatStore {
		return crabdb.Check(path, data)
	}
	return check.V1(path, data, f, err, sessionsDir, crabdb.Look)
}
