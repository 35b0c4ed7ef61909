package recalls

import (
	"cmp"
	"math"
	"slices"
	"strings"

	"github.com/crmem/crmem/store"
	"github.com/crmem/crmem/store/sessions"
)

// EntryUse is how one entry fares in the recorded recalls.
type EntryUse struct {
	Name      string  `json:"name"`
	Kind      string  `json:"kind,omitempty"`       // "" for a name no longer in the memory
	CreatedAt uint64  `json:"created_at,omitempty"` // unix seconds
	Size      int     `json:"size"`                 // content bytes
	Then      int     `json:"then"`                 // recalls that returned it
	Now       int     `json:"now"`                  // recalls that would return it now
	Share     float64 `json:"share"`                // of the distinct queries, the part that returns it now
}

// QueryUse is one distinct query (text and limit) and how often the agent
// made it.
type QueryUse struct {
	Query string `json:"query"`
	Limit int    `json:"limit"`
	Count int    `json:"count"`
}

// Report is what never surfaces, from all the recorded recalls.
type Report struct {
	Recalls int `json:"recalls"` // recalls replayed
	Queries int `json:"queries"` // distinct queries among them
	// Entries is every entry of the memory that a recall returned then or
	// would return now, most returned now first.
	Entries []EntryUse `json:"entries"`
	// Never is the entries no recorded recall returned (Then 0), the one
	// meaning of "never recalled" the stats and the TUI's column share:
	// the cleanup candidates the agent never used, oldest first. Some of
	// them a recorded query would return now (Now above 0).
	Never []EntryUse `json:"never"`
	// Crowding is the entries in the results of at least the crowd share
	// of the distinct queries, as they rank now, biggest share first.
	Crowding []EntryUse `json:"crowding"`
	// EmptyNow is the distinct queries that return nothing now, most
	// made first.
	EmptyNow []QueryUse `json:"empty_now"`
	// Gone is the names recalls returned then that the memory no longer
	// holds, most returned first.
	Gone []EntryUse `json:"gone"`
}

// queryKey is a distinct query.
type queryKey struct {
	text  string
	limit int
}

// Tally counts replayed recalls for a Report. The zero Tally is ready;
// NewTally makes one that counts the names of a memory's entries by
// entry.
type Tally struct {
	then    Then                 // what each recall returned then
	now     map[string]*nowTally // by name, what it is returned now
	queries map[queryKey]*queryTally
	// by, when not nil, counts the names of its entries by entry: then
	// and now hold only the names no entry has.
	by *byEntry
}

// byEntry is a Tally's counts of the names of names' entries, by entry
// index: how many recalls returned each then, and how many recalls and
// distinct queries return it now.
type byEntry struct {
	names                 *Names
	set                   nameSet
	then, now, nowQueries []int
}

// NewTally is a Tally that counts the names of names' entries by entry,
// for ReportNamed over the same names: a name a recall returned then or
// now is looked up once, in the entries' names (which reading the results
// built), rather than counted in a map of its own and looked up again
// for the report. nil names is the zero Tally.
func NewTally(names *Names) *Tally {
	t := &Tally{}
	if names != nil {
		t.by = &byEntry{names: names}
	}
	return t
}

// entryOf is the index of the entry named name, when t counts by entry
// and one has it.
func (t *Tally) entryOf(name string) (int, bool) {
	if t.by == nil {
		return 0, false
	}
	if t.by.then == nil {
		t.by.set = t.by.names.build()
		n := len(t.by.names.entries)
		t.by.then, t.by.now, t.by.nowQueries = make([]int, n), make([]int, n), make([]int, n)
	}
	if len(name) > t.by.set.longest {
		return 0, false
	}
	e, ok := t.by.set.entry[name]
	return e.i, ok
}

// entryByID is entryOf for the name of the entry whose id is id, as a
// ranker named it (Ranked.ids): found at its index when the ids are those
// of the entries in order from 1 (every file crmem or crabtalk writes
// without deletions), without hashing the name. ok is false when that
// entry is not id's or not named name, or when entries share a name (a
// name's counts are its last entry's: entryOf).
func (t *Tally) entryByID(id uint64, name string) (int, bool) {
	if t.by == nil || id == 0 {
		return 0, false
	}
	if t.by.then == nil {
		t.entryOf(name) // builds the names
	}
	entries := t.by.names.entries
	if t.by.set.shared || id > uint64(len(entries)) {
		return 0, false
	}
	i := int(id - 1)
	if e := &entries[i]; e.ID != id || e.Name != name {
		return 0, false
	}
	return i, true
}

// byName moves the counts t keeps by entry into its maps by name, for a
// report not read by entry.
func (t *Tally) byName() {
	by := t.by
	if by == nil {
		return
	}
	t.by = nil
	if by.then == nil {
		return // nothing counted
	}
	if t.now == nil {
		t.now = map[string]*nowTally{}
	}
	if t.then.names == nil {
		t.then.names = map[string]thenCount{}
	}
	// A name's counts are at its last entry's index (entryOf), and the
	// maps hold only names no entry has.
	for i, e := range by.names.entries {
		if n := by.then[i]; n > 0 {
			t.then.names[e.Name] = thenCount{n: n}
		}
		if by.now[i] > 0 {
			t.now[e.Name] = &nowTally{recalls: by.now[i], queries: by.nowQueries[i]}
		}
	}
}

// nowTally is how often a name is returned now: by how many recalls and
// by how many distinct queries (one look-up for both).
type nowTally struct {
	recalls, queries int
}

type queryTally struct {
	count int
	empty bool
}

// Add counts one replayed recall.
func (t *Tally) Add(it Item) {
	if t.now == nil {
		t.now = map[string]*nowTally{}
		t.queries = map[queryKey]*queryTally{}
	}
	if t.by == nil {
		t.then.add(it.Recall)
	} else {
		t.then.Recalls++
		for _, name := range it.Names {
			if i, ok := t.entryOf(name); ok {
				t.by.then[i]++
			} else {
				t.then.addName(name, it.Time)
			}
		}
	}
	k := queryKey{it.Query, it.Limit}
	q := t.queries[k]
	if q == nil {
		q = &queryTally{empty: len(it.Now) == 0}
		t.queries[k] = q
	}
	q.count++
	for k, n := range it.Now {
		i, ok := 0, false
		if k < len(it.nowIDs) {
			i, ok = t.entryByID(it.nowIDs[k], n)
		}
		if !ok {
			i, ok = t.entryOf(n)
		}
		if ok {
			t.by.now[i]++
			if q.count == 1 {
				t.by.nowQueries[i]++
			}
			continue
		}
		c := t.now[n]
		if c == nil {
			c = &nowTally{}
			t.now[n] = c
		}
		c.recalls++
		if q.count == 1 { // the query's first recall
			c.queries++
		}
	}
}

// Stream counts the recalls Stream(r, opt, f, rank, known, …) replays,
// without telling what each one gained or lost or whether it differs
// only by ties, which a report does not read (Item.Added, Removed and
// Ties are left unset): a recall that differs from today's only at a
// tie was ranked again past its limit. It returns what reading the
// sessions could not use.
func (t *Tally) Stream(r store.SessionsReader, opt sessions.RecallOptions, f Filter, rank Ranker, known Known) (sessions.RecallProblems, error) {
	return stream(r, opt, f, rank, known, false, func(it Item) error {
		t.Add(it)
		return nil
	})
}

// Report builds the report against the memory as it is now. crowd is the
// share of distinct queries (0..1] an entry must be returned by to crowd
// the top.
func (t *Tally) Report(mem *store.Memory, crowd float64) Report {
	return t.ReportOf(mem.Entries(), crowd)
}

// ReportOf is Report over the memory's entries as Memory.Entries gives
// them (in ascending id order), for a reader that has them without a
// memory.
func (t *Tally) ReportOf(entries []store.Entry, crowd float64) Report {
	t.byName()
	r := t.newReport(len(entries))
	known := make(map[string]bool, len(t.then.names)) // the names returned then that an entry has
	// The names returned then or now, with both counts: one look-up for
	// each of the memory's entries, most of them in neither.
	type counts struct {
		then int
		now  *nowTally
	}
	named := make(map[string]counts, len(t.then.names)+len(t.now))
	for name, c := range t.then.names {
		named[name] = counts{then: c.n}
	}
	for name, c := range t.now {
		u := named[name]
		u.now = c
		named[name] = u
	}
	for _, e := range entries {
		u := EntryUse{Name: e.Name, Kind: e.Kind.String(), CreatedAt: e.CreatedAt, Size: len(e.Content)}
		if c, ok := named[e.Name]; ok {
			u.Then = c.then
			if c.then > 0 {
				known[e.Name] = true
			}
			if c.now != nil {
				u.Now, u.Share = c.now.recalls, t.share(c.now.queries)
			}
		}
		r.place(u, crowd)
	}
	for name, c := range t.then.names {
		if !known[name] {
			r.Gone = append(r.Gone, EntryUse{Name: name, Then: c.n})
		}
	}
	t.finish(&r)
	return r
}

// ReportNamed is ReportOf over names' entries, the same report, with the
// names the recalls returned then and now looked up once each in names
// rather than every entry's name in a map of those: most entries are in
// neither, and hashing each name was a tenth of building the report on
// the 100k corpus. Where two entries share a name it is ReportOf.
func (t *Tally) ReportNamed(names *Names, crowd float64) Report {
	set := names.build()
	if set.shared || t.by != nil && t.by.names != names {
		return t.ReportOf(names.entries, crowd)
	}
	entries := names.entries
	r := t.newReport(0) // its lists made below, each its size
	// Each entry's counts then and now, by its index: most are zero.
	var then, now, nowQueries []int
	if t.by != nil && t.by.then != nil {
		then, now, nowQueries = t.by.then, t.by.now, t.by.nowQueries // the names no entry has are in the maps
	} else {
		then, now, nowQueries = make([]int, len(entries)), make([]int, len(entries)), make([]int, len(entries))
	}
	for name, c := range t.then.names {
		if e, ok := set.entry[name]; ok {
			then[e.i] += c.n
		} else {
			r.Gone = append(r.Gone, EntryUse{Name: name, Then: c.n})
		}
	}
	for name, c := range t.now {
		if e, ok := set.entry[name]; ok {
			now[e.i] += c.recalls
			nowQueries[e.i] += c.queries
		}
	}
	// Each list made its size at once: grown by appending, the entries
	// recalled were copied about once over, and every list was made on
	// fresh pages (a tenth of the report's allocations).
	recalled, never, crowding := 0, 0, 0
	for i := range entries {
		if then[i] == 0 {
			never++
		}
		if then[i] > 0 || now[i] > 0 {
			recalled++
		}
		if r.Queries > 0 && t.share(nowQueries[i]) >= crowd {
			crowding++
		}
	}
	r.Entries, r.Never, r.Crowding = make([]EntryUse, 0, recalled), make([]EntryUse, 0, never), make([]EntryUse, 0, crowding)
	for i := range entries {
		e := &entries[i]
		u := EntryUse{Name: e.Name, Kind: e.Kind.String(), CreatedAt: e.CreatedAt, Size: len(e.Content), Then: then[i]}
		if now[i] > 0 {
			u.Now, u.Share = now[i], t.share(nowQueries[i])
		}
		r.place(u, crowd)
	}
	t.finish(&r)
	return r
}

// newReport is an empty report of the tally's recalls and queries, room
// made for n entries never recalled.
func (t *Tally) newReport(n int) Report {
	return Report{Recalls: t.then.Recalls, Queries: len(t.queries), Entries: []EntryUse{}, Never: make([]EntryUse, 0, n),
		Crowding: []EntryUse{}, EmptyNow: []QueryUse{}, Gone: []EntryUse{}}
}

// place adds one entry's use to the lists it belongs in: never recalled
// then, recalled then or now, crowding the top at crowd.
func (r *Report) place(u EntryUse, crowd float64) {
	if u.Then == 0 {
		r.Never = append(r.Never, u)
	}
	if u.Then > 0 || u.Now > 0 {
		r.Entries = append(r.Entries, u)
	}
	if r.Queries > 0 && u.Share >= crowd {
		r.Crowding = append(r.Crowding, u)
	}
}

// finish adds the queries that return nothing now and sorts the report.
func (t *Tally) finish(r *Report) {
	for k, q := range t.queries {
		if q.empty {
			r.EmptyNow = append(r.EmptyNow, QueryUse{Query: k.text, Limit: k.limit, Count: q.count})
		}
	}
	sortReport(r)
}

// share is the part of the distinct queries that queries is.
func (t *Tally) share(queries int) float64 {
	if len(t.queries) == 0 {
		return 0
	}
	return float64(queries) / float64(len(t.queries))
}

// sortReport puts every list in its documented order, ties by name. Each
// comparison stops at the first key that differs (cmp.Or would compare
// the names of every pair: the never-recalled list is most of the
// memory).
func sortReport(r *Report) {
	byMost := func(a, b EntryUse) int {
		if c := cmp.Compare(b.Now, a.Now); c != 0 {
			return c
		}
		if c := cmp.Compare(b.Then, a.Then); c != 0 {
			return c
		}
		return strings.Compare(a.Name, b.Name)
	}
	if !sortByKey(r.Entries, func(u *EntryUse) (uint64, bool) {
		if uint(u.Now) > math.MaxUint32 || uint(u.Then) > math.MaxUint32 {
			return 0, false
		}
		return (math.MaxUint32-uint64(u.Now))<<32 | (math.MaxUint32 - uint64(u.Then)), true
	}) {
		slices.SortFunc(r.Entries, byMost)
	}
	// The entries never recalled are most of the memory, read in id
	// order, which is mostly the order they were made in: pdqsort finds
	// them sorted in a pass (sortByKey was 6× slower there).
	slices.SortFunc(r.Never, func(a, b EntryUse) int {
		if c := cmp.Compare(a.CreatedAt, b.CreatedAt); c != 0 {
			return c
		}
		return strings.Compare(a.Name, b.Name)
	})
	slices.SortFunc(r.Crowding, func(a, b EntryUse) int {
		if c := cmp.Compare(b.Share, a.Share); c != 0 {
			return c
		}
		return strings.Compare(a.Name, b.Name)
	})
	slices.SortFunc(r.Gone, func(a, b EntryUse) int {
		if c := cmp.Compare(b.Then, a.Then); c != 0 {
			return c
		}
		return strings.Compare(a.Name, b.Name)
	})
	slices.SortFunc(r.EmptyNow, func(a, b QueryUse) int {
		return cmp.Or(cmp.Compare(b.Count, a.Count), cmp.Compare(a.Query, b.Query), cmp.Compare(a.Limit, b.Limit))
	})
}

// sortByKey sorts us by key, ascending, then by name, as a comparison of
// (key, name) would, and reports whether it did: false (us as it was)
// when key gives no key for a row, or two rows have the same key and
// name (a comparison sort leaves those in an order of its own, which
// the caller's keeps). It sorts rows of the key, the name's first 16
// bytes and an index rather than the rows themselves, so that most
// comparisons read neither a row nor its name's bytes: the rows of a
// report are tens of thousands, most of them tied on the key.
func sortByKey(us []EntryUse, key func(*EntryUse) (uint64, bool)) bool {
	if len(us) < 2 {
		return true
	}
	rows := make([]keyRow, len(us))
	for i := range us {
		k, ok := key(&us[i])
		if !ok {
			return false
		}
		rows[i] = keyRow{key: k, p0: namePrefix(us[i].Name, 0), p1: namePrefix(us[i].Name, 8), i: i}
	}
	slices.SortFunc(rows, func(a, b keyRow) int {
		if a.key != b.key {
			return cmp.Compare(a.key, b.key)
		}
		if a.p0 != b.p0 {
			return cmp.Compare(a.p0, b.p0)
		}
		if a.p1 != b.p1 {
			return cmp.Compare(a.p1, b.p1)
		}
		return strings.Compare(us[a.i].Name, us[b.i].Name)
	})
	for k := 1; k < len(rows); k++ {
		a, b := &rows[k-1], &rows[k]
		if a.key == b.key && a.p0 == b.p0 && a.p1 == b.p1 && us[a.i].Name == us[b.i].Name {
			return false
		}
	}
	// Put each row in its place, following the permutation's cycles.
	for k := range rows {
		if rows[k].i < 0 {
			continue
		}
		held := us[k]
		at := k
		for {
			from := rows[at].i
			rows[at].i = -1
			if from == k {
				us[at] = held
				break
			}
			us[at] = us[from]
			at = from
		}
	}
	return true
}

// keyRow is a row sortByKey sorts: its key, its name's first 16 bytes
// (big-endian, zero past its end) and its index.
type keyRow struct {
	key, p0, p1 uint64
	i           int
}

// namePrefix is the 8 bytes of name from off as a big-endian number, zero
// past its end: two names whose numbers differ compare as the numbers.
func namePrefix(name string, off int) uint64 {
	var p uint64
	for k := range 8 {
		p <<= 8
		if off+k < len(name) {
			p |= uint64(name[off+k])
		}
	}
	return p
}
