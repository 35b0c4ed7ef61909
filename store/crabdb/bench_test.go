package crabdb

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/crmem/crmem/bm25"
	"github.com/crmem/crmem/store"
	"github.com/crmem/crmem/store/crabdb/crabdbtest"
)

// storeWriter writes a store the way crabdb and crabtalk's memory code do:
// each remembered entry is its Put in column 2, then its text index —
// postings, doc record, stats rewritten — in column 6; a checkpoint appends
// the snapshot of every live key and points the header at it. For
// performance figures only: crabdb writes postings in hash-map order, so
// parity tests use the fixtures crabtalk wrote, never this.
type storeWriter struct {
	buf   []byte
	live  map[Key]uint64
	stats Stats
}

func newStoreWriter() *storeWriter {
	w := &storeWriter{buf: make([]byte, HeaderLen), live: map[Key]uint64{}}
	copy(w.buf, Magic)
	binary.LittleEndian.PutUint32(w.buf[6:], Version)
	return w
}

// put appends a Put record.
func (w *storeWriter) put(col byte, key string, value []byte) {
	w.live[Key{col, key}] = uint64(len(w.buf))
	w.buf = append(w.buf, OpPut, col)
	w.buf = binary.LittleEndian.AppendUint32(w.buf, uint32(len(key)))
	w.buf = append(w.buf, key...)
	w.buf = binary.LittleEndian.AppendUint32(w.buf, uint32(len(value)))
	w.buf = append(w.buf, value...)
}

// remember stores e as put_memory does.
func (w *storeWriter) remember(e store.Entry) {
	key := MemoryPrefix + e.Name
	created := time.Unix(int64(e.CreatedAt), 0).UTC().Format(time.RFC3339)
	v, _ := json.Marshal(map[string]any{"name": e.Name, "kind": e.Kind.String(), "content": e.Content, "aliases": e.Aliases, "created_at": created})
	w.put(ColMemory, key, v)
	text := e.Content
	if len(e.Aliases) > 0 {
		text = strings.Join(e.Aliases, " ") + "\n" + e.Content
	}
	terms := bm25.Tokenize(text)
	if len(terms) == 0 {
		return
	}
	tfs := map[string]int{}
	for _, t := range terms {
		tfs[t]++
	}
	unique := make([]string, 0, len(tfs))
	for t, tf := range tfs {
		w.put(ColText, termPrefix+t+"/"+key, []byte(fmt.Sprint(tf)))
		unique = append(unique, t)
	}
	slices.Sort(unique)
	doc, _ := json.Marshal(Doc{Len: uint32(len(terms)), Weight: 1, Terms: unique})
	w.put(ColText, docPrefix+key, doc)
	w.stats.Docs++
	w.stats.TotalLen += uint64(len(terms))
	st, _ := json.Marshal(w.stats)
	w.put(ColText, statsKey, st)
}

// checkpoint appends the snapshot and rewrites the header.
func (w *storeWriter) checkpoint() {
	keys := make([]Key, 0, len(w.live))
	for k := range w.live {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, compareKeys)
	at := uint64(len(w.buf))
	w.buf = binary.LittleEndian.AppendUint32(w.buf, uint32(len(keys)))
	for _, k := range keys {
		w.buf = append(w.buf, k.Col)
		w.buf = binary.LittleEndian.AppendUint32(w.buf, uint32(len(k.Key)))
		w.buf = append(w.buf, k.Key...)
		w.buf = binary.LittleEndian.AppendUint64(w.buf, w.live[k])
	}
	binary.LittleEndian.PutUint64(w.buf[16:], at)
	binary.LittleEndian.PutUint64(w.buf[24:], uint64(len(w.buf))-at)
}

// mediumStore writes the 2,000 entries of crmem/medium.db as a
// checkpointed store and returns its path.
func mediumStore(tb testing.TB, dir string) string {
	tb.Helper()
	data, err := os.ReadFile(filepath.Join(refDir, "..", "crmem", "medium.db"))
	if err != nil {
		tb.Fatal(err)
	}
	f, err := store.Decode(data)
	if err != nil {
		tb.Fatal(err)
	}
	w := newStoreWriter()
	for _, e := range f.Entries {
		w.remember(e)
	}
	w.checkpoint()
	path := filepath.Join(dir, "store.crmem")
	if err := os.WriteFile(path, w.buf, 0o600); err != nil {
		tb.Fatal(err)
	}
	return path
}

// benchQueries are crmem's 12 bench queries.
func benchQueries(tb testing.TB) []string {
	data, err := os.ReadFile(filepath.Join(refDir, "..", "bench-queries.txt"))
	if err != nil {
		tb.Fatal(err)
	}
	var qs []string
	for _, line := range strings.Split(string(data), "\n") {
		if strings.TrimSpace(line) != "" {
			qs = append(qs, line)
		}
	}
	return qs
}

// TestMediumStore_Reads checks that the performance corpus is a store this
// reader reads whole, with the writer's stats.
func TestMediumStore_Reads(t *testing.T) {
	f, err := Open(mediumStore(t, t.TempDir()))
	if err != nil {
		t.Fatal(err)
	}
	entries, problems := f.Store().Entries()
	st, _, _ := f.Store().Stats()
	if len(entries) != 2000 || len(problems) > 0 || st.Docs != 2000 || st.TotalLen != 113445 || len(f.Store().Warnings()) > 0 {
		t.Fatalf("%d entries, problems %q, stats %+v, warnings %q", len(entries), problems, st, f.Store().Warnings())
	}
	if hits, err := f.Store().Recall("deploy canary rollback", 10); err != nil || len(hits) == 0 {
		t.Errorf("recall: %v %v", hits, err)
	}
}

// TestWriteMediumStore writes the performance corpus to $CRMEM_WRITE_STORE
// for `crmem bench --db` (figures only).
func TestWriteMediumStore(t *testing.T) {
	dst := os.Getenv("CRMEM_WRITE_STORE")
	if dst == "" {
		t.Skip("set CRMEM_WRITE_STORE=PATH to write the 10 MB performance store there")
	}
	src := mediumStore(t, t.TempDir())
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dst, data, 0o600); err != nil {
		t.Fatal(err)
	}
	t.Logf("wrote %s (%d bytes)", dst, len(data))
}

// BenchmarkOpenMedium times opening the 10 MB store: reading the file,
// the snapshot with every offset checked, the replay, then listing the
// entries and ordering the keys recall scans.
func BenchmarkOpenMedium(b *testing.B) {
	path := mediumStore(b, b.TempDir())
	fi, _ := os.Stat(path)
	b.ReportMetric(float64(fi.Size())/1e6, "MB")
	b.ResetTimer()
	for range b.N {
		f, err := Open(path)
		if err != nil {
			b.Fatal(err)
		}
		f.Store().Entries()
		f.Store().Keys(ColText, "")
	}
}

// BenchmarkRecallMedium times the store's recall over the 12 bench
// queries (one op = one query, round robin).
func BenchmarkRecallMedium(b *testing.B) {
	f, err := Open(mediumStore(b, b.TempDir()))
	if err != nil {
		b.Fatal(err)
	}
	qs := benchQueries(b)
	f.Store().Keys(ColText, "")
	b.ResetTimer()
	for i := range b.N {
		if _, err := f.Store().Recall(qs[i%len(qs)], 10); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkReloadAppendMedium times a reload after the daemon appended one
// record to the 10 MB store (only the new bytes are read).
func BenchmarkReloadAppendMedium(b *testing.B) {
	path := mediumStore(b, b.TempDir())
	f, err := Open(path)
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := range b.N {
		b.StopTimer()
		fh, _ := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
		fh.Write(crabdbtest.Record(OpPut, ColMemory, fmt.Sprintf("local/memory/bench-%d", i), `{"name":"n","kind":"note","content":"x"}`))
		fh.Close()
		b.StartTimer()
		if how, err := f.Reload(); err != nil || how != Appended {
			b.Fatal(how, err)
		}
	}
}

// BenchmarkReloadAppendEntriesMedium is a reload after one appended record
// plus listing the entries again, what the TUI does on a reload.
func BenchmarkReloadAppendEntriesMedium(b *testing.B) {
	path := mediumStore(b, b.TempDir())
	f, err := Open(path)
	if err != nil {
		b.Fatal(err)
	}
	f.Store().Entries()
	b.ResetTimer()
	for i := range b.N {
		b.StopTimer()
		fh, _ := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
		fh.Write(crabdbtest.Record(OpPut, ColMemory, fmt.Sprintf("local/memory/bench-%d", i), `{"name":"n","kind":"note","content":"x"}`))
		fh.Close()
		b.StartTimer()
		if how, err := f.Reload(); err != nil || how != Appended {
			b.Fatal(how, err)
		}
		f.Store().Entries()
	}
}
