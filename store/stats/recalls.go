package stats

import (
	"cmp"
	"time"

	"github.com/crmem/crmem/store"
	"github.com/crmem/crmem/store/recalls"
	"github.com/crmem/crmem/store/sessions"
)

// NeverFew is how many never-recalled entries Recalls lists, oldest and
// biggest, at most (fewer when Options.Top is smaller).
const NeverFew = 5

// Recalled is one entry as the recall history saw it.
type Recalled struct {
	ID        uint64     `json:"id,omitempty"` // 0 (left out) for an entry without one
	Name      string     `json:"name"`
	Kind      store.Kind `json:"kind"`
	Then      int        `json:"then"`       // recorded recalls that returned it
	CreatedAt uint64     `json:"created_at"` // unix seconds, 0 when unknown
	Bytes     int        `json:"bytes"`
}

// Recalls is the recall history's part of the picture: how often the
// agent's recorded recalls returned each entry THEN, as the sessions
// recorded the results (not replayed on the memory as it is now: that is
// `crmem recalls --report`).
type Recalls struct {
	// Recalls is how many recorded recalls were read; Sessions how many
	// sessions they were read from.
	Recalls  int `json:"recalls"`
	Sessions int `json:"sessions"`
	// Recalled is how many entries of the memory at least one recall
	// returned; Never how many none returned.
	Recalled int `json:"recalled"`
	Never    int `json:"never"`
	// Most are the entries returned most often, most first (ties: lower
	// id first), at most Options.Top.
	Most []Recalled `json:"most"`
	// NeverOldest and NeverBiggest are a few never-recalled entries
	// (NeverFew at most): the oldest first (ties: lower id), and the
	// biggest by bytes first (ties: lower id). An entry whose creation
	// time is unknown is not among the oldest.
	NeverOldest  []Recalled `json:"never_oldest"`
	NeverBiggest []Recalled `json:"never_biggest"`
	// Problems is what reading the sessions could not use, as `crmem
	// recalls` counts it.
	Problems sessions.RecallProblems `json:"problems"`
	// At is when the figures were made: the never-recalled entries' ages
	// are counted from it.
	At time.Time `json:"-"`
}

// IsZero reports whether there is no recall history to show: none read,
// no sessions, or no recall in them. JSON leaves such a section out.
func (r *Recalls) IsZero() bool { return r == nil || r.Recalls == 0 }

// computeRecalls builds the recall section of entries from what the
// recorded recalls returned then, in one pass.
func computeRecalls(entries []store.Entry, then *recalls.Then, top int, now time.Time) *Recalls {
	r := &Recalls{Recalls: then.Recalls, Sessions: then.Problems.Sessions, Problems: then.Problems, At: now}
	byID := func(a, b Recalled) int { return cmp.Compare(a.ID, b.ID) }
	most := newOrderedList(top, func(a, b Recalled) bool {
		return cmp.Or(cmp.Compare(b.Then, a.Then), byID(a, b)) < 0
	})
	few := min(max(top, 0), NeverFew)
	oldest := newOrderedList(few, func(a, b Recalled) bool {
		return cmp.Or(cmp.Compare(a.CreatedAt, b.CreatedAt), byID(a, b)) < 0
	})
	biggest := newOrderedList(few, func(a, b Recalled) bool {
		return cmp.Or(cmp.Compare(b.Bytes, a.Bytes), byID(a, b)) < 0
	})
	for i := range entries {
		e := &entries[i]
		n, _ := then.Count(e.Name)
		u := Recalled{ID: e.ID, Name: e.Name, Kind: e.Kind, Then: n, CreatedAt: e.CreatedAt, Bytes: len(e.Content)}
		if n > 0 {
			r.Recalled++
			most.offer(u)
			continue
		}
		r.Never++
		if e.CreatedAt != 0 {
			oldest.offer(u)
		}
		biggest.offer(u)
	}
	r.Most, r.NeverOldest, r.NeverBiggest = most.items, oldest.items, biggest.items
	return r
}
