package cli

import (
	"fmt"
	"io"
	"time"

	"github.com/crmem/crmem/export"
	"github.com/crmem/crmem/internal/humanize"
	"github.com/crmem/crmem/store"
)

// presenter shows entries the way their format has them. A CRMEM v1
// memory's entries have ids and creation times in unix seconds (SPEC §6's
// JSON shape); a format that wrote more than a v1 entry holds
// (store.Features.Stored: crabtalk's store, with keys, created_at as text
// and free kinds) is shown as written, without ids. Every read verb has one
// implementation and asks its presenter only for the parts that differ.
type presenter interface {
	// kind is e's kind as the format wrote it.
	kind(e store.Entry) string
	// json is e's JSON shape.
	json(e store.Entry) any
	// hitJSON is a search result's JSON shape.
	hitJSON(h hit) any
	// writeJSONL prints entries as JSON lines (export).
	writeJSONL(w io.Writer, entries []store.Entry) error
	// lsTable is ls's listing.
	lsTable(entries []store.Entry, now time.Time) *table
	// card is show's header.
	card(e store.Entry, now time.Time) *table
}

// presenterOf is the presenter for a memory with features f.
func presenterOf(f store.Features) presenter {
	if f.Stored != nil {
		return storedPresenter{f.Stored}
	}
	return v1Presenter{}
}

// hit is one search result, whatever the format: the entry, its score and,
// when asked for, why it scored that.
type hit struct {
	entry   store.Entry
	score   float64
	explain *jsonExplain
}

// v1Presenter shows CRMEM v1 entries.
type v1Presenter struct{}

func (v1Presenter) kind(e store.Entry) string { return e.Kind.String() }

func (v1Presenter) json(e store.Entry) any { return toJSON(e) }

func (v1Presenter) hitJSON(h hit) any {
	return jsonHit{jsonEntry: toJSON(h.entry), Score: h.score, Explain: h.explain}
}

func (v1Presenter) writeJSONL(w io.Writer, entries []store.Entry) error {
	return export.WriteJSONL(w, entries)
}

func (v1Presenter) lsTable(entries []store.Entry, now time.Time) *table {
	t := &table{right: map[int]bool{0: true, 5: true}}
	t.add("ID", "KIND", "NAME", "CREATED", "AGE", "SIZE", "ALIASES")
	for _, e := range entries {
		t.add(fmt.Sprint(e.ID), e.Kind.String(), lsName(e.Name), formatDate(e.CreatedAt),
			humanize.Age(now, e.CreatedAt), humanize.Size(len(e.Content)), aliasList(e.Aliases, 60))
	}
	return t
}

func (v1Presenter) card(e store.Entry, now time.Time) *table {
	t := &table{}
	t.add("name", nameText(e.Name))
	t.add("kind", e.Kind.String())
	t.add("id", fmt.Sprint(e.ID))
	t.add("created", fmt.Sprintf("%s (%s)", formatDate(e.CreatedAt), humanize.Ago(now, e.CreatedAt)))
	if len(e.Aliases) > 0 {
		t.add("aliases", aliasList(e.Aliases, 1<<20))
	}
	t.add("size", humanize.Plural(len(e.Content), "byte")+", "+humanize.Plural(e.Tokens(), "token"))
	return t
}

// storedPresenter shows entries as their format wrote them.
type storedPresenter struct{ st store.StoredReader }

// stored is e as written; an entry the reader does not know is shown
// from its v1 fields.
func (p storedPresenter) stored(e store.Entry) store.Stored {
	if s, ok := p.st.Stored(e.ID); ok {
		return s
	}
	return store.Stored{Key: e.Name, Kind: e.Kind.String()}
}

func (p storedPresenter) kind(e store.Entry) string { return p.stored(e).Kind }

func (p storedPresenter) json(e store.Entry) any { return p.jsonEntry(e) }

// jsonEntry is e's stored JSON shape: SPEC §6's without "id", created_at
// as written (left out when there is none).
func (p storedPresenter) jsonEntry(e store.Entry) storeJSONEntry {
	s := p.stored(e)
	aliases := e.Aliases
	if aliases == nil {
		aliases = []string{}
	}
	return storeJSONEntry{Name: e.Name, Kind: s.Kind, CreatedAt: s.CreatedAt, Aliases: aliases, Content: e.Content}
}

func (p storedPresenter) hitJSON(h hit) any {
	return storeHit{storeJSONEntry: p.jsonEntry(h.entry), Score: h.score, Explain: h.explain}
}

func (p storedPresenter) writeJSONL(w io.Writer, entries []store.Entry) error {
	return export.WriteLines(w, entries, p.jsonEntry)
}

func (p storedPresenter) lsTable(entries []store.Entry, now time.Time) *table {
	t := &table{right: map[int]bool{4: true}}
	t.add("KIND", "NAME", "CREATED", "AGE", "SIZE", "ALIASES")
	for _, e := range entries {
		created, age := p.date(e, now)
		t.add(sanitizeLine(p.kind(e)), lsName(e.Name), created, age, humanize.Size(len(e.Content)), aliasList(e.Aliases, 60))
	}
	return t
}

// date shows e's creation as a local date and an age: "-" when the format
// wrote none, the text as written and "?" when it is no time.
func (p storedPresenter) date(e store.Entry, now time.Time) (date, age string) {
	s := p.stored(e)
	if s.CreatedAt == "" {
		return "-", "-"
	}
	if e.CreatedAt == 0 {
		return sanitizeLine(s.CreatedAt), "?"
	}
	return formatDate(e.CreatedAt), humanize.Age(now, e.CreatedAt)
}

func (p storedPresenter) card(e store.Entry, now time.Time) *table {
	s := p.stored(e)
	t := &table{}
	t.add("name", nameText(e.Name))
	t.add("kind", sanitizeLine(s.Kind))
	date, _ := p.date(e, now)
	if e.CreatedAt != 0 {
		date = fmt.Sprintf("%s (%s) %s", date, humanize.Ago(now, e.CreatedAt), sanitizeLine(s.CreatedAt))
	}
	t.add("created", date)
	if len(e.Aliases) > 0 {
		t.add("aliases", aliasList(e.Aliases, 1<<20))
	}
	t.add("size", humanize.Plural(len(e.Content), "byte")+", "+humanize.Plural(e.Tokens(), "token"))
	t.add("key", sanitizeLine(s.Key))
	return t
}
