// Package open opens a memory file whatever its format: crabtalk's store
// (store/crabdb) when the file has its structure, else a CRMEM v1 file
// (store). It sits above both so that neither format's package decides
// for the other; the faces open every memory through it.
package open

import (
	"path/filepath"
	"time"

	"github.com/crmem/crmem/store"
	"github.com/crmem/crmem/store/crabdb"
	"github.com/crmem/crmem/store/owner"
)

// Options say how a memory file is opened for reading and writing.
type Options struct {
	// Store are the DB's options (index, lock wait, clock). Its Sessions
	// is a v1 file's sessions folder ("": the one beside it); its Guard,
	// when nil, is DaemonGuard(DaemonSocket) for crabtalk's store.
	Store store.Options
	// DaemonSocket is where crabtalk's daemon listens (the command line
	// gives config.DaemonSocket); "" is run/crabtalk.sock beside the
	// store, in crabtalk's home.
	DaemonSocket string
}

// DaemonGuard is the check, before every write to crabtalk's store, that
// crabtalk's daemon (listening on socketPath) is not running and that no
// other process has the store open for writing (store/owner): it returns
// how that was proved, or why it could not be.
func DaemonGuard(socketPath string) store.Guard {
	return func(storePath string) (string, error) {
		p, err := owner.Check(storePath, socketPath)
		if err != nil {
			return "", err
		}
		return p.String(), nil
	}
}

// socketBeside is crabtalk's daemon socket in the home folder that holds
// the store at path.
func socketBeside(path string) string {
	return filepath.Join(filepath.Dir(path), "run", "crabtalk.sock")
}

// SourceWith opens the memory file at path as a followed, writable
// memory whatever its format, with options (the TUI's open; see DB).
func SourceWith(path string, o Options) (store.Source, error) {
	db, err := DB(path, o)
	if err != nil {
		return nil, err // no typed nil inside the interface
	}
	return db, nil
}

// DB opens path for reading and writing, whatever its format: crabtalk's
// store (by structure) as a store.DB that appends as crabtalk does, each
// write checked first with the guard, else a CRMEM v1 file (missing: an
// empty memory).
func DB(path string, o Options) (*store.DB, error) {
	so := o.Store
	if so.Guard == nil {
		socket := o.DaemonSocket
		if socket == "" {
			socket = socketBeside(path)
		}
		so.Guard = DaemonGuard(socket)
	}
	v1 := so
	if so.LockTimeout == 0 {
		so.LockTimeout = StoreLockWait
	}
	db, ok, err := crabdb.OpenDBIfStore(path, so)
	if ok {
		return db, err
	}
	v1.Guard = nil // a v1 file has no owner to check
	return store.OpenWith(path, v1)
}

// StoreLockWait bounds how long a write to crabtalk's store waits for
// another crmem writing it (crmem's lock of the folder; Options.Store's
// LockTimeout, when zero): an append takes moments, so a lock held longer
// is a crmem stuck (stopped with ctrl-z, say), and the write fails naming
// it rather than waiting unseen. A v1 file's writers wait as long as it
// takes.
const StoreLockWait = time.Minute

// Contents reads the memory file at path once, whatever its format:
// crabtalk's store (by structure) through its adapter, with its own
// recall and sessions and its entries as written (Features.Stored), or a
// CRMEM v1 file as decoded, recalled by BM25 over it, its sessions in
// sessionsDir ("": the folder beside it). Nothing is indexed: the way for
// a subcommand that reads the memory and exits. What the read noticed,
// and the store's entries it could not read, are the Features' warnings.
//
// A large file is mapped, not read (store.MapFile), and the entries alias
// it: the caller's goroutines that read them run with
// debug.SetPanicOnFault, as store.MapFile says.
//
// It does not repair an unfinished append of crmem's: the caller does
// first (crabdb.RepairAtStart, with the guard it writes with).
func Contents(path, sessionsDir string) (*store.Contents, error) {
	data, err := store.MapFile(path)
	if err != nil {
		return nil, err
	}
	return ContentsOf(path, data, sessionsDir)
}

// ContentsOf is Contents for the bytes data of the memory file at path,
// already read (store.MapFile).
func ContentsOf(path string, data []byte, sessionsDir string) (*store.Contents, error) {
	format, f, err := crabdb.DetectDecoded(data)
	if format == crabdb.FormatStore {
		return crabdb.Contents(path, data)
	}
	if err != nil {
		return nil, &store.PathError{Path: path, Err: err}
	}
	return store.V1Contents(path, f, sessionsDir), nil
}

// HistoryData is a memory file as its history reads it: a log and the
// reader of its format (Log, Data), or contents decoded once (V1).
type HistoryData struct {
	// Log reads Data, the file's whole log, when its history is its log
	// (store.HistoryFromLog); nil otherwise.
	Log  store.Log
	Data []byte
	// V1 is the file decoded, when its history is its entries now and
	// its sessions' writes (store.HistoryFromSessions).
	V1 *store.Contents
}

// History is the memory file at path, its bytes data, as its history reads
// it: crabtalk's store's whole log as its bytes (its header checked, the
// error every reader of a store gives), or a CRMEM v1 file decoded once,
// its sessions in sessionsDir ("": the folder beside it). A file that is
// neither (ok false) is left to Contents, whose errors say why.
func History(path, sessionsDir string, data []byte) (h HistoryData, ok bool, err error) {
	switch format, f, _ := crabdb.DetectDecoded(data); format {
	case crabdb.FormatStore:
		if _, err := crabdb.ParseHeader(data); err != nil {
			return h, true, err
		}
		return HistoryData{Log: crabdb.Capabilities.Log, Data: data}, true, nil
	case crabdb.FormatV1:
		return HistoryData{V1: store.V1Contents(path, f, sessionsDir)}, true, nil
	}
	return h, false, nil
}
