// Package marks is the screen's marks: the entries marked for a bulk
// delete (space, *, O, U, D), each kept as it was when marked, and what
// is said of them (the status line's count, the delete question's
// warnings, a reload that unmarked some, the age asked for old
// archives). It reads entries the root hands it and cannot reach the
// root; the keys that mark are still the editing part's actions.
package marks

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/crmem/crmem/internal/humanize"
	"github.com/crmem/crmem/internal/sanitize"
	"github.com/crmem/crmem/store"
	"github.com/crmem/crmem/tui/part"
)

// Set is the marked entries by id, each as it was when marked (what D
// deletes, and what "changed since you marked it" compares with), and
// their content bytes, for the status line.
type Set struct {
	byID  map[uint64]store.Entry
	bytes int
}

// New is an empty set.
func New() Set { return Set{byID: map[uint64]store.Entry{}} }

// Has reports whether the entry with id is marked.
func (s *Set) Has(id uint64) bool { _, ok := s.byID[id]; return ok }

// As returns the entry with id as it was when marked.
func (s *Set) As(id uint64) (store.Entry, bool) {
	e, ok := s.byID[id]
	return e, ok
}

// ByID is the marked entries by id, to read (the list draws a mark
// beside each): never change it.
func (s *Set) ByID() map[uint64]store.Entry { return s.byID }

// Put marks e, unless it is marked.
func (s *Set) Put(e store.Entry) {
	if !s.Has(e.ID) {
		s.byID[e.ID] = e
		s.bytes += len(e.Content)
	}
}

// Drop unmarks e, given as it is now: the bytes count the entries as
// they are now (KeepOnly counts them again after a reload).
func (s *Set) Drop(e store.Entry) {
	if s.Has(e.ID) {
		delete(s.byID, e.ID)
		s.bytes -= len(e.Content)
	}
}

// Len is how many entries are marked.
func (s *Set) Len() int { return len(s.byID) }

// Bytes is the marked entries' content bytes (kept up to date as marks
// change, so the status line costs nothing per frame).
func (s *Set) Bytes() int { return s.bytes }

// IDs returns the marked entries' ids, in no order.
func (s *Set) IDs() []uint64 {
	ids := make([]uint64, 0, len(s.byID))
	for id := range s.byID {
		ids = append(ids, id)
	}
	return ids
}

// Clear unmarks everything.
func (s *Set) Clear() { *s = New() }

// Reserve makes room for n marks at once when nothing is marked, so that
// marking 100k entries does not rehash the map as it grows (about a fifth
// of `*`'s CPU profile at 100k).
func (s *Set) Reserve(n int) {
	if len(s.byID) == 0 && n > 0 {
		s.byID = make(map[uint64]store.Entry, n)
	}
}

// Lookup finds an entry of the memory as shown now by its id.
type Lookup func(id uint64) (store.Entry, bool)

// KeepOnly drops the marks of entries the memory shown (now) no longer
// holds and returns them, as they were when marked; the bytes are
// counted again from now (an entry may have changed since it was
// marked).
func (s *Set) KeepOnly(now Lookup) (dropped []store.Entry) {
	s.bytes = 0
	for id, was := range s.byID {
		if e, ok := now(id); ok {
			s.bytes += len(e.Content)
		} else {
			dropped = append(dropped, was)
			delete(s.byID, id)
		}
	}
	return dropped
}

// Entries returns the marked entries as they are now (now), in ascending
// id order; those now no longer holds are left out.
func (s *Set) Entries(now Lookup) []store.Entry {
	ids := s.IDs()
	slices.Sort(ids)
	out := make([]store.Entry, 0, len(ids))
	for _, id := range ids {
		if e, ok := now(id); ok {
			out = append(out, e)
		}
	}
	return out
}

// Status is the status line's segment: "● 12 marked · 4.1 KiB", "" when
// nothing is marked.
func (s *Set) Status() string {
	if s.Len() == 0 {
		return ""
	}
	return fmt.Sprintf("● %s marked · %s", humanize.Count(s.Len()), humanize.Size(s.bytes))
}

// Changed names the entries of es (as they are now) that differ from
// what was marked, "b (was a), c", and counts them; "" when none does.
func (s *Set) Changed(es []store.Entry) (string, int) {
	var names []string
	for _, e := range es {
		was, ok := s.As(e.ID)
		if !ok || SameState(was, e) {
			continue
		}
		name := sanitize.Name(e.Name)
		if was.Name != e.Name {
			name += " (was " + sanitize.Name(was.Name) + ")"
		}
		names = append(names, name)
	}
	if len(names) == 0 {
		return "", 0
	}
	return part.FirstOf(names, MaxNames), len(names)
}

// MaxNames is how many names a warning about marks lists before it
// counts the rest.
const MaxNames = 3

// SameState reports whether two states of an entry are the same in every
// field a user sees.
func SameState(a, b store.Entry) bool {
	return a.Name == b.Name && a.Content == b.Content && a.Kind == b.Kind &&
		a.CreatedAt == b.CreatedAt && slices.Equal(a.Aliases, b.Aliases)
}

// Dropped reports marks a reload dropped because another writer removed
// their entries, or replaced them (removed, then added under the same
// name: a new id, not marked), now being the entries after it; "" when
// none was dropped.
func Dropped(dropped, now []store.Entry) string {
	if len(dropped) == 0 {
		return ""
	}
	replaced := map[string]bool{}
	for _, e := range dropped {
		replaced[e.Name] = false
	}
	for _, e := range now {
		if _, ok := replaced[e.Name]; ok {
			replaced[e.Name] = true
		}
	}
	if len(dropped) == 1 {
		name := sanitize.Name(dropped[0].Name)
		if replaced[dropped[0].Name] {
			return fmt.Sprintf("⚠ unmarked %s: another writer replaced it (the new %s is not marked)", name, name)
		}
		return fmt.Sprintf("⚠ unmarked %s: another writer removed it", name)
	}
	names := make([]string, len(dropped))
	for i, e := range dropped {
		names[i] = sanitize.Name(e.Name)
	}
	return fmt.Sprintf("⚠ unmarked %s another writer removed or replaced: %s",
		humanize.Plural(len(dropped), "entry"), part.FirstOf(names, MaxNames))
}

// FirstNames names the first n entries of es and counts the rest.
func FirstNames(es []store.Entry, n int) string {
	names := make([]string, 0, min(n, len(es)))
	for _, e := range es[:min(n, len(es))] {
		names = append(names, sanitize.Name(e.Name))
	}
	s := strings.Join(names, ", ")
	if len(es) > n {
		s += fmt.Sprintf(" and %s more", humanize.Count(len(es)-n))
	}
	return s
}

// Hidden is how many of es are not among the listed ids.
func Hidden(es []store.Entry, listed []uint64) int {
	in := make(map[uint64]bool, len(listed))
	for _, id := range listed {
		in[id] = true
	}
	n := 0
	for _, e := range es {
		if !in[e.ID] {
			n++
		}
	}
	return n
}

// DeleteQuestion is the question D asks before deleting the marked
// entries es (as they are now), and its warnings: those changed since
// they were marked, those the list does not show (hidden of them), then
// more (the mixed scripts of their names, the sessions losing their
// resume point).
func (s *Set) DeleteQuestion(es []store.Entry, hidden int, more string) (text, warn string) {
	size := 0
	for _, e := range es {
		size += len(e.Content)
	}
	text = fmt.Sprintf("delete %s marked (%s): %s?", humanize.Plural(len(es), "entry"), humanize.Size(size), FirstNames(es, 3))
	warn = more
	if names, n := s.Changed(es); n > 0 {
		it := "them"
		if n == 1 {
			it = "it"
		}
		warn = fmt.Sprintf(" ⚠ changed since you marked %s: %s", it, names) + warn
	}
	if hidden > 0 {
		h := fmt.Sprintf(" ⚠ %s of them not listed (filter, search or orphan view hides them)", humanize.Count(hidden))
		if hidden == len(es) {
			h = fmt.Sprintf(" ⚠ all %s hidden by the current filter or search", humanize.Count(hidden))
		}
		warn = h + warn
	}
	return text, warn
}

// ArchivesBefore is the archives of es created before cutoff that keep
// (nil: all) keeps: what "mark archives older than" marks.
func ArchivesBefore(es []store.Entry, cutoff time.Time, keep func(store.Entry) bool) []store.Entry {
	c := cutoff.Unix()
	if c <= 0 {
		return nil // nothing is older than the epoch
	}
	var out []store.Entry
	for _, e := range es {
		// Compared as the file's unsigned seconds: a created_at above
		// MaxInt64 must not wrap negative and pass for an ancient archive.
		if e.Kind == store.Archive && e.CreatedAt < uint64(c) && (keep == nil || keep(e)) {
			out = append(out, e)
		}
	}
	return out
}

// SpanCheck is the age prompt's check (a dialog's): it refuses what
// humanize.ParseSpan does not read as a span.
type SpanCheck struct{}

// Check refuses a text that is not a span.
func (SpanCheck) Check(_ *part.Context, v string) error {
	_, err := humanize.ParseSpan(v)
	return err
}

// SpanQuestion asks about a span under a day typed as v: minutes may
// have been months ("6m" is six minutes: did you mean 6mo?), hours are
// confirmed as hours, and no time at all ("0d", "0m") marks every
// archive.
func SpanQuestion(v string, d time.Duration) string {
	v = strings.TrimSpace(v)
	switch {
	case d == 0:
		return fmt.Sprintf("%q is no time at all: mark every archive?", v)
	case strings.HasSuffix(v, "m"):
		return fmt.Sprintf("%q is %s: did you mean months (%smo)? Mark the archives older than %s?", v, spanWords(d), strings.TrimSpace(strings.TrimSuffix(v, "m")), spanWords(d))
	}
	return fmt.Sprintf("%q is %s, under a day: mark the archives older than %s?", v, spanWords(d), spanWords(d))
}

// SpanBrief is SpanQuestion for a screen too small to hold it: at 20×3
// its middle gave way, "did you mean months" with it, the point of
// asking (issue 42 item 6). "" when the question has no brief form.
func SpanBrief(v string, d time.Duration) string {
	v = strings.TrimSpace(v)
	if d == 0 || !strings.HasSuffix(v, "m") {
		return ""
	}
	n := int(d / time.Minute)
	return fmt.Sprintf("%s = %d min; did you mean months (%smo)? Mark >%d min?", v, n, strings.TrimSpace(strings.TrimSuffix(v, "m")), n)
}

// spanWords says a span under a day in words: "6 minutes", "12 hours".
func spanWords(d time.Duration) string {
	if d < time.Hour {
		return humanize.Plural(int(d/time.Minute), "minute")
	}
	return humanize.Plural(int(d/time.Hour), "hour")
}
