package open

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/crmem/crmem/store/check"
	"github.com/crmem/crmem/store/crabdb"
)

// ref is the reference fixtures folder.
const ref = "../../testdata/reference"

// TestCheck_BothFormats: one report for either format, its format's own
// part present and the other's absent, in the JSON too.
func TestCheck_BothFormats(t *testing.T) {
	for _, tc := range []struct {
		fixture, name, format string
		entries, missing      int
		jsonHas, jsonLacks    []string
	}{
		{"crmem/small.db", "memory.db", check.FormatV1, 26, 1, []string{`"next_id":29`}, []string{`"index_at"`, `"warnings"`, `"index"`}},
		{"crabdb/small.crmem", "store.crmem", crabdb.CheckFormat, 25, 2, []string{`"index_at"`, `"live_keys"`, `"warnings":[]`, `"index":{"docs":23`}, []string{`"next_id"`}},
	} {
		t.Run(tc.format, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join(ref, tc.fixture))
			if err != nil {
				t.Fatal(err)
			}
			r, err := Check(filepath.Join(t.TempDir(), tc.name), data, filepath.Join(ref, "sessions"))
			if err != nil {
				t.Fatal(err)
			}
			if r.Format != tc.format || !r.Valid || r.Entries != tc.entries || r.Sessions == nil || len(r.Sessions.Missing) != tc.missing || len(r.Anomalies) != 0 {
				t.Errorf("report: %+v, sessions %+v, anomalies %+v", r, r.Sessions, r.Anomalies)
			}
			b, err := json.Marshal(r)
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range tc.jsonHas {
				if !strings.Contains(string(b), s) {
					t.Errorf("JSON lacks %s: %s", s, b)
				}
			}
			for _, s := range tc.jsonLacks {
				if strings.Contains(string(b), s) {
					t.Errorf("JSON has %s: %s", s, b)
				}
			}
		})
	}
}

// TestCheck_Refusals: a file neither reader takes is reported as invalid
// with the reader's reason, and a name suggesting the other format is an
// anomaly.
func TestCheck_Refusals(t *testing.T) {
	bad, err := os.ReadFile(filepath.Join(ref, "crabdb", "bad", "snapshot-wrong-key.crmem"))
	if err != nil {
		t.Fatal(err)
	}
	r, err := Check("store.crmem", bad, "")
	if err == nil || r.Valid || r.Format != crabdb.CheckFormat || !strings.Contains(r.Error, "snapshot entry") {
		t.Errorf("bad store: %+v, %v", r, err)
	}
	r, err = Check("memory.db", []byte("CRMEM\x01 short"), "")
	if err == nil || r.Valid || r.Format != check.FormatV1 || r.Error == "" || r.V1Header == nil {
		t.Errorf("bad v1 file: %+v, %v", r, err)
	}
	good, err := os.ReadFile(filepath.Join(ref, "crmem", "small.db"))
	if err != nil {
		t.Fatal(err)
	}
	r, _ = Check("store.crmem", good, filepath.Join(ref, "sessions"))
	if len(r.Anomalies) != 1 || r.Anomalies[0].Kind != "misleading_name" {
		t.Errorf("v1 file named store.crmem: %+v", r.Anomalies)
	}
}
