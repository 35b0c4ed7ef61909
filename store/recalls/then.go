package recalls

import (
	"fmt"
	"sync"
	"time"

	"github.com/crmem/crmem/store"
	"github.com/crmem/crmem/store/sessions"
)

// Then is what the recorded recalls returned then, per name: how many
// returned it and when the latest of them was made. It is the one count
// of "recalled N×" behind `crmem recalls --report` (inside Tally), the
// stats' recall section and the TUI's column. Once read it is only read,
// so goroutines may share it.
type Then struct {
	// Recalls is how many recalls were counted.
	Recalls int
	// Problems is what reading the sessions could not use (ReadThen);
	// Problems.Sessions is how many sessions were read.
	Problems sessions.RecallProblems
	names    map[string]thenCount
}

// thenCount is one name's recalls.
type thenCount struct {
	n    int
	last time.Time
}

// add counts one recall.
func (t *Then) add(rc sessions.Recall) {
	if t.names == nil {
		t.names = map[string]thenCount{}
	}
	t.Recalls++
	for _, name := range rc.Names {
		t.addName(name, rc.Time)
	}
}

// addName counts name returned by a recall made at (zero: unknown).
func (t *Then) addName(name string, at time.Time) {
	if t.names == nil {
		t.names = map[string]thenCount{}
	}
	c := t.names[name]
	c.n++
	if at.After(c.last) {
		c.last = at
	}
	t.names[name] = c
}

// Count is how many counted recalls returned name, and when the latest of
// them was made (zero when unknown or never).
func (t *Then) Count(name string) (n int, last time.Time) {
	if t == nil {
		return 0, time.Time{}
	}
	c := t.names[name]
	return c.n, c.last
}

// ReadThen counts what every session's recalls returned then, reading
// the sessions through r one at a time and replaying nothing: no index is
// built, so it costs only the reading. Bad input is counted in
// Then.Problems, as Stream counts it.
//
// known gives the memory's entries, to read each result against, as
// Stream does; nil reads results by their shape alone.
func ReadThen(r store.SessionsReader, opt sessions.RecallOptions, known Known) (*Then, error) {
	t := &Then{}
	resolved := 0
	p, err := r.Recalls(opt, func(s sessions.SessionRecalls) error {
		for _, rc := range s.Recalls {
			resolved += resolve(&rc, known)
			t.add(rc)
		}
		return nil
	})
	p.UnparsableResults += resolved
	t.Problems = p
	if err != nil {
		return t, fmt.Errorf("read recalls: %w", err)
	}
	return t, nil
}

// Known is the lookup Stream and ReadThen read results against: an
// entry's content by its exact name.
type Known = func(name string) (content string, ok bool)

// NameSet is entries as a Known lookup, built on its first use (a result
// listing a single entry needs none). With two entries of one name, the
// later one's content, as a lookup finds it. A name longer than every
// entry's is refused before it is hashed: Resolve asks for each line
// start of a result's blocks, most of them far longer than a name.
func NameSet(entries []store.Entry) Known { return NewNames(entries).Known }

// Names is entries' names, each to its entry: a Known lookup (NameSet)
// that a Tally's report also reads (ReportNamed), so the report looks up
// only the names the recalls gave, not every entry's. It is built on its
// first use; goroutines may share it.
type Names struct {
	entries []store.Entry
	build   func() nameSet
}

// nameSet is a Names built: each name's last entry, its index in the
// entries and its content, the longest name, and whether two entries
// share a name.
type nameSet struct {
	entry   map[string]namedEntry
	longest int
	shared  bool
}

// namedEntry is the entry of a name: its index and its content.
type namedEntry struct {
	content string
	i       int
}

// NewNames is entries' names, built on their first use.
func NewNames(entries []store.Entry) *Names {
	return &Names{entries: entries, build: sync.OnceValue(func() nameSet {
		set := nameSet{entry: make(map[string]namedEntry, len(entries))}
		for i := range entries {
			set.entry[entries[i].Name] = namedEntry{entries[i].Content, i}
			set.longest = max(set.longest, len(entries[i].Name))
		}
		set.shared = len(set.entry) < len(entries)
		return set
	})}
}

// Known is the content of the last entry named name (Known).
func (n *Names) Known(name string) (string, bool) {
	set := n.build()
	if len(name) > set.longest {
		return "", false
	}
	e, ok := set.entry[name]
	return e.content, ok
}

// Longest is the length of the longest of the entries' names: Known
// finds no longer name (sessions.RecallOptions.MaxName).
func (n *Names) Longest() int { return n.build().longest }

// MemoryNames is mem's entries as a Known lookup, as NameSet(mem.Entries())
// is but read through the memory's own name map (store.Memory's
// ContentNamed) rather than a second map of every name, and without
// copying the entries. A name longer than every entry's is refused before
// it is looked up, as NameSet refuses it.
func MemoryNames(mem *store.Memory) Known {
	longest := sync.OnceValue(mem.LongestName)
	return func(name string) (string, bool) {
		if len(name) > longest() {
			return "", false
		}
		return mem.ContentNamed(name)
	}
}
