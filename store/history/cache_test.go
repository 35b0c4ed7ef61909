package history

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/crmem/crmem/store"
	"github.com/crmem/crmem/store/crabdb/crabdbtest/genlog"
)

// TestFromStoreCached_SameAsFromStore: a store's history built with the
// sessions cached by a build of the store as it was before some appends
// (the log cut at a point in the middle of sessions, of a record even) is
// exactly the history FromStore builds from nothing: every name's
// versions and summary, the forgotten entries, where the log stops. And
// the cache was used: the sessions the appends did not touch were not
// decoded again.
func TestFromStoreCached_SameAsFromStore(t *testing.T) {
	for _, index := range []bool{false, true} {
		t.Run(fmt.Sprintf("index=%v", index), func(t *testing.T) {
			data, _ := generated(t, genlog.Options{Seed: 12, Entries: 100, MemoryRecords: 1000, Sessions: 30, Index: index})
			cache := NewSessionCache()
			var reused []int
			for _, cut := range []int{len(data) / 3, len(data) / 2, len(data)*2/3 + 7, len(data) - 1, len(data)} {
				got, want := ReadLogCached(storeLog, data[:cut], cache), ReadLog(storeLog, data[:cut], nil)
				sameIndex(t, cut, got, want)
				reused = append(reused, cache.reused)
			}
			if reused[0] != 0 || reused[len(reused)-1] == 0 {
				t.Errorf("sessions reused by build: %v (the first from nothing, the later ones from the cache)", reused)
			}
			t.Logf("sessions reused by build: %v", reused)
		})
	}
}

// sameIndex fails unless got answers every question as want does.
func sameIndex(t *testing.T, cut int, got, want *Index) {
	t.Helper()
	if !reflect.DeepEqual(got.Names(), want.Names()) {
		t.Fatalf("cut %d: names differ", cut)
	}
	for _, n := range want.Names() {
		if g, w := got.History(n), want.History(n); !reflect.DeepEqual(g, w) {
			t.Fatalf("cut %d: history of %q\n got %+v\nwant %+v", cut, n, g, w)
		}
		if g, w := got.Summary(n), want.Summary(n); !reflect.DeepEqual(g, w) {
			t.Fatalf("cut %d: summary of %q: %+v, want %+v", cut, n, g, w)
		}
	}
	if g, w := got.Forgotten(), want.Forgotten(); !reflect.DeepEqual(g, w) {
		t.Fatalf("cut %d: forgotten differ", cut)
	}
	if g, w := got.Stop(), want.Stop(); !reflect.DeepEqual(g, w) {
		t.Fatalf("cut %d: stop %+v, want %+v", cut, g, w)
	}
	if !reflect.DeepEqual(got.problems, want.problems) {
		t.Fatalf("cut %d: problems %q, want %q", cut, got.problems, want.problems)
	}
}

// ReadLogCached is ReadLog of the whole index, decoding again only
// the sessions cache does not hold as they now are (a session's meta and
// steps, and the agent names it asked for, unchanged since the build
// that cached it): an agent's remember touches one session of hundreds,
// and decoding the sessions is most of a build. It gives exactly what
// ReadLog gives, and leaves in cache this build's sessions.
func ReadLogCached(log store.Log, data []byte, cache *SessionCache) *Index {
	cache.mu.Lock()
	defer cache.mu.Unlock()
	return cache.full(log, data)
}
