package tui

import (
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/crmem/crmem/store"
)

// The open builds no index: the first frame's snapshot and layout have the
// cores to themselves (issue 40 §2); the open's commands start the build,
// and recall answers once it is done.
func TestOpen_IndexStartsAfterTheFirstFrame(t *testing.T) {
	path := copyFixture(t, "crmem/small.db")
	m := newModel(config{path: path, style: "dark", noColor: true, now: func() time.Time { return testNow }, loc: time.UTC, after: noTimer})
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	msg := openCmd(path, "")().(loadedMsg)
	if msg.db.Memory().IndexReady() {
		t.Fatal("the open built the index before the first frame")
	}
	_, cmd := m.Update(msg)
	if m.indexed || len(m.list.Rows()) == 0 {
		t.Fatalf("first frame: indexed %v, %d rows", m.indexed, len(m.list.Rows()))
	}
	drive(m, cmd)
	if !m.indexed || !msg.db.Memory().IndexReady() {
		t.Fatal("the open's commands left the index unbuilt")
	}
	press(m, "/")
	typeText(m, "release")
	if m.result == nil || m.result.indexing || len(m.result.Exact) == 0 {
		t.Errorf("no ranked hits once indexed: %+v", m.result)
	}
}

// A query typed before the index is built is ranked by a pass over the
// entries: the recall section holds the hits, scores and order the index
// gives once built (the prefix section waits for it).
func TestSearch_BeforeTheIndexRanksAsTheIndex(t *testing.T) {
	for _, q := range []string{"deploy", "deploy canary rollback", "postgres migration deadlock", "σοφός", "zzzz nothing", "the"} {
		t.Run(q, func(t *testing.T) {
			path := copyFixture(t, "crmem/medium.db")
			m := newModel(config{path: path, style: "dark", noColor: true, now: func() time.Time { return testNow }, loc: time.UTC, after: noTimer})
			m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
			_, start := m.Update(openCmd(path, "")()) // the index build is in start, not run yet
			press(m, "/")
			typeText(m, q)
			before := m.result
			if before == nil || !before.indexing {
				t.Fatalf("searched with the index built: %+v", before)
			}
			drive(m, start)
			after := m.result
			if after == nil || after.indexing || after.Query != q {
				t.Fatalf("no search once indexed: %+v", after)
			}
			if before.ExactTotal != after.ExactTotal || !slices.Equal(before.Exact, after.Exact) {
				t.Errorf("before the index %d hits %v\nonce indexed %d hits %v", before.ExactTotal, before.Exact, after.ExactTotal, after.Exact)
			}
			if q == "deploy" && len(before.Exact) == 0 {
				t.Error("no hits before the index")
			}
			for k, h := range before.All { // the pass's positions are the hits' places
				if e := before.AllSnap.(*snapshot).entries[before.AllAt[k]]; e.ID != h.ID {
					t.Fatalf("hit %d: id %d at %d, which holds %d", k, h.ID, before.AllAt[k], e.ID)
				}
			}
		})
	}
}

// A search before the index is built holds the build while it runs, so
// its pass over the entries and its name matches have the cores (issue 40
// §2); it releases the hold when it ends, and a search once the index is
// built holds nothing.
func TestSearch_BeforeTheIndexHoldsTheBuild(t *testing.T) {
	path := copyFixture(t, "crmem/medium.db")
	m := newModel(config{path: path, style: "dark", noColor: true, now: func() time.Time { return testNow }, loc: time.UTC, after: noTimer})
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	msg := openCmd(path, "")().(loadedMsg)
	_, start := m.Update(msg)
	mem := msg.db.Memory()
	in := m.searchInput("deploy")
	if in.holdIndex == nil {
		t.Fatal("a search before the index holds nothing")
	}
	held, released := 0, 0
	hold := in.holdIndex
	in.holdIndex = func() func() {
		held++
		release := hold()
		return func() { released++; release() }
	}
	mem.StartBackground() // held at its first document from the search's hold on
	if r := runSearch(in); len(r.Exact) == 0 || !r.indexing {
		t.Fatalf("no ranked hits before the index: %+v", r)
	}
	if held != 1 || released != 1 {
		t.Fatalf("held %d times, released %d", held, released)
	}
	mem.WaitIndexed() // the hold released: the build ends
	drive(m, start)
	if !m.indexed || m.searchInput("deploy").holdIndex != nil {
		t.Error("a search once the index is built holds the build")
	}
}

// Searches and the warming that want a snapshot's name index at once get
// one and the same (built once: namesBuild), under the race detector too.
func TestNameIndex_ConcurrentCallersGetOneIndex(t *testing.T) {
	es := make([]store.Entry, 2000)
	for i := range es {
		es[i] = store.Entry{ID: uint64(i + 1), Name: fmt.Sprintf("note-%d", i), CreatedAt: uint64(1_700_000_000 + i)}
	}
	s := newSnapshot(es)
	got := make([]*nameIndex, 8)
	var wg sync.WaitGroup
	for i := range got {
		wg.Go(func() { got[i] = s.nameIndex() })
	}
	wg.Wait()
	for _, n := range got {
		if n == nil || n != got[0] {
			t.Fatalf("callers got different name indexes: %p", got)
		}
	}
}
