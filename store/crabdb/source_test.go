package crabdb

import (
	"os"
	"path/filepath"
	"testing"
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
