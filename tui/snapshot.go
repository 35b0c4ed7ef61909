package tui

import (
	"strings"

	"github.com/crmem/crmem/store"
	"github.com/crmem/crmem/tui/sanitize"
)

// snapshot is an immutable view of the memory's entries with what the screen
// derives from them (safe labels, lower-case keys for name matching). It is
// built off the update loop and replaced whole on every reload.
type snapshot struct {
	entries []store.Entry // ascending id
	byID    map[uint64]int
	labels  []string // sanitized one-line names
	keys    []string // lower-case name and aliases, NUL-separated, for substring matches
	counts  [3]int   // entries per kind
}

// newSnapshot derives a snapshot from entries in ascending id order.
func newSnapshot(entries []store.Entry) *snapshot {
	s := &snapshot{
		entries: entries,
		byID:    make(map[uint64]int, len(entries)),
		labels:  make([]string, len(entries)),
		keys:    make([]string, len(entries)),
	}
	for i, e := range entries {
		s.byID[e.ID] = i
		s.labels[i] = sanitize.Line(e.Name)
		s.keys[i] = matchKey(e)
		if int(e.Kind) < len(s.counts) {
			s.counts[e.Kind]++
		}
	}
	return s
}

// matchKey is the lower-case name and aliases of e joined by NUL, so a
// substring search never matches across two of them.
func matchKey(e store.Entry) string {
	if len(e.Aliases) == 0 {
		return strings.ToLower(e.Name)
	}
	return strings.ToLower(e.Name + "\x00" + strings.Join(e.Aliases, "\x00"))
}

// entry returns the entry with id.
func (s *snapshot) entry(id uint64) (store.Entry, bool) {
	i, ok := s.byID[id]
	if !ok {
		return store.Entry{}, false
	}
	return s.entries[i], true
}

// len returns the number of entries.
func (s *snapshot) len() int { return len(s.entries) }
