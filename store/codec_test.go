package store_test

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/crmem/crmem/store"
)

func TestDecode_Rejects(t *testing.T) {
	var want map[string]string
	if err := json.Unmarshal(readFixture(t, "bad/expected.json"), &want); err != nil {
		t.Fatal(err)
	}
	if len(want) == 0 {
		t.Fatal("no cases in bad/expected.json")
	}
	for name, msg := range want {
		t.Run(name, func(t *testing.T) {
			f, err := store.Decode(readFixture(t, "bad/"+name))
			if err == nil {
				t.Fatalf("decoded %d entries, want error %q", len(f.Entries), msg)
			}
			if err.Error() != msg {
				t.Errorf("error %q, want %q", err, msg)
			}
			if !errors.Is(err, store.ErrBadFormat) {
				t.Errorf("error %v does not match ErrBadFormat", err)
			}
			sameDecoding(t, readFixture(t, "bad/"+name), f, err)
		})
	}
}

// A large file's strings are checked beside its structure, a chunk of
// entries at a time, on every core; the error is still the first in file
// order, as in one pass.
func TestDecode_LargeFileFirstError(t *testing.T) {
	entries := func(edit func(es []store.Entry)) []store.Entry {
		es := make([]store.Entry, 60000)
		for i := range es {
			es[i] = store.Entry{ID: uint64(i + 1), Name: "n" + strconv.Itoa(i), Content: strings.Repeat("word ", 15),
				Aliases: []string{"a" + strconv.Itoa(i)}}
		}
		if edit != nil {
			edit(es)
		}
		return es
	}
	encode := func(es []store.Entry, cut int) []byte {
		data := store.Encode(uint64(len(es)+1), es)
		if len(data) < 4<<20 {
			t.Fatalf("%d bytes: too small for the two-pass decoding", len(data))
		}
		return data[:len(data)-cut]
	}
	tests := []struct {
		name string
		data []byte
		want string // "" for none
	}{
		{"valid", encode(entries(nil), 0), ""},
		{"bad utf8 in a late content", encode(entries(func(es []store.Entry) { es[50000].Content += "\xff" }), 0), "invalid utf8"},
		{"bad utf8 in an alias, then cut short", encode(entries(func(es []store.Entry) { es[10].Aliases[0] = "\xc3" }), 7), "invalid utf8"},
		{"bad utf8 in the last name, then cut short", encode(entries(func(es []store.Entry) { es[len(es)-1].Name = "\xe2\x82" }), 5), "invalid utf8"},
		{"cut short", encode(entries(nil), 3), "truncated body"},
		{"bad kind, then bad utf8", encode(entries(func(es []store.Entry) { es[5].Kind = 7; es[100].Content = "\xff" }), 0), "unknown entry kind"},
		{"bad utf8, then bad kind", encode(entries(func(es []store.Entry) { es[5].Content = "\xff"; es[100].Kind = 7 }), 0), "invalid utf8"},
		{"bad utf8 last in a chunk", encode(entries(func(es []store.Entry) { es[1023].Content += "\xff" }), 0), "invalid utf8"},
		{"bad utf8 first in a chunk", encode(entries(func(es []store.Entry) { es[2048].Aliases[0] = "\xff" }), 0), "invalid utf8"},
		{"bad utf8 in the last entry", encode(entries(func(es []store.Entry) { es[len(es)-1].Content += "\xc3" }), 0), "invalid utf8"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := store.Decode(tt.data)
			switch {
			case tt.want == "" && err != nil:
				t.Fatalf("error %v", err)
			case tt.want != "" && (err == nil || !strings.HasSuffix(err.Error(), tt.want)):
				t.Fatalf("error %v, want %q", err, tt.want)
			}
			if err == nil && len(f.Entries) != 60000 {
				t.Fatalf("%d entries, want 60000", len(f.Entries))
			}
		})
	}
}

// A large file of entries smaller than an Entry outgrows the entries'
// first array while chunks of it are being checked: every string is still
// checked, and a bad one late in the file is found.
func TestDecode_LargeDenseFile(t *testing.T) {
	es := make([]store.Entry, 160000) // 28 bytes each: 4.5 MB
	for i := range es {
		es[i].ID = uint64(i + 1)
	}
	data := store.Encode(uint64(len(es)+1), es)
	if len(data) < 4<<20 {
		t.Fatalf("%d bytes: too small for the two-pass decoding", len(data))
	}
	f, err := store.Decode(data)
	if err != nil || len(f.Entries) != len(es) {
		t.Fatalf("decoded %v entries, error %v; want %d", f, err, len(es))
	}
	es[len(es)-3].Name = "\xff"
	if _, err := store.Decode(store.Encode(uint64(len(es)+1), es)); err == nil || !strings.HasSuffix(err.Error(), "invalid utf8") {
		t.Fatalf("error %v, want invalid utf8", err)
	}
}

func TestDecode_Odd(t *testing.T) {
	tests := []struct {
		file               string
		entries            int
		nextID             uint64
		trailing, topicIDs bool
	}{
		{file: "ok-duplicate-names.db", entries: 2},
		{file: "ok-empty-db.db", entries: 0},
		{file: "ok-huge-timestamp.db", entries: 1, nextID: 2},
		{file: "ok-stale-next-id.db", nextID: 1},
		{file: "ok-topic-kind.db", entries: 2, topicIDs: true},
		{file: "ok-trailing-bytes.db", entries: 2, trailing: true},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			f := decodeFixture(t, "bad/"+tt.file)
			if tt.entries > 0 && len(f.Entries) != tt.entries {
				t.Errorf("%d entries, want %d", len(f.Entries), tt.entries)
			}
			if tt.nextID != 0 && f.NextID != tt.nextID {
				t.Errorf("next_id %d, want %d", f.NextID, tt.nextID)
			}
			if (f.Trailing > 0) != tt.trailing {
				t.Errorf("trailing %d bytes", f.Trailing)
			}
			topics := 0
			for _, e := range f.Entries {
				if e.Kind == store.Topic {
					topics++
				}
			}
			if (topics > 0) != tt.topicIDs {
				t.Errorf("%d topics", topics)
			}
		})
	}
}

func TestEncode_ReferenceExample(t *testing.T) {
	want := readFixture(t, "bad/ok-huge-timestamp.db")
	e := store.Entry{ID: 1, Name: "hi", Content: "yo", Aliases: []string{"hey"},
		Kind: store.Archive, CreatedAt: 0x1122334455667788}
	if got := store.Encode(2, []store.Entry{e}); !bytes.Equal(got, want) {
		t.Errorf("encode:\n got %x\nwant %x", got, want)
	}
	f := decodeFixture(t, "bad/ok-huge-timestamp.db")
	sameEntries(t, f.Entries, []store.Entry{e})
}

func TestDecode_Small(t *testing.T) {
	f := decodeFixture(t, "crmem/small.db")
	sameEntries(t, f.Entries, readJSONL(t, "crmem/small.entries.jsonl"))
	if f.NextID != 29 {
		t.Errorf("next_id %d, want 29", f.NextID)
	}
}

func TestEncode_RoundTrip(t *testing.T) {
	for _, name := range []string{"crmem/small.db", "crmem/medium.db", "bad/ok-huge-timestamp.db",
		"bad/ok-empty-db.db", "bad/ok-topic-kind.db"} {
		t.Run(name, func(t *testing.T) {
			data := readFixture(t, name)
			f := decodeFixture(t, name)
			if got := store.Encode(f.NextID, f.Entries); !bytes.Equal(got, data) {
				t.Errorf("re-encoding differs (%d vs %d bytes)", len(got), len(data))
			}
		})
	}
}

func TestEncode_DropsTrailingBytes(t *testing.T) {
	f := decodeFixture(t, "bad/ok-trailing-bytes.db")
	g, err := store.Decode(store.Encode(f.NextID, f.Entries))
	if err != nil {
		t.Fatal(err)
	}
	if g.Trailing != 0 {
		t.Errorf("%d trailing bytes after re-encoding", g.Trailing)
	}
	sameEntries(t, g.Entries, f.Entries)
}

func TestEncode_SortsAndRaisesNextID(t *testing.T) {
	in := []store.Entry{note(9, "b", "two"), note(3, "a", "one")}
	f, err := store.Decode(store.Encode(1, in))
	if err != nil {
		t.Fatal(err)
	}
	if f.NextID != 10 {
		t.Errorf("next_id %d, want 10", f.NextID)
	}
	if f.Entries[0].ID != 3 || f.Entries[1].ID != 9 {
		t.Errorf("order %d, %d; want 3, 9", f.Entries[0].ID, f.Entries[1].ID)
	}
}

// TestDecode_HugeClaims checks that absurd counts and lengths fail at once
// with "truncated body" instead of allocating what they claim.
func TestDecode_HugeClaims(t *testing.T) {
	base := store.Encode(2, []store.Entry{note(1, "n", "c", "a")})
	tests := []struct {
		name string
		off  int // offset of the u32 to overwrite
	}{
		{"entry count", 24},
		{"name length", 48},
		{"content length", 53},
		{"alias count", 58},
		{"alias length", 62},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data := bytes.Clone(base)
			binary.LittleEndian.PutUint32(data[tt.off:], 0xFFFFFFF0)
			_, err := store.Decode(data)
			if err == nil || !strings.HasSuffix(err.Error(), "truncated body") {
				t.Errorf("error %v, want truncated body", err)
			}
		})
	}
}

// TestDecode_EveryPrefix truncates a valid file at every length: each
// prefix is rejected cleanly, never a panic or an accepted half entry.
func TestDecode_EveryPrefix(t *testing.T) {
	data := readFixture(t, "crmem/small.db")
	for n := range len(data) {
		f, err := store.Decode(data[:n])
		if err == nil {
			t.Fatalf("prefix of %d bytes decoded to %d entries", n, len(f.Entries))
		}
		if !errors.Is(err, store.ErrBadFormat) {
			t.Fatalf("prefix %d: %v", n, err)
		}
	}
}

// TestDecode_ByteFlips flips every byte of a small file: each result either
// fails with ErrBadFormat or decodes and round-trips.
func TestDecode_ByteFlips(t *testing.T) {
	data := readFixture(t, "bad/ok-topic-kind.db")
	for i := range data {
		for _, mask := range []byte{0x01, 0x80, 0xFF} {
			c := bytes.Clone(data)
			c[i] ^= mask
			checkRoundTrip(t, c)
		}
	}
}

// checkRoundTrip asserts the fuzz property: no panic, errors are format
// errors, and whatever decodes re-encodes to bytes that decode the same.
func checkRoundTrip(t *testing.T, data []byte) {
	t.Helper()
	f, err := store.Decode(data)
	sameDecoding(t, data, f, err)
	if err != nil {
		if !errors.Is(err, store.ErrBadFormat) {
			t.Fatalf("error %v does not match ErrBadFormat", err)
		}
		return
	}
	enc := store.Encode(f.NextID, f.Entries)
	g, err := store.Decode(enc)
	if err != nil {
		t.Fatalf("re-encoded file does not decode: %v", err)
	}
	want := append([]store.Entry(nil), f.Entries...)
	sortStable(want)
	sameEntries(t, g.Entries, want)
	if !bytes.Equal(store.Encode(g.NextID, g.Entries), enc) {
		t.Fatal("second encoding differs from the first")
	}
}

// sameDecoding checks that the two-pass decoding of a large file gives
// what Decode gave (f, err): the same first error, or the same entries.
func sameDecoding(t *testing.T, data []byte, f *store.File, err error) {
	t.Helper()
	g, gerr := store.DecodeTwoPass(data)
	if (err == nil) != (gerr == nil) || (err != nil && err.Error() != gerr.Error()) {
		t.Fatalf("two passes: error %v, one pass: %v", gerr, err)
	}
	if err == nil {
		if g.NextID != f.NextID || g.Trailing != f.Trailing {
			t.Fatalf("two passes: next id %d, trailing %d; one pass: %d, %d", g.NextID, g.Trailing, f.NextID, f.Trailing)
		}
		sameEntries(t, g.Entries, f.Entries)
	}
}

func sortStable(es []store.Entry) {
	slices.SortStableFunc(es, func(a, b store.Entry) int { return cmp.Compare(a.ID, b.ID) })
}

func FuzzDecode(f *testing.F) {
	for _, dir := range []string{"bad", "crmem"} {
		paths, _ := filepath.Glob(filepath.Join(ref, dir, "*.db"))
		for _, p := range paths {
			if data, err := os.ReadFile(p); err == nil && len(data) < 1<<16 {
				f.Add(data)
			}
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) { checkRoundTrip(t, data) })
}

// On one core the reader hands its chunks to a checker that runs when the
// reader waits: a large file decodes as on several.
func TestDecode_LargeFileOneCore(t *testing.T) {
	es := make([]store.Entry, 60000)
	for i := range es {
		es[i] = store.Entry{ID: uint64(i + 1), Name: "n" + strconv.Itoa(i), Content: strings.Repeat("word ", 15)}
	}
	data := store.Encode(uint64(len(es)+1), es)
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	f, err := store.Decode(data)
	if err != nil || len(f.Entries) != len(es) {
		t.Fatalf("decoded %v, error %v; want %d entries", f, err, len(es))
	}
	es[len(es)-1].Content = "\xff"
	if _, err := store.Decode(store.Encode(uint64(len(es)+1), es)); err == nil || !strings.HasSuffix(err.Error(), "invalid utf8") {
		t.Fatalf("error %v, want invalid utf8", err)
	}
}
