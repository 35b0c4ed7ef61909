package crabdb

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestFixtures_MatchTheirGeneration checks each store fixture against what
// crabtalk's code recorded when it wrote it (generation.json): the header's
// snapshot offset and length, the file's size, and the memory index's
// stored stats. A fixture named there but not copied (medium) is skipped.
func TestFixtures_MatchTheirGeneration(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join(refDir, "generation.json"))
	if err != nil {
		t.Fatal(err)
	}
	var gen map[string]json.RawMessage
	if err := json.Unmarshal(raw, &gen); err != nil {
		t.Fatal(err)
	}
	checked := 0
	for key, val := range gen {
		name, part, ok := strings.Cut(key, "_")
		if !ok || (part != "header" && part != "stats") {
			continue
		}
		data, err := os.ReadFile(filepath.Join(refDir, name+".crmem"))
		if os.IsNotExist(err) {
			continue
		} else if err != nil {
			t.Fatal(err)
		}
		switch part {
		case "header":
			var w struct {
				IndexAt  uint64 `json:"index_at"`
				IndexLen uint64 `json:"index_len"`
				Size     uint64 `json:"size"`
			}
			if err := json.Unmarshal(val, &w); err != nil {
				t.Fatalf("%s: %v", key, err)
			}
			h, err := ParseHeader(data)
			if err != nil {
				t.Fatalf("%s: %v", key, err)
			}
			if h.IndexAt != w.IndexAt || h.IndexLen != w.IndexLen || uint64(len(data)) != w.Size {
				t.Errorf("%s: header {%d %d} size %d, generation says %+v", key, h.IndexAt, h.IndexLen, len(data), w)
			}
		case "stats":
			var w struct{ Stored Stats }
			if err := json.Unmarshal(val, &w); err != nil {
				t.Fatalf("%s: %v", key, err)
			}
			s, err := Read(data)
			if err != nil {
				t.Fatalf("%s: %v", key, err)
			}
			st, ok, err := s.Stats()
			if err != nil || !ok || st != w.Stored {
				t.Errorf("%s: stored stats %+v (ok %v, %v), generation says %+v", key, st, ok, err, w.Stored)
			}
		}
		checked++
	}
	if checked < 5 { // small, compacted and empty headers; small and compacted stats
		t.Errorf("checked %d header/stats records, want the 5 of the copied fixtures", checked)
	}
}
