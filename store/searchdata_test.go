package store_test

import (
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/crmem/crmem/store"
)

// SearchData is Decode then File.Search on a whole, valid large file,
// whatever the texts (ASCII, multi-byte, ids that repeat); a file Decode
// refuses or finds trailing bytes in, wherever its bad byte is (a name, a
// content the ranking found ASCII up to it, an alias), is left to the
// caller (ok false), as is a file too small to be checked in two passes.
func TestSearchData_IsDecodeThenSearch(t *testing.T) {
	words := []string{"deploy", "Canary", "rollback", "the", "of", "naïve", "ΣΟΦΟΣ", "x", "internationalization", "k8s", "café—latte"}
	base := make([]store.Entry, 32000)
	for i := range base {
		var sb strings.Builder
		for j := range 16 + i%9 {
			sb.WriteString(words[(i*7+j*j)%len(words)])
			sb.WriteByte(" .,\n"[j%4])
		}
		base[i] = store.Entry{ID: uint64(i + 1), Name: "n" + strconv.Itoa(i), Content: sb.String()}
		if i%5 == 0 {
			base[i].Aliases = []string{"alias " + words[i%len(words)]}
		}
	}
	// entries is base with edit made to a copy (each edit assigns a field,
	// so the copy shares base's strings and slices, never changing them).
	entries := func(edit func(es []store.Entry)) []store.Entry {
		es := slices.Clone(base)
		if edit != nil {
			edit(es)
		}
		return es
	}
	encode := func(es []store.Entry) []byte {
		data := store.Encode(uint64(len(es)+1), es)
		if len(data) < 4<<20 {
			t.Fatalf("%d bytes: too small for SearchData", len(data))
		}
		return data
	}
	queries := []string{"deploy canary", "the of", "naïve internationalization k8s", "σοφος"}
	valid := encode(entries(nil)) // built once: three cases start from it
	for _, tt := range []struct {
		name string
		data []byte
		ok   bool
	}{
		{"valid", valid, true},
		{"ids that repeat", encode(entries(func(es []store.Entry) { es[100].ID, es[31000].ID = 7, 7 })), true},
		{"bad utf8 in a name", encode(entries(func(es []store.Entry) { es[25000].Name = "n\xff" })), false},
		{"bad utf8 after ASCII in a content", encode(entries(func(es []store.Entry) { es[20000].Content = strings.Repeat("deploy ", 30) + "\xe2\x82" })), false},
		{"bad utf8 in an alias", encode(entries(func(es []store.Entry) { es[30000].Aliases = []string{"ok", "\xc3"} })), false},
		{"bad utf8 in a replaced entry", encode(entries(func(es []store.Entry) { es[10].ID, es[11].ID, es[10].Content = 11, 11, "\xff" })), false},
		{"a bad kind", encode(entries(func(es []store.Entry) { es[20000].Kind = 7 })), false},
		{"trailing bytes", slices.Concat(valid, []byte("xyz")), false},
		{"cut short", valid[:4<<20], false},
		{"small", store.Encode(3, entries(nil)[:2]), false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			want, _ := store.Decode(tt.data)
			for _, query := range queries {
				// Search's whole ranking, ranked once for both limits: a
				// limit's hits are its first ones (bm25's
				// TestSearch_LimitsAgreeWithFullRanking and
				// TestRank_MatchesSearch), and each ranking reads every
				// text of the file, the most of this test's time.
				var all []store.FileHit
				if tt.ok {
					all = want.Search(query, 0)
				}
				for _, limit := range []int{3, 1 << 30} {
					f, hits, ok := store.SearchData(tt.data, query, limit)
					if ok != tt.ok {
						t.Fatalf("SearchData(%q, %d): ok %v, want %v", query, limit, ok, tt.ok)
					}
					if !ok {
						if f != nil || hits != nil {
							t.Fatalf("SearchData(%q, %d): not ok, but returned a file or hits", query, limit)
						}
						return // once is enough
					}
					if f.NextID != want.NextID || f.Trailing != 0 {
						t.Fatalf("next id %d, %d trailing bytes; Decode %d, 0", f.NextID, f.Trailing, want.NextID)
					}
					wantHits := all[:min(limit, len(all))]
					if len(hits) != len(wantHits) {
						t.Fatalf("SearchData(%q, %d): %d hits, Search %d", query, limit, len(hits), len(wantHits))
					}
					for i := range hits {
						if hits[i].Score != wantHits[i].Score || !reflect.DeepEqual(*hits[i].Entry, *wantHits[i].Entry) {
							t.Fatalf("SearchData(%q, %d) hit %d: %v %+v, Search %v %+v", query, limit, i, hits[i].Score, *hits[i].Entry, wantHits[i].Score, *wantHits[i].Entry)
						}
					}
				}
			}
		})
	}
}
