package editor

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"

	"github.com/crmem/crmem/internal/safefile"
	"github.com/crmem/crmem/store"
)

// tempPattern names the private folder of an edit (os.MkdirTemp's pattern).
const tempPattern = "crmem-edit-"

// sumFile, in an edit's folder, holds the SHA-256 of the text crmem wrote
// there: a folder whose text still has that sum holds nothing the user
// typed, only crmem's copy of an entry, and may go once no process uses it.
const sumFile = ".crmem-written"

// writeSum records data's sum in the folder dir.
func writeSum(dir string, data []byte) error {
	sum := sha256.Sum256(data)
	return os.WriteFile(filepath.Join(dir, sumFile), []byte(hex.EncodeToString(sum[:])+"\n"), 0o600)
}

// RemoveStale removes the edit folders under parent ("": opts' temp
// folder) that a crmem killed during an edit left behind: each holds an
// entry's full text, which may be a secret. A folder is removed only when
// it is crmem's own (named crmem-edit-*, a real folder owned by this user,
// holding the sum of what crmem wrote), no process holds its lock (every
// live edit does, two crmem processes at once included), and its entry
// file still has the text crmem wrote: text the user saved and crmem did
// not store is theirs, kept where crmem said it was. It returns how many
// folders it removed; a folder it cannot judge is left alone.
func RemoveStale(opts Options) int {
	opts = opts.withDefaults()
	parent := opts.TempDir
	if parent == "" {
		parent = os.TempDir()
	}
	ents, err := os.ReadDir(parent)
	if err != nil {
		return 0
	}
	n := 0
	for _, de := range ents {
		if !de.IsDir() || !strings.HasPrefix(de.Name(), tempPattern) {
			continue
		}
		if removeIfStale(filepath.Join(parent, de.Name())) {
			n++
		}
	}
	return n
}

// removeIfStale removes dir if RemoveStale's rule allows.
func removeIfStale(dir string) bool {
	unlock, ok := tryLockDir(dir) // also: a real folder, ours, not in use
	if !ok {
		return false
	}
	defer unlock()
	want, err := safefile.ReadFile(filepath.Join(dir, sumFile), safefile.Options{Limit: 1 << 10, What: "edit sum", NoFollow: true})
	if err != nil {
		return false
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		return false
	}
	var entry string
	for _, de := range ents {
		if strings.HasSuffix(de.Name(), ".md") && !strings.HasPrefix(de.Name(), ".") {
			if entry != "" || !de.Type().IsRegular() {
				return false // not the folder crmem made
			}
			entry = de.Name()
		}
	}
	if entry == "" {
		return false
	}
	data, err := safefile.ReadFile(filepath.Join(dir, entry), safefile.Options{Limit: 4 * store.EntryReadMax, What: "edited entry file", NoFollow: true})
	if err != nil {
		return false
	}
	sum := sha256.Sum256(data)
	if !bytes.Equal(bytes.TrimSpace(want), []byte(hex.EncodeToString(sum[:]))) {
		return false // the user's own text, never stored: keep it
	}
	return os.RemoveAll(dir) == nil
}
