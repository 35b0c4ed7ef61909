package store_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/crmem/crmem/store"
)

// ref is the directory of the reference implementation's fixtures.
const ref = "../testdata/reference"

func readFixture(t testing.TB, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(ref, name))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func decodeFixture(t testing.TB, name string) *store.File {
	t.Helper()
	f, err := store.Decode(readFixture(t, name))
	if err != nil {
		t.Fatalf("decode %s: %v", name, err)
	}
	return f
}

func readJSONL(t testing.TB, name string) []store.Entry {
	t.Helper()
	var out []store.Entry
	sc := bufio.NewScanner(bytes.NewReader(readFixture(t, name)))
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var e store.Entry
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		out = append(out, e)
	}
	return out
}

// writeDB encodes entries into a new file under a fresh temp dir.
func writeDB(t testing.TB, nextID uint64, entries ...store.Entry) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "memory.db")
	if err := os.WriteFile(path, store.Encode(nextID, entries), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// sameEntries compares entry lists field by field, a nil alias list equal
// to an empty one.
func sameEntries(t testing.TB, got, want []store.Entry) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("got %d entries, want %d", len(got), len(want))
	}
	for i := range got {
		g, w := got[i], want[i]
		if len(g.Aliases) == 0 && len(w.Aliases) == 0 {
			g.Aliases, w.Aliases = nil, nil
		}
		gj, _ := json.Marshal(g)
		wj, _ := json.Marshal(w)
		if !bytes.Equal(gj, wj) {
			t.Errorf("entry %d:\n got %s\nwant %s", i, gj, wj)
		}
	}
}

func note(id uint64, name, content string, aliases ...string) store.Entry {
	return store.Entry{ID: id, Name: name, Kind: store.Note, CreatedAt: 1767265200 + id,
		Content: content, Aliases: aliases}
}
