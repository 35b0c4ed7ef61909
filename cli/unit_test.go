package cli

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/crmem/crmem/bm25"
	"github.com/crmem/crmem/store"
	"github.com/crmem/crmem/store/check"
)

// TestBenchQueries_MatchFixture keeps the embedded copy equal to the fixture.
func TestBenchQueries_MatchFixture(t *testing.T) {
	want, err := os.ReadFile(filepath.Join("..", "testdata", "reference", "bench-queries.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if defaultQueries != string(want) {
		t.Fatal("benchqueries.txt differs from testdata/reference/bench-queries.txt")
	}
	qs, err := loadQueries("")
	if err != nil || len(qs) != 12 {
		t.Fatalf("built-in queries: %d, %v", len(qs), err)
	}
}

func TestReason(t *testing.T) {
	const p = "/x/memory.db"
	cases := []struct {
		err  error
		want string
	}{
		{&fs.PathError{Op: "open", Path: p, Err: fs.ErrNotExist}, "no such file"},
		{&fs.PathError{Op: "open", Path: p, Err: fs.ErrPermission}, "permission denied"},
		{&store.PathError{Path: p, Err: store.ErrBadFormat}, "bad memory file format"},
		{fmt.Errorf("save: %w", &store.PathError{Path: p, Err: errors.New("lock: busy")}), "lock: busy"},
		{&fs.PathError{Op: "read", Path: "/x/other", Err: fs.ErrPermission}, "read /x/other: permission denied"}, // another file keeps its name
		{errors.New("plain"), "plain"},
	}
	for _, c := range cases {
		if got := reason(p, c.err); got != c.want {
			t.Errorf("reason(%v) = %q, want %q", c.err, got, c.want)
		}
	}
}

func TestFormatDate_BeyondYear9999(t *testing.T) {
	if got := formatDate(0x1122334455667788); !strings.HasPrefix(got, "@") {
		t.Errorf("formatDate(huge) = %q", got)
	}
}

func TestLatency(t *testing.T) {
	var s []time.Duration
	for i := 100; i >= 1; i-- {
		s = append(s, time.Duration(i)*time.Microsecond)
	}
	mean, p50, p99 := latency(s)
	if mean != 50.5 || p50 != 50 || p99 != 99 {
		t.Fatalf("latency = %v, %v, %v; want 50.5, 50, 99", mean, p50, p99)
	}
	if m, a, b := latency(nil); m != 0 || a != 0 || b != 0 {
		t.Fatal("latency of nothing must be zero")
	}
}

func TestTable_AlignsWideCharacters(t *testing.T) {
	tests := []struct {
		name, cell, want string // cell beside "ab", padded to the wider of the two measures (cellWidth)
	}{
		{"wide", "東京", " 1  東京  x\n10  ab    y\n"},
		{"combining mark", "e\u0301", " 1  e\u0301   x\n10  ab  y\n"},
		// Terminals that measure code point by code point (tmux, VTE,
		// xterm) draw these 4 and 6 cells wide, grapheme-clustering ones 2:
		// padded to the wider, the next column never runs into them.
		{"emoji with modifier", "👍🏽", " 1  👍🏽  x\n10  ab    y\n"},
		{"zwj family", "👨\u200d👩\u200d👧", " 1  👨\u200d👩\u200d👧  x\n10  ab      y\n"},
		{"flag", "🇯🇵", " 1  🇯🇵  x\n10  ab  y\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tb := &table{right: map[int]bool{0: true}}
			tb.add("1", tt.cell, "x")
			tb.add("10", "ab", "y")
			var sb strings.Builder
			w := newTestWriter(&sb)
			if err := tb.write(w); err != nil {
				t.Fatal(err)
			}
			w.Flush()
			if sb.String() != tt.want {
				t.Fatalf("got %q, want %q", sb.String(), tt.want)
			}
		})
	}
}

func TestTruncate_DisplayCells(t *testing.T) {
	tests := []struct {
		in   string
		w    int
		want string
	}{
		{"short", 10, "short"},
		{"exactly10c", 10, "exactly10c"},
		{"longer than ten", 10, "longer th…"},
		{"東京都庁舎", 5, "東京…"},
		{"東京都庁舎", 6, "東京…"},
		{"e\u0301e\u0301e\u0301e\u0301", 3, "e\u0301e\u0301…"},
		{"👍🏽👍🏽👍🏽", 4, "…"}, // 👍🏽 is 4 cells code point by code point, and never split
		{"ab", 1, "…"},
		{"ab", 0, ""},
		{"", 0, ""},
		{"a\tb", 2, "a\tb"}, // a tab is no cell wide to ansi (tables only get sanitized text)
	}
	for _, tt := range tests {
		if got := truncate(tt.in, tt.w); got != tt.want {
			t.Errorf("truncate(%q, %d) = %q, want %q", tt.in, tt.w, got, tt.want)
		}
		if got := cellWidth(truncate(tt.in, tt.w)); got > tt.w && tt.in != "a\tb" {
			t.Errorf("truncate(%q, %d) is %d cells as cellWidth measures", tt.in, tt.w, got)
		}
		if got, want := cellWidth(tt.in), max(ansi.StringWidth(tt.in), ansi.WcWidth.StringWidth(tt.in)); got != want {
			t.Errorf("cellWidth(%q) = %d, the wider of ansi's two measures %d", tt.in, got, want)
		}
	}
}

// TestRun_RecoversPanics checks the last-resort recover: a panic becomes one
// crmem: line and exit 1.
func TestRun_RecoversPanics(t *testing.T) {
	var out, errb strings.Builder
	getenv := func(k string) string {
		if k == "CRMEM_DB" {
			panic("boom\nsecond line")
		}
		return ""
	}
	code := run([]string{"ls"}, strings.NewReader(""), &out, &errb, getenv)
	if code != 1 || errb.String() != "crmem: internal error: boom second line\n" {
		t.Fatalf("exit %d, stderr %q", code, errb.String())
	}
}

func newTestWriter(sb *strings.Builder) *bufio.Writer { return bufio.NewWriter(sb) }

// TestCorruptFiles_NeverPanic runs read subcommands in-process on seeded
// corruptions of a valid file (byte flips, truncations, huge counts): each
// either works or fails with one "crmem: " line, never an internal error.
func TestCorruptFiles_NeverPanic(t *testing.T) {
	orig, err := os.ReadFile(filepath.Join("..", "testdata", "reference", "crmem", "small.db"))
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	dir := t.TempDir()
	for i := range 150 {
		data := corrupt(rng, orig)
		db := filepath.Join(dir, fmt.Sprintf("c%03d.db", i))
		if err := os.WriteFile(db, data, 0o600); err != nil {
			t.Fatal(err)
		}
		for _, args := range [][]string{{"check", "--json"}, {"ls"}, {"search", "deploy", "--json"}, {"show", "deploy-steps"}} {
			var out, errb strings.Builder
			code := run(append(args, "--db", db), strings.NewReader(""), &out, &errb, func(string) string { return "" })
			msg := errb.String()
			bad := code > 1 || strings.Contains(msg, "internal error") ||
				(msg != "" && (!strings.HasPrefix(msg, "crmem: ") || strings.Count(msg, "\n") != 1))
			if bad {
				t.Fatalf("corruption %d, %v: exit %d, stderr %q", i, args, code, msg)
			}
		}
	}
}

// corrupt returns a damaged copy of data: a flipped byte, a truncation, or a
// length field set to a huge value.
func corrupt(rng *rand.Rand, data []byte) []byte {
	c := bytes.Clone(data)
	switch rng.IntN(3) {
	case 0:
		c[rng.IntN(len(c))] ^= byte(1 + rng.IntN(255))
	case 1:
		c = c[:rng.IntN(len(c))]
	default:
		at := 16 + rng.IntN(len(c)-20)
		binary.LittleEndian.PutUint32(c[at:], 0xfffffff0)
	}
	return c
}

// TestCheckAgreesWithAdd (issue 17, item 14): the next id check names is
// the one add gives, an entry holding 2^64−1 included (check said "the
// next entry still gets id 0" while add gave 2).
func TestCheckAgreesWithAdd(t *testing.T) {
	e := func(id uint64, name string) store.Entry { return store.Entry{ID: id, Name: name} }
	for _, f := range []store.File{
		{NextID: 0, Entries: []store.Entry{e(1, "a"), e(store.ReservedID, "z")}},
		{NextID: 2, Entries: []store.Entry{e(1, "a"), e(store.ReservedID, "z")}},
		{NextID: 1, Entries: []store.Entry{e(7, "a"), e(store.ReservedID, "z")}},
		{NextID: 1, Entries: []store.Entry{e(9, "a")}},
		{NextID: 0, Entries: []store.Entry{e(3, "a"), e(2, "b")}},
	} {
		db := filepath.Join(t.TempDir(), "memory.db")
		data := store.Encode(f.NextID, f.Entries)
		binary.LittleEndian.PutUint64(data[16:], f.NextID) // Encode raised it: write it stale
		must(t, os.WriteFile(db, data, 0o600))
		var said []string
		for _, l := range strings.Split(mustRun(t, "", "--db", db, "check"), "\n") {
			if i := strings.Index(l, "next entry "); i >= 0 {
				said = append(said, l[i:])
			}
		}
		mustRun(t, "", "--db", db, "add", "new", "x")
		added, _ := byName(lsJSON(t, db), "new")
		for _, s := range said {
			if !strings.Contains(s, fmt.Sprintf("gets id %d)", added.ID)) {
				t.Errorf("%+v: check says %q, add gave id %d", f, s, added.ID)
			}
		}
		if added.ID == 0 || added.ID == store.ReservedID {
			t.Errorf("%+v: add gave id %d", f, added.ID)
		}
	}
}

// TestCLI_CountsHaveThousandsSeparators (issue 17, item 14): counts in
// the command line's text read 1,500, not 1500; ids stay as they are.
func TestCLI_CountsHaveThousandsSeparators(t *testing.T) {
	dir := t.TempDir()
	var lines strings.Builder
	for i := range 1500 {
		fmt.Fprintf(&lines, `{"id":%d,"name":"n%04d","kind":"note","content":"x","aliases":["same"]}`+"\n", 1000+i, i)
	}
	in := filepath.Join(dir, "in.jsonl")
	must(t, os.WriteFile(in, []byte(lines.String()), 0o600))
	db := filepath.Join(dir, "memory.db")
	if out := mustRun(t, "", "--db", db, "import", in); !strings.Contains(out, ": 0 replaced, 1,500 added, 0 unchanged") {
		t.Errorf("import says %q", out)
	}
	out := mustRun(t, "", "--db", db, "check")
	for _, want := range []string{"entries    1,500 (notes 1,500, archives 0, topics 0)", "aliases    1,500", "… and 1,495 more", "next_id    2500"} {
		if !strings.Contains(out, want) {
			t.Errorf("check lacks %q:\n%s", want, out)
		}
	}
}

// TestWriteAnomalies_Summarises checks the human report lists five of a kind
// and counts the rest.
func TestWriteAnomalies_Summarises(t *testing.T) {
	var as []check.Anomaly
	for i := range 7 {
		as = append(as, check.Anomaly{Kind: "shared_alias", Detail: fmt.Sprint("d", i)})
	}
	as = append(as, check.Anomaly{Kind: "trailing_bytes", Detail: "t"})
	var sb strings.Builder
	writeAnomalies(func(f string, v ...any) { fmt.Fprintf(&sb, f, v...) }, as)
	lines := strings.Split(strings.TrimSpace(sb.String()), "\n")
	if len(lines) != 7 || !strings.Contains(lines[6], "and 2 more shared_alias") || !strings.Contains(lines[5], "trailing_bytes: t") {
		t.Fatalf("got:\n%s", sb.String())
	}
}

// TestShow_TokensCountTheWholeDocument: show's token count is the length
// of the document recall indexes (content and aliases), the same figure
// the TUI's card and --explain's document length give.
func TestShow_TokensCountTheWholeDocument(t *testing.T) {
	db := copyFixture(t, "crmem/small.db")
	r := crmem(t, "", "show", "--db", db, "--json", "deploy-steps")
	var e struct {
		Content string   `json:"content"`
		Aliases []string `json:"aliases"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &e); err != nil || len(e.Aliases) == 0 {
		t.Fatalf("show --json: %v %q (want an entry with aliases)", err, r.stdout)
	}
	want := len(bm25.Tokenize(e.Content))
	for _, a := range e.Aliases {
		want += len(bm25.Tokenize(a))
	}
	out := crmem(t, "", "show", "--db", db, "deploy-steps").stdout
	if !strings.Contains(out, fmt.Sprintf("%d bytes, %d tokens", len(e.Content), want)) {
		t.Errorf("show says %q, want %d tokens (content and aliases)", out[:min(len(out), 400)], want)
	}
}

// TestWithoutGC_RestoresSetting: the collector is off while fn runs and the
// caller's setting is back afterwards, error or not.
func TestWithoutGC_RestoresSetting(t *testing.T) {
	prev := debug.SetGCPercent(77)
	defer debug.SetGCPercent(prev)
	var inside int
	err := withoutGC(func() error {
		inside = debug.SetGCPercent(-1)
		return errors.New("boom")
	})
	if err == nil || err.Error() != "boom" {
		t.Errorf("error %v, want fn's", err)
	}
	if inside != -1 {
		t.Errorf("GC percent %d inside, want -1 (off)", inside)
	}
	if after := debug.SetGCPercent(77); after != 77 {
		t.Errorf("GC percent %d afterwards, want 77", after)
	}
}
