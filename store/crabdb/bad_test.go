package crabdb

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// badExpected is one record of bad/expected.json (what crabtalk's reader
// does with the file).
type badExpected struct {
	Open     string `json:"open"`
	Error    string `json:"error"`
	LiveKeys int    `json:"live_keys"`
	Entries  []struct {
		KeyName   string `json:"key_name"`
		ValueName string `json:"value_name"`
	} `json:"entries"`
	Search *searchLine `json:"search"`
}

func loadBadExpected(t *testing.T) map[string]badExpected {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(refDir, "bad", "expected.json"))
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]badExpected
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// TestBad_Fixtures pins what crmem does with every damaged store: crabdb's
// error where crabdb errors, crabdb's reading where it reads correctly, and
// a refusal with the reason where it misreads or crashes (SPEC §10).
func TestBad_Fixtures(t *testing.T) {
	expected := loadBadExpected(t)
	cases := map[string]struct {
		err  string // substring of the error; "" = opens
		warn string // substring of a warning when it opens
	}{
		"bad-magic.crmem":                  {err: "crabdb: not a CRMEM file"},
		"big-index-len.crmem":              {err: "crabdb: snapshot of 1099511627776 bytes runs past the end of the file (3184 bytes) at offset 2359"},
		"flags-set.crmem":                  {err: "crabdb: unknown flags 0x0001"},
		"huge-index-len.crmem":             {err: "crabdb: snapshot of 18446744073709551615 bytes runs past the end of the file (3184 bytes) at offset 2359"},
		"index-beyond-eof-logonly.crmem":   {warn: "lies beyond the end of the file (2359 bytes); replayed the whole log"},
		"index-beyond-eof.crmem":           {err: "lies beyond the end of the file (110751 bytes), and the log does not replay without it: unknown record op 227 at offset 67761"},
		"index-len-short.crmem":            {err: "crabdb: snapshot cut short: entry 15 of 15 does not fit in index_len 824 at offset 2359"},
		"legacy-memory-db.crmem":           {err: "snapshot offset 29 lies inside the header"},
		"ok-tiny-log.crmem":                {},
		"ok-tiny-snapshot.crmem":           {},
		"short-header.crmem":               {err: "crabdb: file shorter than its header"},
		"snapshot-offset-beyond-eof.crmem": {err: `snapshot entry (column 2, key "local/memory/alpha") points at offset 1000000, beyond the end of the file`},
		"snapshot-to-delete.crmem":         {err: `snapshot entry (column 2, key "local/memory/alpha") points at offset 2332, which is a Delete record`},
		"snapshot-wrong-key.crmem":         {err: `snapshot entry (column 2, key "local/memory/alpha") points at offset 1298, which is the record of (column 2, key "local/memory/gamma")`},
		"torn-op-only.crmem":               {warn: "torn record at offset 110751 (1 bytes)"},
		"unknown-op-after-snapshot.crmem":  {err: "crabdb: unknown record op 255 at offset 110751"},
		"unknown-op.crmem":                 {err: "crabdb: unknown record op 2 at offset 2359"},
		"version-2.crmem":                  {err: "crabdb: unsupported format version 2"},
		"zero-length.crmem":                {err: "crabdb: file shorter than its header"},
		"zero-padded.crmem":                {warn: "torn record at offset 110771 (5 bytes)"},
	}
	files, _ := filepath.Glob(filepath.Join(refDir, "bad", "*.crmem"))
	if len(files) != len(cases) {
		t.Errorf("%d bad stores, %d cases", len(files), len(cases))
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(refDir, "bad", name)
			before, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			f, err := Open(path)
			if after, _ := os.ReadFile(path); !bytes.Equal(before, after) {
				t.Fatal("opening changed the file")
			}
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) || !errors.Is(err, ErrFormat) {
					t.Fatalf("error %v, want one containing %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			s := f.Store()
			exp := expected[name]
			if exp.Open != "ok" {
				t.Fatalf("crabtalk does not read %s (%s); crmem opens it", name, exp.Open)
			}
			warns := strings.Join(s.Warnings(), "\n")
			if (tc.warn == "") != (warns == "") || !strings.Contains(warns, tc.warn) {
				t.Errorf("warnings %q, want %q", warns, tc.warn)
			}
			if s.Len() != exp.LiveKeys {
				t.Errorf("%d live keys, want %d", s.Len(), exp.LiveKeys)
			}
			entries, problems := s.Entries()
			if len(problems) > 0 || len(entries) != len(exp.Entries) {
				t.Fatalf("entries %d (problems %q), want %d", len(entries), problems, len(exp.Entries))
			}
			for i, e := range entries {
				if w := exp.Entries[i]; e.Key != MemoryPrefix+w.KeyName || e.Name != w.ValueName {
					t.Errorf("entry %d: %s/%s, want %s/%s", i, e.Key, e.Name, w.KeyName, w.ValueName)
				}
			}
			hits, err := s.Recall(exp.Search.Query, exp.Search.Limit)
			if err != nil || len(hits) != len(exp.Search.Hits) {
				t.Fatalf("recall %q: %v %v, want %d hits", exp.Search.Query, names(hits), err, len(exp.Search.Hits))
			}
			for i, h := range hits {
				if w := exp.Search.Hits[i]; h.Name != w.Name || !near(h.Score, w.Score) {
					t.Errorf("hit %d: %s %v, want %s %v", i, h.Name, h.Score, w.Name, w.Score)
				}
			}
		})
	}
}

// TestRead_ClaimsAllocateNothing: lengths and counts that claim far more
// than the file holds fail without allocating what they claim.
func TestRead_ClaimsAllocateNothing(t *testing.T) {
	header := func(at, n uint64, size int) []byte {
		b := make([]byte, size)
		copy(b, Magic)
		b[6] = Version
		binary.LittleEndian.PutUint64(b[16:], at)
		binary.LittleEndian.PutUint64(b[24:], n)
		return b
	}
	countHuge := header(32, 8, 40)
	binary.LittleEndian.PutUint32(countHuge[32:], 0xFFFFFFFF) // a snapshot of 4 billion keys in 8 bytes
	keyHuge := header(0, 0, 42)
	copy(keyHuge[32:], []byte{OpPut, 2, 0xFF, 0xFF, 0xFF, 0xFF}) // a 4 GiB key
	for name, data := range map[string][]byte{
		"index_len 2^40":        header(32, 1<<40, 64),
		"index_len max":         header(32, ^uint64(0), 64),
		"snapshot count 2^32-1": countHuge,
		"key of 4 GiB":          keyHuge,
	} {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		s, err := Read(data)
		runtime.ReadMemStats(&after)
		if grew := after.TotalAlloc - before.TotalAlloc; grew > 64<<10 {
			t.Errorf("%s: %d bytes allocated", name, grew)
		}
		if name == "key of 4 GiB" {
			if err != nil || len(s.Warnings()) != 1 { // a torn tail: the file ends inside the key
				t.Errorf("%s: %v %q", name, err, s.Warnings())
			}
		} else if err == nil {
			t.Errorf("%s: read", name)
		}
	}
}
