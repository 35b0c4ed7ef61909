package crabdb

import (
	"os"
	"path/filepath"
	"testing"
)

// TestDetect_Fixtures runs detection over every v1 fixture and every store
// fixture, the bad ones of both included: no v1 file is taken for a store
// and no store for a v1 file.
func TestDetect_Fixtures(t *testing.T) {
	ref := filepath.Join(refDir, "..")
	want := map[string]Format{
		"crmem/small.db":                    FormatV1,
		"crmem/medium.db":                   FormatV1,
		"bad/ok-trailing-bytes.db":          FormatUnknown, // the v1 reader accepts it
		"crabdb/bad/legacy-memory-db.crmem": FormatV1,
		"crabdb/bad/short-header.crmem":     FormatUnknown,
		"crabdb/bad/zero-length.crmem":      FormatUnknown,
		// A header whose index runs past the end is not a store's (SPEC
		// §10): the v1 reader decides, and refuses each but big-index-len,
		// which it reads as an empty memory never written (store's
		// indexPastEnd).
		"crabdb/bad/big-index-len.crmem":            FormatUnknown,
		"crabdb/bad/huge-index-len.crmem":           FormatUnknown,
		"crabdb/bad/index-beyond-eof.crmem":         FormatUnknown,
		"crabdb/bad/index-beyond-eof-logonly.crmem": FormatUnknown,
	}
	v1, _ := filepath.Glob(filepath.Join(ref, "bad", "*.db"))
	stores, _ := filepath.Glob(filepath.Join(ref, "crabdb", "*.crmem"))
	badStores, _ := filepath.Glob(filepath.Join(ref, "crabdb", "bad", "*.crmem"))
	if len(v1) < 20 || len(stores) != 4 || len(badStores) != 20 {
		t.Fatalf("fixtures missing: %d v1, %d stores, %d bad stores", len(v1), len(stores), len(badStores))
	}
	all := append(append(append([]string{filepath.Join(ref, "crmem", "small.db"), filepath.Join(ref, "crmem", "medium.db")}, v1...), stores...), badStores...)
	for _, path := range all {
		rel, _ := filepath.Rel(ref, path)
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		got := Detect(data)
		w, ok := want[rel]
		switch {
		case ok:
		case filepath.Ext(path) == ".crmem":
			w = FormatStore
		default:
			// A v1 fixture: v1 when it decodes to its end, else the v1
			// reader decides (and rejects it, or accepts trailing bytes).
			w = FormatV1
			if got == FormatUnknown {
				w = FormatUnknown
			}
		}
		if got != w {
			t.Errorf("%s: detected %v, want %v", rel, got, w)
		}
	}
}

func TestDetect_Cases(t *testing.T) {
	store := func(at, n uint64, size int) []byte {
		b := make([]byte, size)
		copy(b, "CRMEM\x00\x01")
		putU64(b[16:], at)
		putU64(b[24:], n)
		return b
	}
	for _, tc := range []struct {
		name string
		data []byte
		want Format
	}{
		{"empty", nil, FormatUnknown},
		{"header only", store(0, 0, 32), FormatStore},
		{"snapshot inside", store(40, 10, 64), FormatStore},
		{"snapshot to the byte", store(40, 24, 64), FormatStore},
		{"snapshot one past the end, bytes 28-31 zero", store(40, 25, 64), FormatUnknown},
		{"index_len 2^40, snapshot starting inside", store(40, 1<<40, 64), FormatUnknown},
		{"index_len max, snapshot starting inside", store(40, ^uint64(0), 64), FormatUnknown},
		{"v1 empty memory", v1Empty(), FormatV1},
	} {
		if got := Detect(tc.data); got != tc.want {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}

func putU64(b []byte, v uint64) {
	for i := range 8 {
		b[i] = byte(v >> (8 * i))
	}
}

// v1Empty is an empty CRMEM v1 memory: header, next_id 1, no entries.
func v1Empty() []byte {
	b := make([]byte, 28)
	copy(b, "CRMEM\x00\x01")
	b[16] = 1
	return b
}
