package marks

import (
	"math"
	"strings"
	"testing"
	"time"

	"github.com/crmem/crmem/store"
)

// TestSet_KeepsWhatWasMarked: a mark keeps the entry as it was when
// marked and counts its bytes; a reload (KeepOnly) drops the marks of
// entries gone, counts the bytes again from the entries as they are now,
// and the delete question says which changed since marked and how many
// the list hides, before the warnings it is given.
func TestSet_KeepsWhatWasMarked(t *testing.T) {
	a := store.Entry{ID: 1, Name: "a", Content: "aaaa"}
	b := store.Entry{ID: 2, Name: "b", Content: "bb"}
	s := New()
	s.Put(a)
	s.Put(b)
	s.Put(b)
	if s.Len() != 2 || s.Bytes() != 6 || s.Status() != "● 2 marked · 6B" {
		t.Fatalf("two marked: %d, %d bytes, status %q", s.Len(), s.Bytes(), s.Status())
	}
	renamed := store.Entry{ID: 1, Name: "a2", Content: "aaaaaaaa"}
	now := map[uint64]store.Entry{1: renamed}
	lookup := func(id uint64) (store.Entry, bool) { e, ok := now[id]; return e, ok }
	dropped := s.KeepOnly(lookup)
	if len(dropped) != 1 || dropped[0].Name != "b" || s.Len() != 1 || s.Bytes() != 8 {
		t.Fatalf("after the reload: dropped %v, %d marked, %d bytes", dropped, s.Len(), s.Bytes())
	}
	if got := Dropped(dropped, []store.Entry{renamed}); got != "⚠ unmarked b: another writer removed it" {
		t.Errorf("dropped: %q", got)
	}
	if got := Dropped(dropped, []store.Entry{{ID: 3, Name: "b"}}); !strings.Contains(got, "replaced it (the new b is not marked)") {
		t.Errorf("replaced: %q", got)
	}
	es := s.Entries(lookup)
	text, warn := s.DeleteQuestion(es, 1, " ⚠ more")
	if text != "delete 1 entry marked (8B): a2?" {
		t.Errorf("question %q", text)
	}
	if want := " ⚠ all 1 hidden by the current filter or search ⚠ changed since you marked it: a2 (was a) ⚠ more"; warn != want {
		t.Errorf("warnings %q\nwant     %q", warn, want)
	}
	s.Clear()
	if s.Len() != 0 || s.Bytes() != 0 || s.Status() != "" {
		t.Errorf("cleared: %d marked, %d bytes", s.Len(), s.Bytes())
	}
}

// TestArchivesBefore: only archives older than the cutoff that the filter
// keeps; a created_at above MaxInt64 is not an ancient archive, and
// nothing is older than the epoch.
func TestArchivesBefore(t *testing.T) {
	cutoff := time.Unix(1000, 0)
	es := []store.Entry{
		{ID: 1, Kind: store.Archive, CreatedAt: 10},
		{ID: 2, Kind: store.Archive, CreatedAt: math.MaxUint64},
		{ID: 3, Kind: store.Note, CreatedAt: 10},
		{ID: 4, Kind: store.Archive, CreatedAt: 20},
	}
	got := ArchivesBefore(es, cutoff, func(e store.Entry) bool { return e.ID != 4 })
	if len(got) != 1 || got[0].ID != 1 {
		t.Errorf("archives before: %v, want only 1", got)
	}
	if got := ArchivesBefore(es, time.Unix(0, 0), nil); got != nil {
		t.Errorf("before the epoch: %v", got)
	}
}

func TestSpanQuestion(t *testing.T) {
	for _, tt := range []struct {
		v           string
		d           time.Duration
		want, brief string
	}{
		{"6m", 6 * time.Minute, `"6m" is 6 minutes: did you mean months (6mo)? Mark the archives older than 6 minutes?`, "6m = 6 min; did you mean months (6mo)? Mark >6 min?"},
		{"12h", 12 * time.Hour, `"12h" is 12 hours, under a day: mark the archives older than 12 hours?`, ""},
		{"0d", 0, `"0d" is no time at all: mark every archive?`, ""},
	} {
		if got := SpanQuestion(tt.v, tt.d); got != tt.want {
			t.Errorf("SpanQuestion(%q) = %q, want %q", tt.v, got, tt.want)
		}
		if got := SpanBrief(tt.v, tt.d); got != tt.brief {
			t.Errorf("SpanBrief(%q) = %q, want %q", tt.v, got, tt.brief)
		}
	}
}
