package history

import (
	"os"
	"testing"

	"github.com/crmem/crmem/store"
)

// BenchmarkOneStore reads one entry's history from the store at
// $CRMEM_HISTORY_DB ($CRMEM_HISTORY_NAME: the entry), as `crmem history`
// does: the file mapped, the log walked once, the sessions that name it
// decoded. Make a store with a long log with
// `go run ./store/crabdb/crabdbtest/cmd/genlog` (its -help).
func BenchmarkOneStore(b *testing.B) {
	path, name := os.Getenv("CRMEM_HISTORY_DB"), os.Getenv("CRMEM_HISTORY_NAME")
	if path == "" || name == "" {
		b.Skip("set CRMEM_HISTORY_DB and CRMEM_HISTORY_NAME")
	}
	data, err := store.MapFile(path)
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for b.Loop() {
		h := OneStore(data, name)
		if len(h.Versions) == 0 {
			b.Fatal("no versions")
		}
	}
}
