package hygiene

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/pelletier/go-toml/v2"

	"github.com/crmem/crmem/internal/safefile"
	"github.com/crmem/crmem/store"
)

// NotDuplicates are the pairs of entries, by name, that the user said are
// not duplicates, kept in a small TOML file beside the memory file
// (NotDuplicatesPath): the memory file belongs to the agent and its format
// has no place for it, and a file beside it follows the memory when it is
// copied or moved with its folder. Names rather than ids, because a name is
// what the user typed and what both formats share. The nil *NotDuplicates
// holds no pairs.
type NotDuplicates struct {
	path    string
	pairs   [][2]string // each sorted, the list sorted
	pending []pairChange
}

// pairChange is an Add or Remove not yet saved: Save applies them to the
// file as it is then, so concurrent writers keep each other's pairs.
type pairChange struct {
	pair [2]string
	add  bool
}

// notDupFile is the file's TOML form.
type notDupFile struct {
	Pairs [][2]string `toml:"pairs"`
}

// maxNotDupBytes caps the file read: a few thousand pairs fit easily.
const maxNotDupBytes = 1 << 20

// NotDuplicatesPath is the file beside memoryPath that remembers pairs
// that are not duplicates: "memory.db" → "memory.db.not-duplicates.toml".
func NotDuplicatesPath(memoryPath string) string {
	return memoryPath + ".not-duplicates.toml"
}

// NotDuplicatesOf reads the pairs remembered as not duplicates for the
// memory file at memoryPath (the file beside it, NotDuplicatesPath): the
// one read of them for crmem lint, its --not-duplicate and the TUI's
// findings.
func NotDuplicatesOf(memoryPath string) (*NotDuplicates, error) {
	return LoadNotDuplicates(NotDuplicatesPath(memoryPath))
}

// LoadNotDuplicates reads the pairs kept at path; a missing file holds
// none.
func LoadNotDuplicates(path string) (*NotDuplicates, error) {
	pairs, err := readPairs(path)
	if err != nil {
		return nil, err
	}
	return &NotDuplicates{path: path, pairs: pairs}, nil
}

// readPairs reads the file at path (missing: no pairs) as every file crmem
// did not write is read (safefile: a regular file, capped, never
// blocking).
func readPairs(path string) ([][2]string, error) {
	data, err := safefile.ReadFile(path, safefile.Options{Limit: maxNotDupBytes, What: "not-duplicates file"})
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read not-duplicates: %w", err)
	}
	var file notDupFile
	if err := toml.Unmarshal(data, &file); err != nil {
		return nil, fmt.Errorf("read not-duplicates %s: %w", path, err)
	}
	var pairs [][2]string
	for _, p := range file.Pairs {
		pairs, _ = addPair(pairs, p[0], p[1])
	}
	return pairs, nil
}

// Path is the file the pairs are kept in.
func (n *NotDuplicates) Path() string { return n.path }

// pairOf is a and b in order.
func pairOf(a, b string) [2]string {
	if b < a {
		a, b = b, a
	}
	return [2]string{a, b}
}

// Has reports whether the user said entries named a and b are not
// duplicates.
func (n *NotDuplicates) Has(a, b string) bool {
	if n == nil {
		return false
	}
	_, ok := slices.BinarySearchFunc(n.pairs, pairOf(a, b), comparePairs)
	return ok
}

// Add remembers that a and b are not duplicates; it reports whether the
// pair is new. Save writes it.
func (n *NotDuplicates) Add(a, b string) bool {
	var added bool
	n.pairs, added = addPair(n.pairs, a, b)
	if added {
		n.pending = append(n.pending, pairChange{pairOf(a, b), true})
	}
	return added
}

// addPair inserts the pair a, b into sorted pairs unless it is there (or
// a is b).
func addPair(pairs [][2]string, a, b string) ([][2]string, bool) {
	p := pairOf(a, b)
	i, ok := slices.BinarySearchFunc(pairs, p, comparePairs)
	if ok || a == b {
		return pairs, false
	}
	return slices.Insert(pairs, i, p), true
}

// removePair deletes the pair a, b from sorted pairs if it is there.
func removePair(pairs [][2]string, a, b string) ([][2]string, bool) {
	i, ok := slices.BinarySearchFunc(pairs, pairOf(a, b), comparePairs)
	if ok {
		pairs = slices.Delete(pairs, i, i+1)
	}
	return pairs, ok
}

func comparePairs(a, b [2]string) int {
	if c := compareStrings(a[0], b[0]); c != 0 {
		return c
	}
	return compareStrings(a[1], b[1])
}

func compareStrings(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// Save writes the pairs added and removed since the load to their file,
// as a memory write is saved (store.UpdateFile): under the folder's lock,
// on the file as it is then — so pairs another crmem saved meanwhile are
// kept — atomically, with the file's mode kept and the folder synced.
// Afterwards n holds the pairs of the file as written.
func (n *NotDuplicates) Save() error {
	err := store.UpdateFile(n.path, func(target string) ([]byte, error) {
		pairs, err := readPairs(target)
		if err != nil {
			return nil, err
		}
		for _, c := range n.pending {
			if c.add {
				pairs, _ = addPair(pairs, c.pair[0], c.pair[1])
			} else {
				pairs, _ = removePair(pairs, c.pair[0], c.pair[1])
			}
		}
		removeOldTemps(target)
		removeOldTemps(n.path) // named after the link, when it is one
		var buf bytes.Buffer
		buf.WriteString("# Pairs of entries (by name) that `crmem lint` does not call duplicates.\n")
		buf.WriteString("# Written by `crmem lint --not-duplicate A B`; edit freely.\n")
		data, err := toml.Marshal(notDupFile{Pairs: pairs})
		if err != nil {
			return nil, err
		}
		buf.Write(data)
		n.pairs, n.pending = pairs, nil
		return buf.Bytes(), nil
	})
	if err != nil {
		return fmt.Errorf("write not-duplicates %s: %w", n.path, err)
	}
	return nil
}

// removeOldTemps deletes the temp files earlier versions of crmem left
// beside the file when killed mid-write (".NAME.<digits>", os.CreateTemp's
// names); the caller holds the folder's lock.
func removeOldTemps(target string) {
	dir, prefix := filepath.Dir(target), "."+filepath.Base(target)+"."
	names, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, de := range names {
		digits, ok := strings.CutPrefix(de.Name(), prefix)
		if ok && digits != "" && strings.Trim(digits, "0123456789") == "" && de.Type().IsRegular() {
			os.Remove(filepath.Join(dir, de.Name()))
		}
	}
}
