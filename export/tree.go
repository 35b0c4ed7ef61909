package export

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/crmem/crmem/internal/safefile"
	"github.com/crmem/crmem/store"
)

// tree reads the files of one folder and nothing outside it (SPEC §5): a
// symbolic link inside it, to a file or to a folder, is skipped and noted,
// and so is anything that is not a regular file or a folder. The folder
// named by the user may itself be reached through a link.
type tree struct {
	root    string
	notices []string
}

// skip notes a path that is not read.
func (t *tree) skip(path, why string) {
	t.notices = append(t.notices, fmt.Sprintf("%s: skipped: %s (nothing outside the tree is read)", path, why))
}

// isDir reports whether rel (slash-separated, under root) is a folder
// reached without following a link; a link on the way is noted.
func (t *tree) isDir(rel string) bool {
	p := t.root
	for _, part := range strings.Split(rel, "/") {
		p = filepath.Join(p, part)
		fi, err := os.Lstat(p)
		switch {
		case err != nil:
			return false
		case fi.Mode()&fs.ModeSymlink != 0:
			t.skip(p, "a symbolic link")
			return false
		case !fi.IsDir():
			return false
		}
	}
	return true
}

// markdownFiles lists the *.md regular files of the folder rel in name
// order, skipping hidden ones; links and other non-regular files are
// noted. A missing folder has none.
func (t *tree) markdownFiles(rel string) ([]string, error) {
	if !t.isDir(rel) {
		return nil, nil
	}
	folder := filepath.Join(t.root, rel)
	ents, err := os.ReadDir(folder)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, de := range ents {
		name := de.Name()
		if !strings.HasSuffix(name, ".md") || strings.HasPrefix(name, ".") {
			continue
		}
		switch {
		case de.Type().IsRegular():
			out = append(out, name)
		case de.Type()&fs.ModeSymlink != 0:
			t.skip(filepath.Join(folder, name), "a symbolic link")
		default:
			t.skip(filepath.Join(folder, name), "not a regular file")
		}
	}
	return out, nil
}

// subfolders lists the non-hidden folders inside the folder rel in name
// order; links are noted and skipped.
func (t *tree) subfolders(rel string) ([]string, error) {
	if !t.isDir(rel) {
		return nil, nil
	}
	folder := filepath.Join(t.root, rel)
	ents, err := os.ReadDir(folder)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, de := range ents {
		switch {
		case strings.HasPrefix(de.Name(), "."):
		case de.IsDir():
			out = append(out, de.Name())
		case de.Type()&fs.ModeSymlink != 0:
			t.skip(filepath.Join(folder, de.Name()), "a symbolic link")
		}
	}
	return out, nil
}

// readFile reads a regular file of the tree (safefile, at most
// store.EntryReadMax) without following a link (a file swapped for a link
// after the listing fails) and without blocking on a FIFO swapped in; it
// returns the file's stat as read.
func (t *tree) readFile(rel string) ([]byte, fs.FileInfo, error) {
	path := filepath.Join(t.root, rel)
	return safefile.ReadFileInfo(path, safefile.Options{Limit: store.EntryReadMax, What: "page", NoFollow: true})
}
