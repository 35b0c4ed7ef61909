package sessions_test

import (
	"os"
	"testing"

	"github.com/crmem/crmem/store/sessions"
)

// BenchmarkRead reads the folder in $CRMEM_BENCH_SESSIONS (skipped when unset).
func BenchmarkRead(b *testing.B) {
	dir := os.Getenv("CRMEM_BENCH_SESSIONS")
	if dir == "" {
		b.Skip("CRMEM_BENCH_SESSIONS not set")
	}
	for b.Loop() {
		ss, err := sessions.Read(dir)
		if err != nil || len(ss) == 0 {
			b.Fatal(ss, err)
		}
		sessions.Index(ss)
	}
}

// BenchmarkReader_Reread re-reads an unchanged folder through a Reader.
func BenchmarkReader_Reread(b *testing.B) {
	dir := os.Getenv("CRMEM_BENCH_SESSIONS")
	if dir == "" {
		b.Skip("CRMEM_BENCH_SESSIONS not set")
	}
	r := sessions.NewReader(dir)
	if _, err := r.Read(); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := r.Read(); err != nil {
			b.Fatal(err)
		}
	}
}
