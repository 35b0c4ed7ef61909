package crabdb

import (
	"os"
	"path/filepath"
	"testing"
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
