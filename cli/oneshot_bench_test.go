package cli

import (
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/crmem/crmem/store"
)

// The one-shot benchmarks run one read-only subcommand in process, as one
// invocation of crmem does once started (read, decode, its work, the
// output, here to io.Discard), on $CRMEM_BENCH_DB or else a generated
// 3,000-entry memory. Process start is not included: scripts/oneshot-bench.sh
// times whole processes against an older build.
//
//	CRMEM_BENCH_DB=/tmp/big.db go test -run '^$' -bench OneShot -benchtime 10x

func BenchmarkOneShotSearch(b *testing.B) {
	benchOneShot(b, func(string) []string { return []string{"search", "deploy", "canary", "rollback"} })
}

func BenchmarkOneShotSearchExplain(b *testing.B) {
	benchOneShot(b, func(string) []string { return []string{"search", "--explain", "deploy", "canary", "rollback"} })
}

func BenchmarkOneShotLs(b *testing.B) {
	benchOneShot(b, func(string) []string { return []string{"ls"} })
}

func BenchmarkOneShotLsJSON(b *testing.B) {
	benchOneShot(b, func(string) []string { return []string{"ls", "--json"} })
}

func BenchmarkOneShotShow(b *testing.B) {
	benchOneShot(b, func(name string) []string { return []string{"show", name} })
}

func BenchmarkOneShotCheck(b *testing.B) {
	benchOneShot(b, func(string) []string { return []string{"check"} })
}

func BenchmarkOneShotExport(b *testing.B) {
	benchOneShot(b, func(string) []string { return []string{"export"} })
}

// BenchmarkOneShotLint is lint --json over the whole memory, every check
// (exit 1, findings, is its success here too). On the 100k corpus:
//
//	CRMEM_BENCH_DB=/tmp/big.db go test ./cli -run '^$' -bench 'OneShot(Lint|Ls)' -benchtime 5x
func BenchmarkOneShotLint(b *testing.B) {
	benchOneShot(b, func(string) []string { return []string{"lint", "--json"} })
}

// benchOneShot runs the command line args returns (given the name of an
// entry in the middle of the memory) once per iteration.
func benchOneShot(b *testing.B, args func(name string) []string) {
	home := b.TempDir()
	path := os.Getenv("CRMEM_BENCH_DB")
	if path == "" {
		path = filepath.Join(home, "memory.db")
		if err := os.WriteFile(path, benchMemory(3000), 0o600); err != nil {
			b.Fatal(err)
		}
	}
	line := append([]string{"--db", path}, args(middleName(b, path))...)
	lint := line[2] == "lint" // exit 1 says it found something
	getenv := func(k string) string {
		if k == "HOME" {
			return home
		}
		return ""
	}
	b.ResetTimer()
	for b.Loop() {
		if code := run(line, strings.NewReader(""), io.Discard, io.Discard, getenv); code != 0 && !(code == 1 && lint) {
			b.Fatalf("crmem %s: exit %d", strings.Join(line, " "), code)
		}
	}
}

// middleName is the name of the entry in the middle of the memory at path.
func middleName(b *testing.B, path string) string {
	data, err := store.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	f, err := store.Decode(data)
	if err != nil || len(f.Entries) == 0 {
		b.Fatalf("%s: %v (%d entries)", path, err, len(f.Entries))
	}
	return f.Entries[len(f.Entries)/2].Name
}

// benchMemory is a deterministic memory of n entries of prose-like text,
// about 600 bytes each, like an agent's notes.
func benchMemory(n int) []byte {
	words := strings.Fields("deploy canary rollback postgres migration deadlock agent memory recall session " +
		"cluster release token refresh cache index query latency error retry config user team schema " +
		"the of and to in is that for with on as was")
	rng := rand.New(rand.NewPCG(7, 18))
	entries := make([]store.Entry, n)
	for i := range entries {
		var sb strings.Builder
		for range 60 + rng.IntN(60) {
			sb.WriteString(words[rng.IntN(len(words))])
			sb.WriteByte(' ')
		}
		entries[i] = store.Entry{ID: uint64(i + 1), Name: fmt.Sprintf("note-%d", i), Kind: store.Kind(i % 3),
			CreatedAt: 1767265200 + uint64(i), Content: sb.String(), Aliases: []string{fmt.Sprintf("alias-%d", i)}}
	}
	return store.Encode(uint64(n+1), entries)
}

// BenchmarkOneShotVersion is the command line's own cost for the smallest
// command: building the command tree, parsing, printing (no memory file).
func BenchmarkOneShotVersion(b *testing.B) {
	home := b.TempDir()
	getenv := func(k string) string {
		if k == "HOME" {
			return home
		}
		return ""
	}
	for b.Loop() {
		if code := run([]string{"version"}, strings.NewReader(""), io.Discard, io.Discard, getenv); code != 0 {
			b.Fatalf("crmem version: exit %d", code)
		}
	}
}
