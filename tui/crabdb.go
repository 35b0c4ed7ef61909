package tui

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/crmem/crmem/bm25"
	"github.com/crmem/crmem/internal/humanize"
	"github.com/crmem/crmem/internal/sanitize"
	"github.com/crmem/crmem/store"
	"github.com/crmem/crmem/store/crabdb"
	"github.com/crmem/crmem/store/sessions"
)

// source is the open memory: a CRMEM v1 file (*store.DB) or crabtalk's
// store (*storeSource).
type source interface {
	Path() string
	Memory() *store.Memory
	Reload() (store.Diff, error)
	Exists() bool
}

// storeIDBase is where the internal ids of a store's entries start. Store
// entries have no id; the TUI still needs one per entry to follow it across
// reloads, and ids from here up are never shown.
const storeIDBase = 1 << 62

// openSource opens path as a store when it is one (by structure), else as a
// v1 memory file whose index builds in the background.
func openSource(path string) (source, error) {
	if crabdb.IsStore(path) {
		s, err := openStoreSource(path)
		if err != nil {
			return nil, err // no typed nil inside the interface
		}
		return s, nil
	}
	db, err := store.OpenLazy(path)
	if err != nil {
		return nil, err
	}
	return db, nil
}

// storeSource is crabtalk's store seen as a memory: its entries, in key
// order, with internal ids that stay with their keys across reloads.
type storeSource struct {
	mu   sync.Mutex // guards f and its store (a reload extends it in place)
	f    *crabdb.File
	mem  *store.Memory
	ids  map[string]uint64 // entry key → internal id
	next uint64
	last crabdb.Reload // how the last reload went
}

// openStoreSource reads the store at path.
func openStoreSource(path string) (*storeSource, error) {
	f, err := crabdb.Open(path)
	if err != nil {
		return nil, err
	}
	s := &storeSource{f: f, ids: map[string]uint64{}, next: storeIDBase}
	s.mem = store.NewMemoryWith(s.file(), store.IndexBackground)
	return s, nil
}

// file converts the store's entries to a memory file's; s.mu is held (or
// s is not shared yet).
func (s *storeSource) file() *store.File {
	stored, _ := s.f.Store().Entries()
	out := &store.File{Entries: make([]store.Entry, len(stored))}
	for i, e := range stored {
		id, ok := s.ids[e.Key]
		if !ok {
			s.next++
			id = s.next
			s.ids[e.Key] = id
		}
		var created uint64
		if t, err := time.Parse(time.RFC3339Nano, e.CreatedAt); err == nil && t.Unix() > 0 {
			created = uint64(t.Unix())
		}
		kind, err := store.ParseKind(e.Kind) // note, archive (topic); anything else shows as a note
		if err != nil || strings.HasSuffix(e.Kind, "s") {
			kind = store.Note
		}
		out.Entries[i] = store.Entry{ID: id, Name: e.Name, Kind: kind, CreatedAt: created, Aliases: e.Aliases, Content: e.Content}
	}
	out.NextID = s.next + 1
	return out
}

// Path is the store's path.
func (s *storeSource) Path() string { return s.f.Path() }

// Memory is the store's entries as a memory.
func (s *storeSource) Memory() *store.Memory { return s.mem }

// Exists is true: a store that could be opened exists.
func (s *storeSource) Exists() bool { return true }

// Reload reads what the daemon appended (only the new bytes), or the whole
// file after a compaction or a header change, and syncs the memory.
func (s *storeSource) Reload() (store.Diff, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	how, err := s.f.Reload()
	s.last = how
	if err != nil || how == crabdb.Unchanged {
		return store.Diff{}, err
	}
	return s.mem.Sync(s.file()), nil
}

// recall runs the store's own recall; hits come back as internal ids.
func (s *storeSource) recall(query string, limit int) ([]bm25.Hit, []crabdb.Hit, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	hits, err := s.f.Store().RecallExplained(query, limit)
	if err != nil {
		return nil, nil, err
	}
	out := make([]bm25.Hit, 0, len(hits))
	kept := hits[:0:0]
	for _, h := range hits {
		if id, ok := s.ids[h.Key]; ok {
			out = append(out, bm25.Hit{ID: id, Score: h.Score})
			kept = append(kept, h)
		}
	}
	return out, kept, nil
}

// stats returns the index's stored stats.
func (s *storeSource) stats() crabdb.Stats {
	s.mu.Lock()
	defer s.mu.Unlock()
	st, _, _ := s.f.Store().Stats()
	return st
}

// sessions returns the store's sessions as the sessions folder would give
// them: each compaction marker is the session's last, its resume point.
func (s *storeSource) sessions() []sessions.Session {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []sessions.Session
	for _, ss := range s.f.Store().Sessions() {
		se := sessions.Session{Name: ss.Handle}
		if ss.Archive != "" {
			se.Archives, se.Resume = []string{ss.Archive}, ss.Archive
		}
		out = append(out, se)
	}
	return out
}

// sessionsReader reads sessions for the archive references: the sessions
// folder's *sessions.Reader, or a store's storeSessions.
type sessionsReader interface {
	Read() ([]sessions.Session, error)
}

// storeSessions reads a store's sessions for the archive references.
type storeSessions struct{ s *storeSource }

// Read returns the store's sessions.
func (r storeSessions) Read() ([]sessions.Session, error) { return r.s.sessions(), nil }

// ReadOnly reports whether the open memory is crabtalk's store, on which
// every write action is refused.
func (m *Model) ReadOnly() bool {
	_, ok := m.db.(*storeSource)
	return ok
}

// memory returns the open memory, or nil before it is open.
func (m *Model) memory() *store.Memory {
	if m.db == nil {
		return nil
	}
	return m.db.Memory()
}

// storeQuery is the query the store's recall runs while the user types:
// the word being typed (the query ends in a letter or digit, not in a
// space or punctuation) gets the store's own prefix `*`, so `depl` is
// searched as `depl*`. The store splits queries on whitespace, so the
// prefix is the query's last whitespace-separated piece.
func storeQuery(q string) string {
	r, _ := utf8.DecodeLastRuneInString(q)
	if q == "" || !bm25.IsWordRune(r) {
		return q
	}
	return q + "*"
}

// runStoreSearch is runSearch on a store: name matches, then the store's
// own recall of the query with the word being typed as a prefix.
func runStoreSearch(in searchInput) *searchResult {
	q := storeQuery(in.query)
	r := &searchResult{query: in.query, recallQuery: q}
	for _, t := range crabdb.QueryTerms(q) {
		if !t.Prefix {
			r.terms = append(r.terms, t.Text)
		}
	}
	// Every hit, so the count is true; the list keeps the first maxHits.
	exact, parts, err := in.store.recall(q, math.MaxInt32)
	if err != nil {
		r.recallErr = err.Error()
	}
	r.exactTotal = len(exact)
	all := exact
	exact, parts = exact[:min(len(exact), maxHits)], parts[:min(len(parts), maxHits)]
	r.storeHits = map[uint64]crabdb.Hit{}
	scores := map[uint64]hit{}
	for i, h := range parts {
		r.storeHits[exact[i].ID] = h
		for _, p := range h.Parts {
			if p.Query.Prefix && !slices.Contains(r.expansions, p.Term) && len(r.expansions) < maxExpansions {
				r.expansions = append(r.expansions, p.Term)
			}
		}
	}
	for _, h := range exact {
		x := hit{id: h.ID, kind: hitExact, score: h.Score, via: hitExact}
		r.exact = append(r.exact, x)
		scores[h.ID] = x
	}
	r.addNameMatches(in.snap, in.query, scores, all, nil)
	return r
}

// storeRecallLabel says what the store's recall searched, for the status
// line: `recall "depl*"`.
func (r *searchResult) storeRecallLabel() string {
	if r == nil || r.recallQuery == "" {
		return ""
	}
	if r.recallErr != "" {
		return "store recall failed: " + r.recallErr
	}
	return fmt.Sprintf("store recall %q", r.recallQuery)
}

// storeExplainView breaks a store hit's score down by the stored numbers:
// per posting row tf, df (rows of the query term), idf and contribution,
// the document's stored length and weight, and the stored stats.
func storeExplainView(st *styles, r *searchResult, h row, id uint64, stats crabdb.Stats, width int, hk explainHints) string {
	if r == nil || r.recallQuery == "" {
		return st.dim.Render(hk.noQuery())
	}
	sh, ok := r.storeHits[id]
	var b strings.Builder
	fmt.Fprintf(&b, "store recall %q: score %.4f\n\n", r.recallQuery, sh.Score)
	if !ok {
		b.WriteString("The store's recall does not return it")
		if h.hit == hitName {
			b.WriteString(" (listed as a name/alias match)")
		}
		return fitLines(indent(b.String(), "  "), width)
	}
	var qs []string
	for _, t := range crabdb.QueryTerms(r.recallQuery) {
		qs = append(qs, t.String())
	}
	fmt.Fprintf(&b, "query terms: %s  (term* = prefix match)\n\n", strings.Join(qs, " "))
	termW := termColumn(width)
	b.WriteString(termHeader(termW))
	var dl uint32
	weight := 0.0
	for _, p := range sh.Parts {
		name := p.Term
		if p.Query.Prefix {
			name = p.Term + "*"
		}
		b.WriteString(termLine(name, termW, int(p.TF), p.DF, p.IDF, p.Contrib))
		dl, weight = p.DocLen, p.Weight
	}
	avg := 0.0
	if stats.Docs > 0 {
		avg = float64(stats.TotalLen) / float64(stats.Docs)
	}
	fmt.Fprintf(&b, "\nstored doc length %s tokens, weight %g\n", humanize.Count(int(dl)), weight)
	fmt.Fprintf(&b, "stored stats: %s documents, %s tokens (average %.2f)\n", humanize.Count(int(stats.Docs)), humanize.Count(int(stats.TotalLen)), avg)
	fmt.Fprintf(&b, "k1 = 1.2, b = 0.75; df = posting rows\n")
	fmt.Fprintf(&b, "total = %.4f", sh.Score)
	return fitLines(indent(b.String(), "  "), width)
}

// readOnlyMessage is what a write key says on a store.
func readOnlyMessage() string { return crabdb.ErrReadOnly.Error() }

// warnings returns the store's warnings (a torn tail, say) as last read.
func (s *storeSource) warnings() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.f.Store().Warnings()
}

// storeStatus is the status line's part for a store: that it is read-only,
// and what the reader warned about (a torn tail is ignored, and said so).
func (m *Model) storeStatus() []string {
	s, ok := m.db.(*storeSource)
	if !ok {
		return nil
	}
	st := m.c.styles
	var out []string
	for _, w := range s.warnings() {
		out = append(out, st.warning.Render("⚠ "+sanitize.Line(w)))
	}
	return append(out, st.dim.Render("crabtalk store, read-only"))
}
