//go:build linux

// Package storetest provides helpers for tests of code that writes memory
// files: a writer that behaves like crabtalk's, for stress tests (SPEC §3).
package storetest

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"
	"time"

	"golang.org/x/sys/unix"

	"github.com/crmem/crmem/store"
)

// CrabtalkWriter writes the way crabtalk does, without a lock: read the
// file, add an entry "crab-N", write <name>.tmp, fsync, put it in place,
// sleep 20 ms; until the deadline (at least once). It puts the file in
// place with an exchange rather than a plain rename (the same atomic
// replacement for every reader) so that it can see what it replaced, and
// reports on out "added NAME" for each entry it added and "overwrote NAME"
// for each entry named with overwritePrefix that its own read-modify-write
// dropped (those are its losses, not the other writers').
func CrabtalkWriter(path string, until time.Time, overwritePrefix string, out io.Writer) error {
	tmp := path + ".tmp"
	for i := 0; i == 0 || time.Now().Before(until); i++ {
		f, err := readOrEmpty(path)
		if err != nil {
			return err
		}
		name := fmt.Sprintf("crab-%d", i)
		entries := append(f.Entries, store.Entry{ID: f.NextID, Name: name, Content: "crab " + name,
			CreatedAt: uint64(time.Now().Unix()), Aliases: []string{}})
		if err := writeSynced(tmp, store.Encode(f.NextID+1, entries)); err != nil {
			return err
		}
		dropped, err := place(tmp, path, entries, overwritePrefix)
		if err != nil {
			return err
		}
		fmt.Fprintln(out, "added", name)
		for _, d := range dropped {
			fmt.Fprintln(out, "overwrote", d)
		}
		time.Sleep(20 * time.Millisecond)
	}
	return nil
}

func readOrEmpty(path string) (*store.File, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return &store.File{NextID: 1}, nil
	}
	if err != nil {
		return nil, err
	}
	return store.Decode(data)
}

func writeSynced(path string, data []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// place puts tmp at path and returns the names with prefix that the
// replaced version held and the written one lacks.
func place(tmp, path string, written []store.Entry, prefix string) ([]string, error) {
	err := unix.Renameat2(unix.AT_FDCWD, tmp, unix.AT_FDCWD, path, unix.RENAME_EXCHANGE)
	if errors.Is(err, unix.ENOENT) {
		return nil, os.Rename(tmp, path)
	}
	if err != nil {
		return nil, err
	}
	old, err := os.ReadFile(tmp)
	if err != nil {
		return nil, err
	}
	os.Remove(tmp)
	f, err := store.Decode(old)
	if err != nil {
		return nil, err
	}
	have := map[string]bool{}
	for _, e := range written {
		have[e.Name] = true
	}
	var dropped []string
	for _, e := range f.Entries {
		if strings.HasPrefix(e.Name, prefix) && !have[e.Name] {
			dropped = append(dropped, e.Name)
		}
	}
	return dropped, nil
}
