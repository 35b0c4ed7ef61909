package export

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/crmem/crmem/internal/humanize"
	"github.com/crmem/crmem/internal/workgroup"
	"github.com/crmem/crmem/store"
)

// BookTOML is the book.toml a dump writes when the folder has none, so that
// `mdbook serve DIR` works on the tree as it is.
const BookTOML = "[book]\ntitle = \"Memory\"\nsrc = \".\"\n\n[output.html]\n"

// section is one kind's folder in the tree and its SUMMARY.md heading.
type section struct {
	kind   store.Kind
	folder string
	title  string
}

// sections lists the kinds in tree order (also load order).
var sections = [...]section{
	{store.Note, "notes", "Notes"},
	{store.Archive, "archives", "Archives"},
	{store.Topic, "topics", "Topics"},
}

// folderOf returns the tree folder of a kind.
func folderOf(k store.Kind) (string, bool) {
	for _, s := range sections {
		if s.kind == k {
			return s.folder, true
		}
	}
	return "", false
}

// Dump writes entries as the mdbook tree of SPEC §5 into dir, byte for byte
// what the reference writes: SUMMARY.md, one file per entry in notes/,
// archives/ and topics/, and book.toml when dir has none.
//
// Nothing is written unless every entry can be: every name must pass
// store.ValidName and be unique, and the error names every offending entry.
// The files are written into a staging folder inside dir first; then each
// kind's folder is swapped in (the old one, with any stale files, is
// removed) and SUMMARY.md is renamed over the old one. Anything else in dir
// is left alone. dir is created if missing (and removed again if the dump
// fails); it must not be a file.
func Dump(dir string, entries []store.Entry) error {
	if err := checkDumpable(entries); err != nil {
		return err
	}
	created, err := ensureDir(dir)
	if err != nil {
		return err
	}
	done := false
	defer func() { // runs after the stage is removed
		if !done {
			removeCreated(created) // a failed dump leaves no folder behind
		}
	}()
	removeStaleStages(dir)
	stage, err := os.MkdirTemp(dir, stagePrefix)
	if err != nil {
		return fmt.Errorf("dump %s: %w", dir, pathError(err))
	}
	// The staging folder ends up holding only the replaced folders (or,
	// after a failure, the unused new ones); it goes in every case.
	defer os.RemoveAll(stage)
	if err := writeStage(stage, entries); err != nil {
		return fmt.Errorf("dump %s: %w", dir, pathError(err))
	}
	if err := swapIn(dir, stage); err != nil {
		return fmt.Errorf("dump %s: %w", dir, pathError(err))
	}
	if err := writeBookTOML(dir); err != nil {
		return fmt.Errorf("dump %s: %w", dir, pathError(err))
	}
	done = true
	return nil
}

// stagePrefix starts the name of a dump's staging folder inside DIR.
const stagePrefix = ".crmem-dump-"

// removeStaleStages removes staging folders left by a dump that was killed
// (the tree is rewritten from the memory anyway), best effort.
func removeStaleStages(dir string) {
	stale, _ := filepath.Glob(filepath.Join(dir, stagePrefix+"*"))
	for _, s := range stale {
		os.RemoveAll(s)
	}
}

// checkDumpable reports, in one error, every entry whose name is not a safe
// file name, appears twice, or whose kind has no folder.
func checkDumpable(entries []store.Entry) error {
	var bad []string
	first := make(map[string]uint64, len(entries))
	for _, e := range entries {
		if err := store.ValidName(e.Name); err != nil {
			bad = append(bad, fmt.Sprintf("id %d: %v", e.ID, err))
		} else if _, ok := folderOf(e.Kind); !ok {
			bad = append(bad, fmt.Sprintf("%q (id %d): unknown kind %v", e.Name, e.ID, e.Kind))
		} else if id, dup := first[e.Name]; dup {
			bad = append(bad, fmt.Sprintf("%q (ids %d and %d): name used twice", e.Name, id, e.ID))
		}
		if _, seen := first[e.Name]; !seen {
			first[e.Name] = e.ID
		}
	}
	if len(bad) > 0 {
		return fmt.Errorf("cannot dump %d %s, nothing written: %s",
			len(bad), humanize.Word(len(bad), "entry"), strings.Join(bad, "; "))
	}
	return nil
}

// ensureDir creates dir if it is missing and fails if it is not a folder.
// It returns the folders it created, outermost first.
func ensureDir(dir string) ([]string, error) {
	fi, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		var created []string
		for d := dir; ; d = filepath.Dir(d) {
			if _, err := os.Lstat(d); !errors.Is(err, fs.ErrNotExist) || filepath.Dir(d) == d {
				break
			}
			created = append([]string{d}, created...)
		}
		if err := os.MkdirAll(dir, 0o755); err != nil {
			removeCreated(created)
			return nil, pathError(err)
		}
		return created, nil
	case err != nil:
		return nil, fmt.Errorf("dump %s: %w", dir, pathError(err))
	case !fi.IsDir():
		return nil, fmt.Errorf("%s: not a directory", dir)
	}
	return nil, nil
}

// removeCreated removes the folders ensureDir created, innermost first;
// only empty ones go.
func removeCreated(created []string) {
	for i := len(created) - 1; i >= 0; i-- {
		os.Remove(created[i])
	}
}

// writeStage writes SUMMARY.md and the kind folders into stage. Files are
// written by a few goroutines: a dump of 100k entries is 100k file creations.
func writeStage(stage string, entries []store.Entry) error {
	for _, s := range sections {
		if slices.ContainsFunc(entries, func(e store.Entry) bool { return e.Kind == s.kind }) {
			if err := os.Mkdir(filepath.Join(stage, s.folder), 0o755); err != nil {
				return err
			}
		}
	}
	var g workgroup.Group // the entries may alias a mapped file (store.MapFile)
	g.SetLimit(4)
	for _, e := range entries {
		folder, _ := folderOf(e.Kind)
		path := filepath.Join(stage, folder, e.Name+".md")
		g.GoErr(func() error { return os.WriteFile(path, FormatEntry(e), 0o644) })
	}
	if err := g.Wait(); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(stage, "SUMMARY.md"), Summary(entries), 0o644)
}

// swapIn moves each kind folder of dir out of the way into stage/old-<kind>,
// moves the staged folder in, then renames SUMMARY.md into place. A failure
// part-way moves the old folders back.
func swapIn(dir, stage string) error {
	var undo []func()
	rollback := func() {
		for i := len(undo) - 1; i >= 0; i-- {
			undo[i]()
		}
	}
	for _, s := range sections {
		live := filepath.Join(dir, s.folder)
		old := filepath.Join(stage, "old-"+s.folder)
		staged := filepath.Join(stage, s.folder)
		if err := os.Rename(live, old); err == nil {
			undo = append(undo, func() { os.Rename(old, live) })
		} else if !errors.Is(err, fs.ErrNotExist) {
			rollback()
			return err
		}
		if err := os.Rename(staged, live); err == nil {
			undo = append(undo, func() { os.Rename(live, staged) })
		} else if !errors.Is(err, fs.ErrNotExist) {
			rollback()
			return err
		}
	}
	if err := os.Rename(filepath.Join(stage, "SUMMARY.md"), filepath.Join(dir, "SUMMARY.md")); err != nil {
		rollback()
		return err
	}
	syncDir(dir)
	return nil
}

// syncDir flushes a folder's entries (the renames) to disk, best effort.
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
}

// writeBookTOML writes BookTOML unless dir already has a book.toml.
func writeBookTOML(dir string) error {
	f, err := os.OpenFile(filepath.Join(dir, "book.toml"), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if errors.Is(err, fs.ErrExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if _, err := f.WriteString(BookTOML); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// Summary renders SUMMARY.md: "# Summary", then for each kind that has
// entries a section listing them as links, names sorted bytewise.
func Summary(entries []store.Entry) []byte {
	var b bytes.Buffer
	b.WriteString("# Summary\n\n")
	for _, s := range sections {
		var names []string
		for _, e := range entries {
			if e.Kind == s.kind {
				names = append(names, e.Name)
			}
		}
		if len(names) == 0 {
			continue
		}
		slices.Sort(names)
		b.WriteString("# " + s.title + "\n\n")
		for _, n := range names {
			fmt.Fprintf(&b, "- [%s](%s/%s.md)\n", n, s.folder, n)
		}
		b.WriteByte('\n')
	}
	return b.Bytes()
}
