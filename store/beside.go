package store

import (
	"fmt"
	"os"
	"path/filepath"
)

// UpdateFile rewrites a small file crmem keeps beside a memory file (the
// not-duplicates file) the way a memory write does: under the lock memory
// writes take on the folder, so two crmem processes updating it queue and
// neither loses the other's change; temp files a killed writer left there
// removed first; and, when update returns data, the file replaced
// atomically — a link written through to its target, the old file's
// permission bits and owner kept (0600 for a new one), the data synced
// before the rename and the folder after it.
//
// update is called with the file's resolved path, under the lock, to read
// the current version and return the next; nil data writes nothing.
func UpdateFile(path string, update func(target string) ([]byte, error)) error {
	target, err := resolveTarget(path)
	if err != nil {
		return err
	}
	unlock, err := lockDir(filepath.Dir(target), 0, nil)
	if err != nil {
		return err
	}
	defer unlock()
	removeTemps(target)
	data, err := update(target)
	if err != nil || data == nil {
		return err
	}
	tmp, _, err := tempFile{data: data, meta: metaOf(target)}.write(target)
	if err != nil {
		return err
	}
	if err := os.Rename(tmp, target); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("replace %s: %w", target, err)
	}
	return syncDir(filepath.Dir(target))
}
