package tui

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/crmem/crmem/store/crabdb"
)

// TestStore_RepairAtStartSaid: a screen opened on a store that a killed
// crmem left mid-append (its note, and the reserve record at the end)
// repairs it as every start does and says so on the status line, as the
// command line says it on stderr: the store is writable, so the warning
// must not wait for it to be read-only (seen: the reserve was cut, the
// screen said nothing).
func TestStore_RepairAtStartSaid(t *testing.T) {
	path := copyStore(t, "small.crmem")
	before, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	const n = 400 // the reserve's length: a record that reserves n bytes
	tail := make([]byte, n+10)
	tail[0] = crabdb.OpDelete
	binary.LittleEndian.PutUint32(tail[2:6], uint32(n))
	for i := 6; i < n; i++ {
		tail[i] = 1
	}
	tail[n] = crabdb.OpDelete
	sum := sha256.Sum256([]byte(strings.Repeat("the batch crmem was writing ", 20))) // not the reserve: nothing was switched in
	note, _ := json.Marshal(map[string]any{"scheme": "reserve", "offset": len(before), "length": n, "sha256": hex.EncodeToString(sum[:]), "header": hex.EncodeToString(before[:crabdb.HeaderLen])})
	if err := os.WriteFile(crabdb.IntentPath(path), note, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, append(slices.Clone(before), tail...), 0o600); err != nil {
		t.Fatal(err)
	}
	m := openModel(t, path, 240, 30)
	if m.readOnly() {
		t.Fatalf("the store opened read-only: %q\n%s", m.caps().Warnings, plainScreen(m))
	}
	if s := plainScreen(m); !strings.Contains(s, "crmem's unfinished append at offset 110751") {
		t.Errorf("the screen does not say what the start found:\n%s", s)
	}
	if got, _ := os.ReadFile(path); !slices.Equal(got, before) {
		t.Errorf("the reserve was not cut: %d bytes, before %d", len(got), len(before))
	}
}
