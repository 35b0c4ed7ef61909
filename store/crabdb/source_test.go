package crabdb

import (
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"github.com/crmem/crmem/store"
)

// TestSourceRecallAndSessions: the store's recall comes back as the
// memory's own ids, explained hit for hit; its sessions read as the
// sessions folder would give them.
func TestSourceRecallAndSessions(t *testing.T) {
	s, err := NewSource(filepath.Join(refDir, "small.crmem"))
	if err != nil {
		t.Fatal(err)
	}
	mem := s.Memory()
	ids, parts, err := s.Features().Recall.Recall("deploy", 10)
	if err != nil || len(ids) == 0 || len(ids) != len(parts) {
		t.Fatalf("recall: %d ids, %d parts, %v", len(ids), len(parts), err)
	}
	for i, h := range ids {
		e, ok := mem.Get(h.ID)
		if !ok || e.Name != parts[i].Name || h.Score != parts[i].Score || h.ID <= IDBase {
			t.Errorf("hit %d: id %d (%v) %q, part %q", i, h.ID, ok, e.Name, parts[i].Name)
		}
	}
	if st := s.Features().Recall.RecallStats(); st.Docs == 0 {
		t.Errorf("stats: %+v", st)
	}
	ss, err := s.Features().Sessions.Read()
	if err != nil || len(ss) == 0 {
		t.Errorf("sessions: %v, %v", ss, err)
	}
}

// TestContents: one read of the store gives its entries as a decoded file
// with what it wrote (key, kind, created_at as text), its own recall into
// the contents' ids, read-only.
func TestContents(t *testing.T) {
	storePath := filepath.Join(refDir, "small.crmem")
	want, _ := openFixture(t, "small.crmem").Entries() // checked against small.entries.jsonl
	data, err := os.ReadFile(storePath)
	if err != nil {
		t.Fatal(err)
	}
	c, err := Contents(storePath, data)
	if err != nil {
		t.Fatal(err)
	}
	f := c.Features
	if f.Format != FormatName || f.Stored == nil || f.Recall == nil || !f.ReadOnly() || len(c.File.Entries) != len(want) {
		t.Fatalf("store: %d entries, features %+v", len(c.File.Entries), f)
	}
	for i, e := range c.File.Entries {
		s, ok := f.Stored.Stored(e.ID)
		if !ok || e.Name != want[i].Name || s.Key != want[i].Key || s.Kind != want[i].Kind || s.CreatedAt != want[i].CreatedAt || e.Content != want[i].Content {
			t.Errorf("entry %d: %q stored %+v, want %+v", i, e.Name, s, want[i])
		}
	}
	hits, _, err := f.Recall.Recall("deploy", 3)
	if err != nil || len(hits) == 0 {
		t.Fatalf("recall: %v, %v", hits, err)
	}
	if _, ok := f.Stored.Stored(hits[0].ID); !ok {
		t.Errorf("recall's id %d is not an entry of the contents", hits[0].ID)
	}
	if _, err := Contents(storePath, []byte("CRMEM\x01 not a store")); err == nil {
		t.Error("bytes that are no store were read as one")
	}
}

// TestSourceHits: the store's recall gives every hit of a query
// (Recaller.Hits) from one run of its own recall: the first limit as
// Recall gives them, explained when asked (else no parts), and every hit
// as Recall with no limit; its terms take a trailing `*` as a prefix;
// it expands prefixes itself, so it is no store.Expander.
func TestSourceHits(t *testing.T) {
	s, err := NewSource(filepath.Join(refDir, "small.crmem"))
	if err != nil {
		t.Fatal(err)
	}
	r := s.Features().Recall
	every, everyParts, err := r.Recall("depl*", math.MaxInt32)
	if err != nil || len(every) < 3 {
		t.Fatalf("recall: %d hits, %v", len(every), err)
	}
	h, err := r.Hits("depl*", 2, true)
	if err != nil || !slices.Equal(h.Top, every[:2]) || !slices.Equal(h.All, every) || !reflect.DeepEqual(h.Parts, everyParts[:2]) {
		t.Errorf("hits: top %v, %d in all, parts %+v, %v", h.Top, len(h.All), h.Parts, err)
	}
	if h, _ := r.Hits("depl*", 2, false); h.Parts != nil || len(h.Top) != 2 {
		t.Errorf("unexplained: %d listed, parts %+v", len(h.Top), h.Parts)
	}
	if h, _ := r.Hits("depl*", 0, false); len(h.Top) != 0 || len(h.All) != len(every) {
		t.Errorf("limit 0: %d listed, %d in all", len(h.Top), len(h.All))
	}
	if got := r.Terms("Deploy depl*"); !slices.Equal(got, []store.RecallTerm{{Text: "deploy"}, {Text: "depl", Prefix: true}}) {
		t.Errorf("terms %v", got)
	}
	if _, ok := r.(store.Expander); ok {
		t.Error("the store's recall is an Expander: the screen would expand a word the store expands itself")
	}
}
