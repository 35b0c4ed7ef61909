// Package recalled is what the session history says the agent's recalls
// returned: per entry name, how many recorded recalls returned it and
// when last (read from the same sessions as the archive references),
// shown as a badge on the list's rows and a line on the preview's card,
// and the filter of the entries none returned. It counts what the agent
// got then; `crmem recalls --report` adds what it would get now. Like
// the parts, it reads what the root lends it and cannot import the root.
package recalled

import (
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/crmem/crmem/internal/humanize"
	"github.com/crmem/crmem/store"
	"github.com/crmem/crmem/store/recalls"
	"github.com/crmem/crmem/store/sessions"
	"github.com/crmem/crmem/tui/part"
)

// State is the recalls read, and whether only the entries none returned
// are listed.
type State struct {
	then   *recalls.Then // per name, what the recorded recalls returned
	loaded bool
	err    error
	seq    int  // drops stale reads
	never  bool // list only entries no recorded recall returned
	// known is the memory's names as last loaded, to read results against
	// (recalls.NameSet).
	known recalls.Known
}

// ReadMsg carries a read of the recalls; the root hands it to Take.
type ReadMsg struct {
	seq  int
	then *recalls.Then
	err  error
}

// Read reads every session's recalls off the update loop, one session at
// a time, keeping only the counts (recalls.ReadThen, as `crmem stats`
// reads them), each result read against the names of entries; changed
// false says the memory did not change since the last read (its names
// are those of then).
func (s *State) Read(r store.SessionsReader, entries []store.Entry, changed bool) tea.Cmd {
	s.seq++
	seq := s.seq
	if changed {
		s.known = recalls.NameSet(entries)
	}
	known := s.known
	return func() tea.Msg {
		then, err := recalls.ReadThen(r, sessions.RecallOptions{}, known)
		return ReadMsg{seq: seq, then: then, err: err}
	}
}

// Reads is how many reads were started.
func (s *State) Reads() int { return s.seq }

// Take installs a read and reports whether it did (a stale one is
// dropped): what depends on it is to be drawn again.
func (s *State) Take(msg ReadMsg) bool {
	if msg.seq != s.seq {
		return false
	}
	s.then, s.err, s.loaded = msg.then, msg.err, true
	return true
}

// History is the recall history read, for the stats panel; nil while it
// is read or when it could not be.
func (s *State) History() *recalls.Then {
	if !s.loaded || s.err != nil {
		return nil
	}
	return s.then
}

// Times is how many recorded recalls returned e (by its name, as the
// recall's result names it), and the latest time.
func (s *State) Times(e store.Entry) (int, time.Time) { return s.then.Count(e.Name) }

// Recalls is how many recorded recalls were read.
func (s *State) Recalls() int {
	if s.then == nil {
		return 0
	}
	return s.then.Recalls
}

// Never reports whether only the entries no recorded recall returned are
// listed.
func (s *State) Never() bool { return s.never }

// ToggleNever lists only the entries no recorded recall returned, or
// everything again; false (and nothing changed) while the recalls are
// still being read.
func (s *State) ToggleNever() bool {
	if !s.loaded {
		return false
	}
	s.never = !s.never
	return true
}

// Badge marks an entry recorded recalls returned: "3×".
func (s *State) Badge(st *part.Styles, e store.Entry) string {
	if n, _ := s.Times(e); n > 0 {
		return st.Dim.Render(" " + humanize.Count(n) + "×")
	}
	return ""
}

// Card says on the header card how often the agent's recalls returned
// the entry, and when last.
func (s *State) Card(c *part.Context, e store.Entry) []string {
	if !s.loaded || s.err != nil || s.Recalls() == 0 {
		return nil
	}
	st := c.Styles
	label := st.Label.Render("recalled ")
	n, last := s.Times(e)
	if n == 0 {
		return []string{label + st.Dim.Render("never, by none of "+humanize.Plural(s.Recalls(), "recorded recall"))}
	}
	text := humanize.Count(n) + "× of " + humanize.Plural(s.Recalls(), "recorded recall")
	if !last.IsZero() {
		text += ", last " + humanize.Ago(c.Now(), uint64(max(last.Unix(), 0)))
	}
	return []string{label + text}
}
