package history

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/crmem/crmem/store"
	"github.com/crmem/crmem/store/crabdb"
	"github.com/crmem/crmem/store/sessions"
)

// otherFormat is an open memory of a format whose history crmem does not
// read: the zero Capabilities, as a third format's adapter that says
// nothing of its history would give.
type otherFormat struct{ mem *store.Memory }

func (o otherFormat) Path() string                { return "other.mem" }
func (o otherFormat) Memory() *store.Memory       { return o.mem }
func (o otherFormat) Reload() (store.Diff, error) { return store.Diff{}, nil }
func (o otherFormat) Exists() bool                { return true }
func (o otherFormat) Features() store.Features    { return store.Features{Format: "other"} }

// TestBuild_AFormatWithNoHistoryIsRefused: Build reads a history where the
// source's capabilities say it is, and refuses a format that says none,
// rather than walking its file as crabtalk's store's log (which it did
// for any format not named "CRMEM v1").
func TestBuild_AFormatWithNoHistoryIsRefused(t *testing.T) {
	ix, err := Build(otherFormat{store.NewMemoryWith(&store.File{}, store.IndexNow)})
	if err == nil || ix != nil || !strings.Contains(err.Error(), "the other format keeps none crmem reads") {
		t.Errorf("Build = %v, %v; want the format's refusal", ix, err)
	}
}

// storeLog reads crabtalk's store's log in the tests, as its adapter
// gives it (store/crabdb's Capabilities.Log).
var storeLog store.Log = crabdb.HistoryLog{}

// lineLog is a third format whose history is its own log, one record a
// line after a one-line header: "put NAME JSON" or "del NAME". It is
// what a new adapter gives store/history (store.Log), nothing of
// crabtalk's store in it.
type lineLog struct{}

func (lineLog) HeadLen() int { return len("LINES\n") }

func (l lineLog) Walk(data []byte, from store.LogPos, fn func(store.LogRecord) bool) store.LogEnd {
	at := from.Offset
	if at == 0 {
		at = int64(l.HeadLen())
	}
	for at < int64(len(data)) {
		n := bytes.IndexByte(data[at:], '\n')
		if n < 0 {
			return store.LogEnd{At: store.LogPos{Offset: at}, Torn: true}
		}
		r, ok := l.At(data, at)
		if !ok {
			return store.LogEnd{At: store.LogPos{Offset: at}, Stopped: true, Reason: "not a record"}
		}
		at += int64(n) + 1
		if !fn(r) {
			break
		}
	}
	return store.LogEnd{At: store.LogPos{Offset: at}}
}

func (lineLog) At(data []byte, off int64) (store.LogRecord, bool) {
	line, _, _ := bytes.Cut(data[off:], []byte("\n"))
	op, rest, _ := bytes.Cut(line, []byte(" "))
	name, value, _ := bytes.Cut(rest, []byte(" "))
	if string(op) != "put" && string(op) != "del" || len(name) == 0 {
		return store.LogRecord{}, false
	}
	return store.LogRecord{Offset: off, Kind: store.LogMemory, Delete: string(op) == "del",
		Key: name, KeyAt: off + int64(len(op)) + 1, Value: value}, true
}

func (l lineLog) Each(data []byte, offs []int64, fn func(store.LogRecord)) {
	for _, off := range offs {
		if r, ok := l.At(data, off); ok {
			fn(r)
		}
	}
}

func (lineLog) Continues(before, head []byte, _ int64) bool {
	return bytes.HasPrefix(before, head)
}

func (lineLog) SessionRecalls(handle string, _ []byte, _ []string, _ map[string][]byte, _ func(string) (string, int)) sessions.SessionRecalls {
	return sessions.SessionRecalls{}
}

// lineFormat is an open memory of lineLog's format at path.
type lineFormat struct {
	path string
	mem  *store.Memory
}

func (o lineFormat) Path() string                { return o.path }
func (o lineFormat) Memory() *store.Memory       { return o.mem }
func (o lineFormat) Reload() (store.Diff, error) { return store.Diff{}, nil }
func (o lineFormat) Exists() bool                { return true }
func (o lineFormat) Features() store.Features {
	return store.Features{Format: "lines", Caps: store.Capabilities{History: store.HistoryFromLog, Log: lineLog{}}}
}

// TestBuild_AThirdLogFormat: a format whose history is its own log is
// read through the store.Log its adapter gives (issue 41 §2: what
// differs is a capability of the open memory): Build, BuildCached and a
// following build after an append walk lineLog's records, versions,
// removal and re-creation included, with nothing of crabtalk's store.
func TestBuild_AThirdLogFormat(t *testing.T) {
	path := filepath.Join(t.TempDir(), "memory.lines")
	put := func(name, content string) string {
		return fmt.Sprintf(`put %s {"name":%q,"kind":"note","content":%q,"aliases":[],"created_at":"2026-11-29T06:00:00Z"}`+"\n", name, name, content)
	}
	log := "LINES\n" + put("deploy", "v1") + put("deploy", "v2") + "del deploy\n" + put("other", "x")
	if err := os.WriteFile(path, []byte(log), 0o600); err != nil {
		t.Fatal(err)
	}
	src := lineFormat{path, store.NewMemoryWith(&store.File{}, store.IndexNow)}
	ix, err := Build(src)
	if err != nil {
		t.Fatal(err)
	}
	if h := ix.History("deploy"); len(h.Versions) != 3 || h.Versions[0].Content != "v1" || h.Versions[1].Content != "v2" || h.Versions[2].Action != Delete {
		t.Fatalf("deploy's history = %+v, want v1, v2, removed", h.Versions)
	}
	cache := NewSessionCache()
	if _, err := BuildCached(src, cache); err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(put("deploy", "v3")); err != nil {
		t.Fatal(err)
	}
	f.Close()
	ix, err = BuildCached(src, cache)
	if err != nil {
		t.Fatal(err)
	}
	if h := ix.History("deploy"); len(h.Versions) != 4 || h.Versions[3].Content != "v3" || !cache.extended {
		t.Fatalf("after an append: deploy's history = %+v (extended %v), want v3 last, only the append walked", h.Versions, cache.extended)
	}
}
