package hygiene

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"

	"github.com/pelletier/go-toml/v2"

	"github.com/crmem/crmem/internal/safefile"
)

// NotDuplicates are the pairs of entries, by name, that the user said are
// not duplicates, kept in a small TOML file beside the memory file
// (NotDuplicatesPath): the memory file belongs to the agent and its format
// has no place for it, and a file beside it follows the memory when it is
// copied or moved with its folder. Names rather than ids, because a name is
// what the user typed and what both formats share. The nil *NotDuplicates
// holds no pairs.
type NotDuplicates struct {
	path  string
	pairs [][2]string // each sorted, the list sorted
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

// LoadNotDuplicates reads the pairs kept at path; a missing file holds
// none.
func LoadNotDuplicates(path string) (*NotDuplicates, error) {
	n := &NotDuplicates{path: path}
	data, err := safefile.ReadFile(path, safefile.Options{Limit: maxNotDupBytes, What: "not-duplicates file"})
	if errors.Is(err, fs.ErrNotExist) {
		return n, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read not-duplicates: %w", err)
	}
	var file notDupFile
	if err := toml.Unmarshal(data, &file); err != nil {
		return nil, fmt.Errorf("read not-duplicates %s: %w", path, err)
	}
	for _, p := range file.Pairs {
		n.Add(p[0], p[1])
	}
	return n, nil
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
	p := pairOf(a, b)
	i, ok := slices.BinarySearchFunc(n.pairs, p, comparePairs)
	if ok || a == b {
		return false
	}
	n.pairs = slices.Insert(n.pairs, i, p)
	return true
}

// Remove forgets the pair a, b; it reports whether it was there.
func (n *NotDuplicates) Remove(a, b string) bool {
	i, ok := slices.BinarySearchFunc(n.pairs, pairOf(a, b), comparePairs)
	if ok {
		n.pairs = slices.Delete(n.pairs, i, i+1)
	}
	return ok
}

// Pairs returns the pairs, each in name order, sorted.
func (n *NotDuplicates) Pairs() [][2]string {
	if n == nil {
		return nil
	}
	return slices.Clone(n.pairs)
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

// Save writes the pairs to their file atomically (a temporary file in the
// same folder, synced, then renamed over it).
func (n *NotDuplicates) Save() error {
	var buf bytes.Buffer
	buf.WriteString("# Pairs of entries (by name) that `crmem lint` does not call duplicates.\n")
	buf.WriteString("# Written by `crmem lint --not-duplicate A B`; edit freely.\n")
	data, err := toml.Marshal(notDupFile{Pairs: n.pairs})
	if err != nil {
		return fmt.Errorf("write not-duplicates: %w", err)
	}
	buf.Write(data)
	return writeAtomic(n.path, buf.Bytes())
}

// writeAtomic replaces path with data: a reader sees the old file or the
// new one, never a part.
func writeAtomic(path string, data []byte) (err error) {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return fmt.Errorf("write not-duplicates: %w", err)
	}
	defer func() {
		if err != nil {
			os.Remove(tmp.Name()) // a failed write leaves no temp file behind
		}
	}()
	if _, err = tmp.Write(data); err == nil {
		err = tmp.Sync() // the data is on disk before the name points at it
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		return fmt.Errorf("write not-duplicates %s: %w", path, err)
	}
	return nil
}
