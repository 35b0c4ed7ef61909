package crabdb

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/crmem/crmem/store"
)

// TestOpenSourceFeatures: OpenSource picks the format by structure, and
// each format carries its capabilities: a v1 file is writable and searched
// by BM25 over its index, its sessions in the folder beside it; crabtalk's
// store is read-only, recalls with its own recall and holds its sessions.
func TestOpenSourceFeatures(t *testing.T) {
	dir := t.TempDir()
	data, err := os.ReadFile(filepath.Join(refDir, "small.crmem"))
	if err != nil {
		t.Fatal(err)
	}
	storePath := filepath.Join(dir, "store.crmem")
	if err := os.WriteFile(storePath, data, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, path, format        string
		readOnly, recall, session bool
	}{
		{"v1", filepath.Join(dir, "memory.db"), "CRMEM v1", false, false, false},
		{"store", storePath, "crabtalk store", true, true, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src, err := OpenSource(tc.path)
			if err != nil {
				t.Fatal(err)
			}
			f := src.Features()
			if f.Format != tc.format || f.ReadOnly() != tc.readOnly || (f.Recall != nil) != tc.recall || (f.Sessions != nil) != tc.session {
				t.Errorf("features = %+v (read-only %v)", f, f.ReadOnly())
			}
			if src.Path() != tc.path {
				t.Errorf("path = %q", src.Path())
			}
		})
	}
}

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

// TestReadContents: one read of either format gives the entries as a
// decoded file and the format's features; the store's entries come with
// what it wrote (key, kind, created_at as text) and its own recall, a v1
// file's with neither, and a v1 file that does not decode is refused with
// its path.
func TestReadContents(t *testing.T) {
	dir := t.TempDir()
	v1 := filepath.Join(dir, "memory.db")
	if err := os.WriteFile(v1, store.Encode(2, []store.Entry{{ID: 1, Name: "a", Content: "alpha"}}), 0o600); err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join(dir, "bad.db")
	if err := os.WriteFile(bad, []byte("CRMEM\x01 not a memory"), 0o600); err != nil {
		t.Fatal(err)
	}
	storePath := filepath.Join(refDir, "small.crmem")
	want, _ := openFixture(t, "small.crmem").Entries() // checked against small.entries.jsonl

	c, err := ReadContents(v1)
	if err != nil || c.Features.Format != store.FormatV1 || c.Features.Stored != nil || c.Features.Recall != nil || len(c.File.Entries) != 1 {
		t.Fatalf("v1: %+v, %v", c, err)
	}
	if _, err := ReadContents(bad); err == nil {
		t.Error("a file that is neither format was read")
	} else if pe := (*store.PathError)(nil); !errors.As(err, &pe) || pe.Path != bad {
		t.Errorf("error %v does not name %s", err, bad)
	}

	c, err = ReadContents(storePath)
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
}
