package crabdb

import (
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/crmem/crmem/store"
)

// specFormat is SPEC §10's rule, written out from its text and nothing
// else: a file that decodes as §1 exactly to its end is CRMEM v1;
// otherwise it is a crabdb store when it is at least 32 bytes long, bytes
// 28–31 are zero, and (index_at, index_len) is (0, 0) or lies inside the
// file with index_at ≥ 32; otherwise §1's reader decides.
func specFormat(data []byte) Format {
	if f, err := store.Decode(data); err == nil && f.Trailing == 0 {
		return FormatV1
	}
	if len(data) < 32 {
		return FormatUnknown
	}
	if data[28]|data[29]|data[30]|data[31] != 0 {
		return FormatUnknown
	}
	at, n := binary.LittleEndian.Uint64(data[16:24]), binary.LittleEndian.Uint64(data[24:32])
	size := uint64(len(data))
	if at == 0 && n == 0 || at >= 32 && at <= size && n <= size-at {
		return FormatStore
	}
	return FormatUnknown
}

// mutate changes data in one of the ways a file goes wrong or is made to:
// a byte flipped or set, a header field rewritten (index_at, index_len,
// next_id, the entry count), cut short, bytes appended (zeros or random).
func mutate(r *rand.Rand, data []byte) []byte {
	b := append([]byte(nil), data...)
	pick := func() uint64 {
		switch r.IntN(6) {
		case 0:
			return 0
		case 1:
			return uint64(r.IntN(64))
		case 2:
			return uint64(r.IntN(len(b) + 64))
		case 3:
			return 1 << r.IntN(64)
		case 4:
			return ^uint64(0) >> r.IntN(64)
		}
		return r.Uint64()
	}
	for range 1 + r.IntN(3) {
		switch r.IntN(7) {
		case 0:
			if len(b) > 0 {
				b[r.IntN(len(b))] ^= 1 << r.IntN(8)
			}
		case 1:
			if len(b) > 0 {
				b[r.IntN(len(b))] = byte(r.IntN(256))
			}
		case 2, 3:
			if len(b) >= 32 {
				off := 16 + 8*r.IntN(2) // index_at (v1: next_id) or index_len (v1: count and the first id's low half)
				binary.LittleEndian.PutUint64(b[off:], pick())
			}
		case 4:
			if len(b) >= 28 {
				binary.LittleEndian.PutUint32(b[24:], uint32(pick())) // v1's entry count
			}
		case 5:
			b = b[:r.IntN(len(b)+1)]
		case 6:
			tail := make([]byte, r.IntN(200))
			if r.IntN(2) == 0 {
				for i := range tail {
					tail[i] = byte(r.IntN(256))
				}
			}
			b = append(b, tail...)
		}
	}
	return b
}

// v1Sample is a CRMEM v1 file of n entries.
func v1Sample(r *rand.Rand, n int) []byte {
	es := make([]store.Entry, n)
	for i := range es {
		es[i] = store.Entry{ID: uint64(i + 1 + r.IntN(3)*i), Name: fmt.Sprintf("e%d", i), Kind: store.Kind(r.IntN(3)),
			CreatedAt: r.Uint64() >> 32, Content: string(make([]byte, r.IntN(40)))}
		if r.IntN(3) == 0 {
			es[i].Aliases = []string{fmt.Sprintf("a%d", i)}
		}
	}
	return store.Encode(uint64(n+1+r.IntN(100)), es)
}

// TestDetect_MutantsFollowSpec classifies thousands of mutated v1 files
// and mutated stores both ways — by Detect and by SPEC §10's rule written
// out — and requires the same answer; also that the header-only test
// (mayBeStore, behind IsStore) never rules out a store Detect would find.
func TestDetect_MutantsFollowSpec(t *testing.T) {
	r := rand.New(rand.NewPCG(27, 10))
	var seeds [][]byte
	for _, n := range []int{0, 0, 1, 2, 5, 20} {
		seeds = append(seeds, v1Sample(r, n))
	}
	for _, name := range []string{"empty.crmem", "small.crmem", "torn.crmem", "bad/ok-tiny-snapshot.crmem", "bad/ok-tiny-log.crmem"} {
		data, err := os.ReadFile(filepath.Join(refDir, name))
		if err != nil {
			t.Fatal(err)
		}
		seeds = append(seeds, data)
	}
	counts := map[Format]int{}
	for i := range 6000 {
		seed := seeds[i%len(seeds)]
		data := mutate(r, seed)
		got, want := Detect(data), specFormat(data)
		counts[got]++
		if got != want {
			t.Fatalf("mutant %d (%d bytes, of seed %d): Detect says %v, SPEC §10 says %v; header % x", i, len(data), i%len(seeds), got, want, data[:min(32, len(data))])
		}
		if got == FormatStore && !mayBeStore(data, int64(len(data))) {
			t.Fatalf("mutant %d: a store mayBeStore rules out", i)
		}
	}
	for _, f := range []Format{FormatV1, FormatStore, FormatUnknown} {
		if counts[f] < 300 {
			t.Errorf("only %d mutants detected as %v: the mutations do not reach every class (%v)", counts[f], f, counts)
		}
	}
	t.Logf("classes: %v", counts)
}

// TestDetect_SpecCases are the cases: a v1 file whose index_at
// field (its next_id) is 2^57 is no store; an empty v1 memory followed by
// 100 zero bytes is no store either, and stays writable.
func TestDetect_SpecCases(t *testing.T) {
	empty := store.Encode(1, nil)
	padded := append(append([]byte(nil), empty...), make([]byte, 100)...)
	if got := Detect(padded); got != FormatUnknown {
		t.Errorf("an empty v1 memory and 100 zero bytes: %v, want the v1 reader's to decide", got)
	}
	far := store.Encode(1, []store.Entry{{ID: 1, Name: "a", Content: "x"}})
	far = append(far, make([]byte, 76-len(far))...)
	binary.LittleEndian.PutUint64(far[16:], 1<<57)
	if got := Detect(far); got == FormatStore {
		t.Errorf("a 76-byte file whose index_at is 2^57: %v, want not a store", got)
	}
	path := filepath.Join(t.TempDir(), "memory.db")
	if err := os.WriteFile(path, padded, 0o600); err != nil {
		t.Fatal(err)
	}
	db, err := store.OpenWith(path, store.Options{})
	if err != nil {
		t.Fatalf("open the padded v1 memory: %v", err)
	}
	if _, err := db.Apply(store.Add{Name: "b", Content: "y"}); err != nil {
		t.Errorf("write to the padded v1 memory: %v", err)
	}
}
