package crabdb

import (
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/crmem/crmem/store"
)

// TestCutShort (issue 38 §5): a store cut short inside its snapshot, or
// right where it starts, is no v1 file and no store by SPEC §10's rule;
// the error says it is crabtalk's store, where it was cut, and what
// crabtalk's own reader does with it (it warns, replays the log from byte
// 32 over the snapshot's bytes, and fails on them or opens), never the v1
// reader's "truncated body". Cut in the log before the snapshot, it is
// one too; cut inside its header, it is nothing crmem tells.
// With CRMEM_ORACLE set, crabtalk's reader confirms what it does.
func TestCutShort(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(refDir, "small.crmem"))
	if err != nil {
		t.Fatal(err)
	}
	h, err := ParseHeader(data)
	if err != nil {
		t.Fatal(err)
	}
	at := int(h.IndexAt) // 67761
	cases := []struct {
		name string
		size int
		want string // substring of the error; "" for none of these
	}{
		{"inside the snapshot", at + 12000, "cut short at offset 79761, inside its index snapshot (offsets 67761 to 100865)"},
		{"one byte short", int(h.IndexAt + h.IndexLen - 1), "then fails at offset 67761: unknown record op 227 (it does not open the store)"},
		{"where the snapshot starts", at, "cut short at offset 67761, before its index snapshot (33104 bytes at offset 67761)"},
		{"inside the log before it", at - 100, "reads 713 records and drops the torn bytes from offset"},
		{"inside the header", 20, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cut := data[:c.size]
			_, _, err := DetectDecoded(cut)
			var ce *store.CutStoreError
			if c.want == "" {
				if errors.As(err, &ce) {
					t.Fatalf("cut in the log: %v", err)
				}
				return
			}
			if !errors.As(err, &ce) || ce.Size != int64(c.size) {
				t.Fatalf("DetectDecoded = %v, want a CutStoreError at %d", err, c.size)
			}
			msg := err.Error()
			for _, w := range []string{c.want, "crabtalk's store", `warns "crabdb: unreadable index snapshot, replaying the log"`} {
				if !strings.Contains(msg, w) {
					t.Errorf("error %q, want it to say %q", msg, w)
				}
			}
			if strings.Contains(msg, "truncated body") || !errors.Is(err, store.ErrBadFormat) {
				t.Errorf("error %q: the v1 reader's words, or not ErrBadFormat", msg)
			}
			oracleSays(t, cut, ce.Then)
		})
	}
}

// oracleSays runs crabtalk's reader (CRMEM_ORACLE) on a store cut short
// and checks that it does what then says: fail on an unknown op, or open
// after its warning.
func oracleSays(t *testing.T, data []byte, then string) {
	t.Helper()
	oracle := os.Getenv("CRMEM_ORACLE")
	if oracle == "" {
		return
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "store.crmem")
	queries := filepath.Join(dir, "queries.jsonl")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(queries, []byte(`{"query":"deploy","limit":5}`+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	out, _ := exec.Command(oracle, "verify", path, queries).Output()
	line, _, _ := strings.Cut(string(out), "\n")
	var report struct {
		Warnings []string `json:"crabdb_warnings"`
		Problems []string `json:"problems"`
		Entries  int      `json:"entries"`
	}
	if err := json.Unmarshal([]byte(line), &report); err != nil {
		t.Fatalf("crabtalk's reader: %v: %.300s", err, line)
	}
	warned := strings.Contains(strings.Join(report.Warnings, "\n"), "unreadable index snapshot, replaying the log")
	failed := strings.Contains(strings.Join(report.Problems, "\n"), "unknown record op")
	switch {
	case !warned:
		t.Errorf("crabtalk's reader did not warn: %.300s", line)
	case strings.Contains(then, "does not open") != failed:
		t.Errorf("crmem says %q; crabtalk's reader: %.300s", then, line)
	}
	t.Logf("crabtalk's reader: warned %v, failed on an unknown op %v, %d entries", warned, failed, report.Entries)
}
