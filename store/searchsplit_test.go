package store

import (
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

// splitEntries are n entries with ascending ids and texts of a few words,
// a large enough file for SearchData.
func splitEntries(n int) []Entry {
	words := []string{"deploy", "Canary", "rollback", "the", "of", "naïve", "x", "k8s"}
	es := make([]Entry, n)
	for i := range es {
		var sb strings.Builder
		for j := range 20 + i%7 {
			sb.WriteString(words[(i*5+j*j)%len(words)])
			sb.WriteByte(' ')
		}
		es[i] = Entry{ID: uint64(i + 1), Name: "n" + strconv.Itoa(i), Kind: Kind(i % 3), CreatedAt: uint64(i) * 7, Content: sb.String(), Aliases: []string{}}
		if i%3 == 0 {
			es[i].Aliases = []string{"canary " + words[i%len(words)], "x"}
		}
	}
	return es
}

// TestSearchSplit_ReadsFromSeveralPlaces checks that a whole, valid file
// with ascending ids is read by one to five workers (done), as Decode and
// Search read it, and that a file they cannot read as one is left to the
// usual path (not done): ids that repeat, and a content across the middle
// that holds entries of its own, which findSplit takes for the file's.
func TestSearchSplit_ReadsFromSeveralPlaces(t *testing.T) {
	valid := splitEntries(30000)
	// A content of encoded entries across the middle of the file: chains
	// findSplit can read, that the first worker never ends on (each byte
	// below 0x80, so the content is valid UTF-8).
	fake := make([]Entry, 40)
	for i := range fake {
		fake[i] = Entry{ID: uint64(i + 1), Name: "m", Content: "deploy canary", Aliases: []string{}}
	}
	inner := splitEntries(30000)
	inner[14000].Content = strings.Repeat(string(Encode(41, fake)[headerSize+12:]), 1<<20/1500)
	repeated := splitEntries(30000)
	repeated[20000].ID = 5
	for _, tt := range []struct {
		name string
		es   []Entry
		done bool // with two or four workers; one reads any valid file
	}{
		{"valid", valid, true},
		{"entries inside a content", inner, false},
		{"ids that repeat", repeated, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			data := Encode(uint64(len(tt.es)+1), tt.es)
			want, err := Decode(data)
			if err != nil {
				t.Fatal(err)
			}
			for _, query := range []string{"deploy canary", "naïve k8s", "zzz"} {
				wantHits := want.Search(query, 5)
				for k := 1; k <= 5; k++ {
					f, hits, done := searchParts(data, query, 5, k, 2)
					if want := tt.done || k == 1 && tt.name != "ids that repeat"; (k == 1 || k%2 == 0) && done != want {
						t.Fatalf("%q, %d workers: read %v, want %v", query, k, done, want)
					}
					if done {
						sameSearch(t, query, f, hits, want.NextID, wantHits)
					}
				}
				f, hits, ok := SearchData(data, query, 5)
				if !ok {
					t.Fatalf("%q: not ok", query)
				}
				sameSearch(t, query, f, hits, want.NextID, wantHits)
			}
		})
	}
}

// sameSearch fails unless f has the next id nextID and hits are wantHits,
// entries and all.
func sameSearch(t *testing.T, query string, f *File, hits []FileHit, nextID uint64, wantHits []FileHit) {
	t.Helper()
	if f.NextID != nextID || f.Trailing != 0 {
		t.Fatalf("%q: next id %d, %d trailing bytes; Decode %d, 0", query, f.NextID, f.Trailing, nextID)
	}
	if len(hits) != len(wantHits) {
		t.Fatalf("%q: %d hits, Search %d", query, len(hits), len(wantHits))
	}
	for i := range hits {
		if hits[i].Score != wantHits[i].Score || !reflect.DeepEqual(*hits[i].Entry, *wantHits[i].Entry) {
			t.Fatalf("%q hit %d: %v %+v, Search %v %+v", query, i, hits[i].Score, *hits[i].Entry, wantHits[i].Score, *wantHits[i].Entry)
		}
	}
}

// FuzzSearchParts: whatever the bytes, a file searchParts reads in its
// parts (done) is one Decode reads whole, with no trailing bytes, and
// Search finds the same hits in it, scores, entries and all; anything
// else is left to the usual path. The seeds are small valid files, so
// the fuzzer mostly tries parts that start where findSplit guesses wrong.
func FuzzSearchParts(f *testing.F) {
	for _, n := range []int{0, 1, 3, 12, 40} {
		f.Add(Encode(uint64(n+1), splitEntries(n)), "deploy canary", uint8(3))
	}
	fake := []Entry{{ID: 1, Name: "m", Content: "deploy canary", Aliases: []string{}}}
	inner := splitEntries(12)
	inner[6].Content = strings.Repeat(string(Encode(2, fake)[headerSize+12:]), 8)
	f.Add(Encode(13, inner), "deploy", uint8(4))
	f.Fuzz(func(t *testing.T, data []byte, query string, k uint8) {
		parts := int(k%6) + 1
		got, hits, done := searchParts(data, query, 5, parts, 2)
		if !done {
			return
		}
		want, err := Decode(data)
		if err != nil {
			t.Fatalf("read in %d parts, but Decode: %v", parts, err)
		}
		if want.Trailing != 0 {
			t.Fatalf("read in %d parts, but Decode finds %d trailing bytes", parts, want.Trailing)
		}
		sameSearch(t, query, got, hits, want.NextID, want.Search(query, 5))
	})
}

// TestValidName is utf8.ValidString on names of every length to 40 bytes,
// ASCII, with a byte of a multi-byte rune or an invalid byte at each place.
func TestValidName(t *testing.T) {
	for n := 0; n <= 40; n++ {
		name := []byte(strings.Repeat("deploy-x", 6)[:n])
		check := func(s string) {
			if got, want := validName(s), utf8.ValidString(s); got != want {
				t.Fatalf("validName(%q) = %v, want %v", s, got, want)
			}
		}
		check(string(name))
		for i := range name {
			for _, b := range []byte{0x80, 0xc3, 0xff, 0x7f} {
				c := slices.Clone(name)
				c[i] = b
				check(string(c))
				if i+1 < len(c) && b == 0xc3 {
					c[i+1] = 0xa9 // é
					check(string(c))
				}
			}
		}
	}
}
