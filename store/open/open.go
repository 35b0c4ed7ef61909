// Package open opens a memory file whatever its format: crabtalk's store
// (store/crabdb) when the file has its structure, else a CRMEM v1 file
// (store). It sits above both so that neither format's package decides
// for the other; the faces open every memory through it.
package open

import (
	"github.com/crmem/crmem/store"
	"github.com/crmem/crmem/store/crabdb"
)

// Source opens path as a store.Source: crabtalk's store when it is one
// (read once), else a v1 memory file whose index builds in the
// background (of it only the store's 32-byte header check is read before
// store.OpenWith). sessionsDir is a v1 file's sessions folder ("": the
// one beside it); crabtalk's store holds its own.
func Source(path, sessionsDir string) (store.Source, error) {
	s, ok, err := crabdb.OpenIfStore(path)
	switch {
	case ok && err != nil:
		return nil, err // no typed nil inside the interface
	case ok:
		return s, nil
	}
	db, err := store.OpenWith(path, store.Options{Index: store.IndexBackground, Sessions: sessionsDir})
	if err != nil {
		return nil, err
	}
	return db, nil
}

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
func Contents(path, sessionsDir string) (*store.Contents, error) {
	data, err := store.MapFile(path)
	if err != nil {
		return nil, err
	}
	format, f, err := crabdb.DetectDecoded(data)
	if format == crabdb.FormatStore {
		return crabdb.Contents(path, data)
	}
	if err != nil {
		return nil, &store.PathError{Path: path, Err: err}
	}
	return store.V1Contents(path, f, sessionsDir), nil
}
