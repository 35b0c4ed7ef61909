package hygiene

import (
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/crmem/crmem/bm25"
	"github.com/crmem/crmem/store"
)

// TestRun_WorkBoundsFromOptions: the near-duplicate search's work bounds
// come from Options. On 2,010 notes in 30 words searched at 0.9, a bound
// of two million term comparisons stops it: the report says how far it
// went (Partial, and a note naming --exhaustive); with Exhaustive the
// same bound is lifted: every pair compared, no note, and the planted
// copies of the later entries found too.
func TestRun_WorkBoundsFromOptions(t *testing.T) {
	es, planted := denseSet(2000)
	opts := Options{Kinds: []Kind{Duplicate}, MinSimilarity: 0.9, ExactWork: 2_000_000, PairWork: 2_000_000}
	r := Run(es, opts)
	if r.Partial == nil || r.Partial.Compared >= r.Partial.Entries || r.Partial.Entries != len(es) {
		t.Fatalf("bounded: Partial %+v, want a search stopped before the %d entries", r.Partial, len(es))
	}
	if len(r.Bounded) != 1 || !strings.Contains(r.Bounded[0], "of the first ") || !strings.HasSuffix(r.Bounded[0], "; crmem lint --exhaustive compares every pair (slower)") {
		t.Errorf("bounded: notes %q, want one naming the entries compared and --exhaustive", r.Bounded)
	}
	opts.Exhaustive = true
	full := Run(es, opts)
	if full.Partial != nil || len(full.Bounded) > 0 {
		t.Fatalf("exhaustive: Partial %+v, notes %q: want neither", full.Partial, full.Bounded)
	}
	found := nearPairNames(es, full)
	for _, p := range planted {
		if !found[p] {
			t.Errorf("exhaustive: planted pair %v not found", p)
		}
	}
	if bounded := nearPairNames(es, r); len(bounded) >= len(found) {
		t.Errorf("the bounded search found %d pairs, the exhaustive one %d: want fewer", len(bounded), len(found))
	}
}

// TestWorkBounds_ScaleWithTheMemory: the default bounds grow with the
// memory's entries above their floors, PairWork and ExactWork given are
// kept, and Exhaustive lifts every bound.
func TestWorkBounds_ScaleWithTheMemory(t *testing.T) {
	var o Options
	if p, e, _, _ := o.workBounds(1000); p != MinPairWork || e != MinExactWork {
		t.Errorf("1,000 entries: bounds %d, %d, want the floors %d, %d", p, e, MinPairWork, MinExactWork)
	}
	if p, e, _, _ := o.workBounds(1_000_000); p != PairWorkPerEntry*1_000_000 || e != ExactWorkPerEntry*1_000_000 {
		t.Errorf("a million entries: bounds %d, %d, want %d, %d per entry", p, e, PairWorkPerEntry, ExactWorkPerEntry)
	}
	o = Options{PairWork: 7, ExactWork: 9}
	if p, e, _, _ := o.workBounds(1_000_000); p != 7 || e != 9 {
		t.Errorf("given 7 and 9: bounds %d, %d", p, e)
	}
	o.Exhaustive = true
	if p, e, pf, ef := o.workBounds(1_000_000); p != math.MaxInt || e != math.MaxInt || pf != 0 || ef != 0 {
		t.Errorf("exhaustive: bounds %d, %d (+%d, +%d per pair), want none", p, e, pf, ef)
	}
}

// TestRun_VectorsAsTheIndex: given the vectors alone (lint's way: no
// index), the duplicate and outsize checks report what they report given
// the index, token counts included: graded near-duplicates, an entry of
// 30 times the median's tokens, one without tokens and one without
// content.
func TestRun_VectorsAsTheIndex(t *testing.T) {
	es, _, _ := gradedSet(600, 20, 500)
	long := strings.Repeat("alpha beta gamma delta ", 3000)
	for _, c := range []string{long, "the of and", ""} {
		es = append(es, store.Entry{ID: uint64(len(es) + 1), Name: fmt.Sprintf("extra-%d", len(es)), Content: c, Aliases: []string{}})
	}
	docs := func(i int) bm25.Doc { return bm25.Doc{ID: es[i].ID, Content: es[i].Content, Aliases: es[i].Aliases} }
	kinds := []Kind{Duplicate, Outsize}
	want := Run(es, Options{Kinds: kinds, Index: bm25.BuildFunc(len(es), docs)})
	got := Run(es, Options{Kinds: kinds, Vectors: bm25.BuildVectorsFunc(len(es), docs)})
	if want.Count(Duplicate) == 0 || want.Count(Outsize) < 2 {
		t.Fatalf("the test memory gives %d duplicate and %d outsize findings: want some of each", want.Count(Duplicate), want.Count(Outsize))
	}
	if !reflect.DeepEqual(got.Findings, want.Findings) || !reflect.DeepEqual(got.Bounded, want.Bounded) {
		t.Errorf("with the vectors alone:\n%+v\nwith the index:\n%+v", got.Findings, want.Findings)
	}
}

// TestPartialSearch_Note: the note on a stopped search says which pairs
// were compared, whichever search stopped, where, and names --exhaustive.
func TestPartialSearch_Note(t *testing.T) {
	for _, c := range []struct {
		rare, common int // where each search stopped (0: not)
		want         string
	}{
		{0, 3957, "near-duplicates: every pair of the first 3,957 of 99,999 entries compared, the later entries only with those sharing a rare word with them: the search stopped at its work bound (10 term comparisons), at entry 3,958 of 99,999; crmem lint --exhaustive compares every pair (slower)"},
		{25081, 3957, "near-duplicates: every pair of the first 3,957 of 99,999 entries compared, and the pairs sharing a rare word of the first 25,081: the search stopped at its work bound (10 term comparisons), at entry 3,958 of 99,999; crmem lint --exhaustive compares every pair (slower)"},
		{25081, 0, "near-duplicates: every pair of the first 25,081 of 99,999 entries compared, the later entries' pairs sharing a rare word not all: the search stopped at its work bound (10 term comparisons), at entry 25,082 of 99,999; crmem lint --exhaustive compares every pair (slower)"},
	} {
		var r Report
		if c.rare > 0 {
			r.partial(c.rare, 99_999, "10 term comparisons", true)
		}
		if c.common > 0 {
			r.partial(c.common, 99_999, "10 term comparisons", false)
		}
		if got := r.Partial.note(); got != c.want {
			t.Errorf("stopped at %d (rare) and %d:\n got %s\nwant %s", c.rare, c.common, got, c.want)
		}
	}
}
