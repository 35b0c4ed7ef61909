package config

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/crmem/crmem/internal/humanize"
	"github.com/crmem/crmem/store"
)

// The caps on what crmem reads from the files it is configured with. A
// config a person writes is a few kilobytes; glamour's own style files are
// under 10 kB. Without a cap, a path to /dev/zero or a runaway file would
// be read until memory runs out.
const (
	// ConfigFileMax is the largest config file read (1 MiB).
	ConfigFileMax = 1 << 20
	// StyleFileMax is the largest glamour style file read (256 KiB).
	StyleFileMax = 256 << 10
	// maxBindingKeys bounds the keys of one binding in [keys].
	maxBindingKeys = 16
	// maxFileKeys bounds the keys and tables a config file writes; every
	// setting and binding together are under 100.
	maxFileKeys = 1000
)

// errTooLarge is returned by readCapped for a file over its cap.
type errTooLarge struct {
	size, limit int64
	what        string
}

// Error is "too large: 52,428,800 bytes (a config file holds at most 1 MiB)".
func (e *errTooLarge) Error() string {
	return fmt.Sprintf("too large: %s bytes (a %s holds at most %s)",
		humanize.Count(int(e.size)), e.what, capText(e.limit))
}

// capText writes a cap in KiB or MiB.
func capText(n int64) string {
	if n >= 1<<20 && n%(1<<20) == 0 {
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return fmt.Sprintf("%d KiB", n>>10)
}

// readCapped reads the file at path as crmem reads the memory file (store.
// OpenRegular): only a regular file, after symlinks, is read
// (store.ErrNotRegular at once otherwise), opening never blocks (a FIFO
// would wait for a writer), and no more than limit bytes are read: a file
// over it, or one that grows past it while read, is an *errTooLarge.
func readCapped(path string, limit int64, what string) ([]byte, error) {
	f, fi, err := store.OpenRegular(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if fi.Size() > limit {
		return nil, &errTooLarge{size: fi.Size(), limit: limit, what: what}
	}
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit {
		return nil, &errTooLarge{size: int64(len(data)), limit: limit, what: what}
	}
	return data, nil
}

// ReadStyleFile reads a glamour style file: a regular file of at most
// StyleFileMax bytes holding JSON. Every reader of a style file (the
// configuration's check and the TUI's renderer) reads it this way.
func ReadStyleFile(path string) ([]byte, error) {
	data, err := readCapped(path, StyleFileMax, "style file")
	if err != nil {
		return nil, fmt.Errorf("style file %s: %w", path, unwrapPath(err))
	}
	if !json.Valid(data) {
		return nil, fmt.Errorf("style file %s: not valid JSON", path)
	}
	return data, nil
}
