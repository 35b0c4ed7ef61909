package recalls

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/crmem/crmem/store"
	"github.com/crmem/crmem/store/sessions"
)

// benchDB opens $CRMEM_BENCH_DB (the 100k corpus of SPEC §8: python3
// gen_corpus.py --entries 100000 --seed 7 --crmem /tmp/big.db), else a
// generated 5k-entry file.
func benchDB(b *testing.B) *store.DB {
	b.Helper()
	path := os.Getenv("CRMEM_BENCH_DB")
	if path == "" {
		path = filepath.Join(b.TempDir(), "memory.db")
		if err := os.WriteFile(path, store.Encode(0, synthetic(5000)), 0o600); err != nil {
			b.Fatal(err)
		}
	}
	db, err := store.OpenWith(path, store.Options{})
	if err != nil {
		b.Fatal(err)
	}
	return db
}

var words = strings.Fields("deploy canary rollback postgres migration deadlock agent memory recall session " +
	"flaky test token refresh expiry kubernetes cluster namespace staging production release build cache index")

func synthetic(n int) []store.Entry {
	rng := rand.New(rand.NewPCG(1, 2))
	out := make([]store.Entry, n)
	for i := range out {
		var sb strings.Builder
		for range 40 + rng.IntN(200) {
			sb.WriteString(words[rng.IntN(len(words))] + " ")
		}
		out[i] = store.Entry{ID: uint64(i + 1), Name: fmt.Sprintf("note-%d", i), CreatedAt: 1767265200, Content: sb.String()}
	}
	return out
}

// benchQueries makes n queries of one to three words taken from the
// memory's own entries, as an agent's queries are, at the default limit.
func benchQueries(m *store.Memory, n int) []Query {
	es := m.Entries()
	rng := rand.New(rand.NewPCG(7, 7))
	qs := make([]Query, n)
	for i := range qs {
		f := strings.Fields(es[rng.IntN(len(es))].Content)
		var q []string
		for range 1 + rng.IntN(3) {
			if len(f) > 0 {
				q = append(q, f[rng.IntN(len(f))])
			}
		}
		qs[i] = Query{strings.Join(q, " "), sessions.DefaultRecallLimit}
	}
	return qs
}

// BenchmarkReplay10k replays 10,000 recorded queries on the memory, the
// index built once before the clock starts (SPEC target: ≤ 2 s on the
// 100k corpus). Each round has a ranker of its own, as each command does:
// one keeps the rankings it made.
func BenchmarkReplay10k(b *testing.B) {
	db := benchDB(b)
	db.Memory().WaitIndexed()
	qs := benchQueries(db.Memory(), 10_000)
	for b.Loop() {
		if _, err := Replay(SourceRanker(db), qs, 0); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N)/float64(len(qs)), "µs/query")
}

// writeBenchSessions writes n sessions of steps steps each, a recall and
// its result every tenth step, the rest conversation of a few hundred
// bytes.
func writeBenchSessions(b *testing.B, n, steps int) string {
	b.Helper()
	dir := b.TempDir()
	text := strings.Repeat("the canary went green and the release was promoted ", 6)
	for s := range n {
		sd := filepath.Join(dir, fmt.Sprintf("crab_user_%d", s))
		if err := os.MkdirAll(sd, 0o755); err != nil {
			b.Fatal(err)
		}
		os.WriteFile(filepath.Join(sd, "meta"), []byte(`{"agent":"crab","created_by":"user","created_at":"2026-01-01T00:00:00+00:00","title":"","updated_at":"2026-01-01T00:00:00+00:00","message_count":0}`), 0o644)
		for i := range steps {
			var step string
			switch {
			case i%10 == 8:
				step = fmt.Sprintf(`{"message":{"role":"assistant","content":[{"type":"tool_use","id":"t%d","name":"recall","input":{"query":"deploy rollback %d"}}]}}`, i, i)
			case i%10 == 9:
				step = fmt.Sprintf(`{"message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t%d","name":"recall","content":"## deploy-steps\n%s\n---\n## note-%d\n%s"}]}}`, i-1, text, i, text)
			default:
				step = fmt.Sprintf(`{"message":{"role":"user","content":[{"type":"text","text":%q}]}}`, text)
			}
			if err := os.WriteFile(filepath.Join(sd, fmt.Sprintf("step-%06d", i)), []byte(step), 0o644); err != nil {
				b.Fatal(err)
			}
		}
	}
	return dir
}

// BenchmarkWalkRecalls reads the recalls of 200 sessions × 100 steps
// ($CRMEM_BENCH_SESSIONS_N sessions when set); ns/step is what a folder of
// 10,000 × 100 steps costs per step. With $CRMEM_BENCH_RECALLS it reads
// that sessions folder instead (scripts/gen-sessions.py writes one in
// crabtalk's shapes: 500 sessions, 60,000 steps, 10,000 recalls).
func BenchmarkWalkRecalls(b *testing.B) {
	if dir := os.Getenv("CRMEM_BENCH_RECALLS"); dir != "" {
		benchWalkFolder(b, dir)
		return
	}
	n := 200
	if v := os.Getenv("CRMEM_BENCH_SESSIONS_N"); v != "" {
		fmt.Sscan(v, &n)
	}
	dir := writeBenchSessions(b, n, 100)
	for b.Loop() {
		got := 0
		p, err := sessions.WalkRecalls(dir, sessions.RecallOptions{}, func(s sessions.SessionRecalls) error {
			got += len(s.Recalls)
			return nil
		})
		if err != nil || got != n*10 || p.UnparsableSteps+p.UnparsableResults != 0 {
			b.Fatal(got, p, err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n*100), "ns/step")
}

// BenchmarkReadThen counts what the recalls of 200 sessions × 100 steps
// returned then, as `crmem stats` and the TUI do: the reading alone, no
// index and no replay (compare BenchmarkWalkRecalls).
func BenchmarkReadThen(b *testing.B) {
	const n = 200
	dir := writeBenchSessions(b, n, 100)
	for b.Loop() {
		th, err := ReadThen(sessions.Folder(dir), sessions.RecallOptions{}, nil)
		if err != nil || th.Recalls != n*10 {
			b.Fatal(th.Recalls, err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n*100), "ns/step")
}

// benchWalkFolder reads the recalls of the sessions folder dir.
func benchWalkFolder(b *testing.B, dir string) {
	var steps int
	for b.Loop() {
		p, err := sessions.WalkRecalls(dir, sessions.RecallOptions{}, func(sessions.SessionRecalls) error { return nil })
		if err != nil || p.Steps == 0 {
			b.Fatal(p, err)
		}
		steps = p.Steps
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(steps), "ns/step")
}
