package export

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/crmem/crmem/store"
)

// Load reads an mdbook tree written by Dump (or by hand) by the rules of
// SPEC §5: the *.md files of notes/, archives/ and topics/, each folder in
// file-name order, each parsed with ParseEntry and named after its file
// stem. Other files, sub-folders and hidden files (names starting with ".",
// such as editor swap files) are skipped; SUMMARY.md and book.toml are not
// read.
//
// Ids are assigned from 1 in load order. Everything is validated before
// Load returns: a file name that is not a valid entry name, a name used
// twice, or a file that is not UTF-8 fails the load, and the error lists
// every problem. dir must hold at least one of notes/, archives/, topics/ or
// SUMMARY.md, so that loading the wrong folder does not empty the memory.
func Load(dir string, now time.Time) ([]store.Entry, error) {
	if err := checkTree(dir); err != nil {
		return nil, err
	}
	var (
		out      []store.Entry
		problems []string
		seen     = map[string]string{}
	)
	for _, s := range sections {
		files, err := markdownFiles(filepath.Join(dir, s.folder))
		if err != nil {
			return nil, pathError(err)
		}
		for _, f := range files {
			rel := s.folder + "/" + f
			e, err := loadFile(dir, rel, strings.TrimSuffix(f, ".md"), now)
			if err != nil {
				problems = append(problems, err.Error())
				continue
			}
			if prev, dup := seen[e.Name]; dup {
				problems = append(problems, fmt.Sprintf("%s: name %q already used by %s", rel, e.Name, prev))
				continue
			}
			seen[e.Name] = rel
			e.Kind = s.kind
			e.ID = uint64(len(out) + 1)
			out = append(out, e)
		}
	}
	if len(problems) > 0 {
		return nil, fmt.Errorf("load %s: %s", dir, strings.Join(problems, "; "))
	}
	return out, nil
}

// checkTree makes sure dir looks like a dump tree.
func checkTree(dir string) error {
	if err := checkDir(dir); err != nil {
		return err
	}
	for _, name := range []string{"notes", "archives", "topics", "SUMMARY.md"} {
		if _, err := os.Stat(filepath.Join(dir, name)); err == nil {
			return nil
		}
	}
	return fmt.Errorf("%s: not a dump tree (no notes/, archives/, topics/ or SUMMARY.md)", dir)
}

// markdownFiles lists the *.md regular files of a folder (symbolic links
// followed) in name order, skipping hidden ones; a missing folder has none.
func markdownFiles(folder string) ([]string, error) {
	ents, err := os.ReadDir(folder)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []string
	for _, de := range ents {
		name := de.Name()
		if !strings.HasSuffix(name, ".md") || strings.HasPrefix(name, ".") {
			continue
		}
		if isFile(filepath.Join(folder, name), de) {
			out = append(out, name)
		}
	}
	return out, nil
}

// isFile reports whether a folder entry is a regular file, following
// symbolic links.
func isFile(path string, de fs.DirEntry) bool {
	if de.Type().IsRegular() {
		return true
	}
	if de.Type()&fs.ModeSymlink == 0 {
		return false
	}
	fi, err := os.Stat(path)
	return err == nil && fi.Mode().IsRegular()
}

// loadFile reads and parses one entry file, checking its name.
func loadFile(dir, rel, name string, now time.Time) (store.Entry, error) {
	if err := store.ValidName(name); err != nil {
		return store.Entry{}, fmt.Errorf("%s: %w", rel, err)
	}
	data, err := os.ReadFile(filepath.Join(dir, rel))
	if err != nil {
		return store.Entry{}, pathError(err)
	}
	if !utf8.Valid(data) {
		return store.Entry{}, fmt.Errorf("%s: not valid UTF-8", rel)
	}
	return ParseEntry(name, data, now)
}
