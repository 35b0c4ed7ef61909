package export_test

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/crmem/crmem/export"
	"github.com/crmem/crmem/store"
)

// benchEntries decodes $CRMEM_BENCH_DB, skipping the benchmark when unset.
func benchEntries(b *testing.B) []store.Entry {
	b.Helper()
	path := os.Getenv("CRMEM_BENCH_DB")
	if path == "" {
		b.Skip("CRMEM_BENCH_DB not set")
	}
	data, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	f, err := store.Decode(data)
	if err != nil {
		b.Fatal(err)
	}
	return f.Entries
}

func BenchmarkDump(b *testing.B) {
	entries := benchEntries(b)
	dir := filepath.Join(b.TempDir(), "brain")
	b.ResetTimer()
	for b.Loop() {
		if err := export.Dump(dir, entries); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(entries)), "entries")
}

func BenchmarkLoad(b *testing.B) {
	entries := benchEntries(b)
	dir := filepath.Join(b.TempDir(), "brain")
	if err := export.Dump(dir, entries); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for b.Loop() {
		if _, _, err := export.Load(dir, fixedNow); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkWriteJSONL(b *testing.B) {
	entries := benchEntries(b)
	for b.Loop() {
		if err := export.WriteJSONL(io.Discard, entries); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkReadJSONL(b *testing.B) {
	entries := benchEntries(b)
	var buf bytes.Buffer
	export.WriteJSONL(&buf, entries)
	b.SetBytes(int64(buf.Len()))
	b.ResetTimer()
	for b.Loop() {
		if _, err := export.ReadJSONL("bench", bytes.NewReader(buf.Bytes()), fixedNow); err != nil {
			b.Fatal(err)
		}
	}
}
