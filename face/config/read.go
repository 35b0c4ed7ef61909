package config

import (
	"encoding/json"
	"fmt"

	"github.com/crmem/crmem/internal/safefile"
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

// readCapped reads the file at path as crmem reads every file it did not
// write (safefile.ReadFile): only a regular file, after symlinks, is read
// (safefile.ErrNotRegular at once otherwise), opening never blocks (a FIFO
// would wait for a writer), and no more than limit bytes are read: a file
// over it, or one that grows past it while read, is a
// *safefile.TooLargeError.
func readCapped(path string, limit int64, what string) ([]byte, error) {
	return safefile.ReadFile(path, safefile.Options{Limit: limit, What: what})
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
