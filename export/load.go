package export

import (
	"fmt"
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
// read. Nothing outside dir is read: a symbolic link in the tree (to a file
// or a folder) and anything that is not a regular file is skipped, and
// each is named in the notices returned.
//
// Ids are assigned from 1 in load order. Everything is validated before
// Load returns: a file name that is not a valid entry name, a name used
// twice, or a file that is not UTF-8 fails the load, and the error lists
// every problem. dir must hold at least one of notes/, archives/, topics/ or
// SUMMARY.md, so that loading the wrong folder does not empty the memory;
// and a tree whose only files were skipped is refused for the same reason.
func Load(dir string, now time.Time) ([]store.Entry, []string, error) {
	if err := checkTree(dir); err != nil {
		return nil, nil, err
	}
	t := &tree{root: dir}
	var (
		out      []store.Entry
		problems []string
		seen     = map[string]string{}
	)
	for _, s := range sections {
		files, err := t.markdownFiles(s.folder)
		if err != nil {
			return nil, t.notices, pathError(err)
		}
		for _, f := range files {
			rel := s.folder + "/" + f
			e, err := loadFile(t, rel, strings.TrimSuffix(f, ".md"), now)
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
		return nil, t.notices, fmt.Errorf("load %s: %s", dir, strings.Join(problems, "; "))
	}
	if len(out) == 0 && len(t.notices) > 0 {
		return nil, t.notices, fmt.Errorf("load %s: every file was skipped; the memory is left as it is", dir)
	}
	return out, t.notices, nil
}

// checkTree makes sure dir looks like a dump tree (a linked section
// folder does not count: it is not read).
func checkTree(dir string) error {
	if err := checkDir(dir); err != nil {
		return err
	}
	for _, name := range []string{"notes", "archives", "topics"} {
		if fi, err := os.Lstat(filepath.Join(dir, name)); err == nil && fi.IsDir() {
			return nil
		}
	}
	if fi, err := os.Lstat(filepath.Join(dir, "SUMMARY.md")); err == nil && fi.Mode().IsRegular() {
		return nil
	}
	return fmt.Errorf("%s: not a dump tree (no notes/, archives/, topics/ or SUMMARY.md)", dir)
}

// loadFile reads and parses one entry file, checking its name.
func loadFile(t *tree, rel, name string, now time.Time) (store.Entry, error) {
	if err := store.ValidName(name); err != nil {
		return store.Entry{}, fmt.Errorf("%s: %w", rel, err)
	}
	data, _, err := t.readFile(rel)
	if err != nil {
		return store.Entry{}, pathError(err)
	}
	if !utf8.Valid(data) {
		return store.Entry{}, fmt.Errorf("%s: not valid UTF-8", rel)
	}
	return ParseEntry(name, data, now)
}
