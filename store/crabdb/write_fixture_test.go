package crabdb

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/crmem/crmem/bm25"
)

// writesDir holds the write fixtures, copied from
// ../shared/fixtures/crabdb-writes.
const writesDir = "../../testdata/reference/crabdb-writes"

// fixtureOp is one line of ops.jsonl.
type fixtureOp struct {
	Op        string   `json:"op"`
	Name      string   `json:"name"`
	Kind      string   `json:"kind"`
	Content   string   `json:"content"`
	Aliases   []string `json:"aliases"`
	CreatedAt string   `json:"created_at"`
	Now       string   `json:"now"`
	From      string   `json:"from"`
	To        string   `json:"to"`
}

// writesLines reads a write fixture's non-empty lines.
func writesLines(t *testing.T, name string) [][]byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(writesDir, name))
	if err != nil {
		t.Fatal(err)
	}
	var out [][]byte
	for _, l := range bytes.Split(data, []byte("\n")) {
		if len(l) > 0 {
			out = append(out, l)
		}
	}
	return out
}

// applyFixtureOp applies one op the way the fixture's driver does, through
// crabtalk's Memory calls as this package writes them, and appends it.
func applyFixtureOp(t *testing.T, f *File, op fixtureOp) {
	t.Helper()
	s := f.Store()
	b := s.NewBatch()
	current := func(name string) (Entry, bool) {
		v, ok := s.Get(ColMemory, MemoryKey(name))
		if !ok {
			return Entry{}, false
		}
		e, err := decodeEntry(MemoryKey(name), v)
		if err != nil {
			t.Fatal(err)
		}
		return e, true
	}
	var err error
	switch op.Op {
	case "put":
		err = b.PutMemory(Entry{Name: op.Name, Kind: op.Kind, Content: op.Content, Aliases: op.Aliases, CreatedAt: op.CreatedAt})
	case "remember":
		e := Entry{Name: op.Name, Kind: "note", Content: op.Content, Aliases: op.Aliases}
		if old, ok := current(op.Name); ok {
			e.CreatedAt = old.CreatedAt
		} else {
			now, perr := time.Parse(time.RFC3339Nano, op.Now)
			if perr != nil {
				t.Fatal(perr)
			}
			e.CreatedAt = RFC3339(now)
		}
		err = b.PutMemory(e)
	case "remove":
		_, err = b.RemoveMemory(op.Name)
	case "rename":
		old, ok := current(op.From)
		if !ok {
			t.Fatalf("rename of missing %q", op.From)
		}
		old.Name = op.To
		if err = b.PutMemory(old); err == nil {
			_, err = b.RemoveMemory(op.From)
		}
	default:
		t.Fatalf("unknown op %q", op.Op)
	}
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Append(b); err != nil {
		t.Fatal(err)
	}
}

// stateLines is the live state of columns 1, 2 and 6 as the fixture
// writes it.
func stateLines(s *Store) []string {
	var out []string
	for _, k := range s.keys() {
		if k.Col != ColSession && k.Col != ColMemory && k.Col != ColText {
			continue
		}
		line, _ := json.Marshal(struct {
			Col   byte   `json:"col"`
			Key   string `json:"key"`
			Value string `json:"value"`
		}{k.Col, k.Key.Key, string(k.val)})
		out = append(out, string(line))
	}
	return out
}

// normJSON re-encodes a JSON line so that escaping does not matter.
func normJSON(t *testing.T, line []byte) string {
	t.Helper()
	var v any
	if err := json.Unmarshal(line, &v); err != nil {
		t.Fatal(err)
	}
	out, _ := json.Marshal(v)
	return string(out)
}

// recordLines decodes appended bytes as the fixture lists them: one
// line per record, each run of posting puts sorted by key.
func recordLines(t *testing.T, b []byte) []string {
	t.Helper()
	type rec struct {
		Op    string `json:"op"`
		Col   byte   `json:"col"`
		Key   string `json:"key"`
		Value string `json:"value"`
	}
	var recs []rec
	for len(b) > 0 {
		r, ok, err := decodeRecord(b)
		if err != nil || !ok {
			t.Fatalf("appended bytes do not decode: %v", err)
		}
		op := "put"
		if r.op == OpDelete {
			op = "delete"
		}
		recs = append(recs, rec{op, r.col, string(r.key), string(r.value)})
		b = b[r.size:]
	}
	posting := func(r rec) bool { return r.Op == "put" && r.Col == ColText && strings.HasPrefix(r.Key, termPrefix) }
	for i := 0; i < len(recs); {
		j := i
		for j < len(recs) && posting(recs[j]) {
			j++
		}
		if j > i {
			slices.SortFunc(recs[i:j], func(a, b rec) int { return strings.Compare(a.Key, b.Key) })
			i = j
			continue
		}
		i++
	}
	var out []string
	for _, r := range recs {
		line, _ := json.Marshal(r)
		out = append(out, string(line))
	}
	return out
}

// TestWrite_Fixture applies the 19 ops of crabdb-writes to a copy of
// before.crmem and checks, after each, the live state, the searches, the
// records appended (posting runs sorted) and the file's size against what
// crabtalk's own code wrote.
func TestWrite_Fixture(t *testing.T) {
	path := filepath.Join(t.TempDir(), "store.crmem")
	before, err := os.ReadFile(filepath.Join(writesDir, "before.crmem"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, before, 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	queries := writesLines(t, "queries.jsonl")
	steps := writesLines(t, "steps.jsonl")
	checkStep(t, f.Store(), 0, queries)
	matched := 0
	for i, line := range writesLines(t, "ops.jsonl") {
		n := i + 1
		var op fixtureOp
		if err := json.Unmarshal(line, &op); err != nil {
			t.Fatal(err)
		}
		size0 := f.Store().Size()
		applyFixtureOp(t, f, op)
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var st struct {
			Records  int   `json:"appended_records"`
			Bytes    int64 `json:"appended_bytes"`
			FileSize int64 `json:"file_size"`
		}
		json.Unmarshal(steps[i], &st)
		ok := true
		if int64(len(data)) != st.FileSize || int64(len(data))-size0 != st.Bytes {
			t.Errorf("step %02d (%s): file %d bytes (+%d), want %d (+%d)", n, op.Op, len(data), int64(len(data))-size0, st.FileSize, st.Bytes)
			ok = false
		}
		got := recordLines(t, data[size0:])
		var want []string
		for _, l := range writesLines(t, fmt.Sprintf("step-%02d.records.jsonl", n)) {
			want = append(want, normJSON(t, l))
		}
		for j := range got {
			got[j] = normJSON(t, []byte(got[j]))
		}
		if !slices.Equal(got, want) {
			ok = false
			for j := range max(len(got), len(want)) {
				g, w := "", ""
				if j < len(got) {
					g = got[j]
				}
				if j < len(want) {
					w = want[j]
				}
				if g != w {
					t.Errorf("step %02d record %d:\n got %.300s\nwant %.300s", n, j, g, w)
					break
				}
			}
		}
		if checkStep(t, f.Store(), n, queries) && ok {
			matched++
		}
	}
	// crmem's reader reads the finished file as its own append left it.
	g, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	checkStep(t, g.Store(), 19, queries)
	if w := g.Store().Warnings(); len(w) > 0 {
		t.Errorf("warnings reading the result: %q", w)
	}
	if matched != 19 {
		t.Errorf("%d of 19 steps matched", matched)
	}
	checkIndexMatchesEntries(t, g.Store())
	// crabtalk's own result of the same 19 ops: crmem reads it as the
	// state and searches of step 19, and its own file has its size (the
	// bytes differ only in the HashMap order of posting runs).
	after, err := Open(filepath.Join(writesDir, "after.crmem"))
	if err != nil {
		t.Fatal(err)
	}
	checkStep(t, after.Store(), 19, queries)
	checkIndexMatchesEntries(t, after.Store())
	if a, c := after.Store().Size(), g.Store().Size(); a != c {
		t.Errorf("crabtalk's after.crmem has %d bytes, crmem's result %d", a, c)
	}
}

// checkIndexMatchesEntries recounts the memory index from the entries
// (crabtalk's mem_index_matches_entries): each entry with tokens has a
// document of its length and sorted distinct terms, a posting per term
// with its frequency, and the stats count exactly those documents.
func checkIndexMatchesEntries(t *testing.T, s *Store) {
	t.Helper()
	entries, problems := s.Entries()
	if len(problems) > 0 {
		t.Fatal(problems)
	}
	var want Stats
	for _, e := range entries {
		text := e.Content
		if len(e.Aliases) > 0 {
			text = strings.Join(e.Aliases, " ") + "\n" + e.Content
		}
		terms := bm25.Tokenize(text)
		d, err := s.Doc(e.Key)
		if err != nil {
			t.Fatal(err)
		}
		if len(terms) == 0 {
			if d.Len != 0 || len(d.Terms) != 0 {
				t.Errorf("%s: no tokens but a document %+v", e.Name, d)
			}
			continue
		}
		want.Docs++
		want.TotalLen += uint64(len(terms))
		tf := map[string]uint32{}
		for _, x := range terms {
			tf[x]++
		}
		unique := slices.Sorted(maps.Keys(tf))
		if d.Len != uint32(len(terms)) || !slices.Equal(d.Terms, unique) || d.Weight != 1 {
			t.Errorf("%s: document %+v, want len %d terms %v", e.Name, d, len(terms), unique)
		}
		for x, n := range tf {
			if v, ok := s.Get(ColText, termPrefix+x+"/"+e.Key); !ok || string(v) != strconv.Itoa(int(n)) {
				t.Errorf("%s: posting %q = %q, want %d", e.Name, x, v, n)
			}
		}
	}
	if st, _, _ := s.Stats(); st != want {
		t.Errorf("stats %+v, recounted %+v", st, want)
	}
}

// checkStep compares s with step n's state and searches.
func checkStep(t *testing.T, s *Store, n int, queries [][]byte) bool {
	t.Helper()
	ok := true
	var want []string
	for _, l := range writesLines(t, fmt.Sprintf("step-%02d.state.jsonl", n)) {
		want = append(want, normJSON(t, l))
	}
	got := stateLines(s)
	for i := range got {
		got[i] = normJSON(t, []byte(got[i]))
	}
	if !slices.Equal(got, want) {
		ok = false
		t.Errorf("step %02d: state differs (%d lines, want %d)", n, len(got), len(want))
		for i := range min(len(got), len(want)) {
			if got[i] != want[i] {
				t.Errorf("first difference:\n got %.300s\nwant %.300s", got[i], want[i])
				break
			}
		}
	}
	searches := writesLines(t, fmt.Sprintf("step-%02d.search.jsonl", n))
	for i, q := range queries {
		var in struct {
			Query string `json:"query"`
			Limit int    `json:"limit"`
		}
		json.Unmarshal(q, &in)
		var exp struct {
			Hits []struct {
				Name  string  `json:"name"`
				Score float64 `json:"score"`
			} `json:"hits"`
		}
		json.Unmarshal(searches[i], &exp)
		hits, err := s.Recall(in.Query, in.Limit)
		if err != nil {
			t.Fatal(err)
		}
		if len(hits) != len(exp.Hits) {
			t.Errorf("step %02d: %q limit %d: %d hits, want %d", n, in.Query, in.Limit, len(hits), len(exp.Hits))
			ok = false
			continue
		}
		for j, h := range hits {
			w := exp.Hits[j]
			if h.Name != w.Name || math.Abs(h.Score-w.Score) > 1e-9*math.Abs(w.Score) {
				t.Errorf("step %02d: %q hit %d: %s %v, want %s %v", n, in.Query, j, h.Name, h.Score, w.Name, w.Score)
				ok = false
				break
			}
		}
	}
	return ok
}
