package tui

import (
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/crmem/crmem/keymap"
	"github.com/crmem/crmem/store"
	"github.com/crmem/crmem/store/recalls"
)

// Feature is an optional part of the TUI (editing, dialogs, archive
// references) built on the core screen. Every message reaches the features
// first, in order; a feature that handles it (a prompt taking keys, say)
// returns handled and the core does not see it.
//
// A feature may also implement any of overlayViewer, rowBadger, cardLiner
// and statusTexter to add to the screen.
type Feature interface {
	Update(m *Model, msg tea.Msg) (handled bool, cmd tea.Cmd)
}

// overlayViewer draws a prompt or confirmation in place of the help line;
// an empty string means nothing to show.
type overlayViewer interface {
	OverlayView(m *Model) string
}

// rowBadger adds a short badge after an entry's name in the list.
type rowBadger interface {
	RowBadge(m *Model, e store.Entry) string
}

// cardLiner adds lines to the preview's header card.
type cardLiner interface {
	CardLines(m *Model, e store.Entry) []string
}

// entryFilterer hides entries from the list (e.g. all but orphan archives);
// a nil func means no filter.
type entryFilterer interface {
	EntryFilter(m *Model) func(store.Entry) bool
}

// noticer has a lasting notice that, like a transient message, must not
// be cut: shown when no message is, on a line of its own if need be.
type noticer interface {
	Notice(m *Model) string
}

// notice returns the first feature notice.
func (m *Model) notice() string {
	for _, f := range m.features {
		if n, ok := f.(noticer); ok {
			if s := n.Notice(m); s != "" {
				return s
			}
		}
	}
	return ""
}

// quitNoticer has something to tell the user after the screen is gone
// when they quit (the file holding text that was not saved).
type quitNoticer interface {
	QuitNotice(m *Model) string
}

// quitNotices joins the features' quit notices.
func (m *Model) quitNotices() string {
	var out []string
	for _, f := range m.features {
		if q, ok := f.(quitNoticer); ok {
			if s := q.QuitNotice(m); s != "" {
				out = append(out, s)
			}
		}
	}
	return strings.Join(out, "; ")
}

// bodyViewer draws in place of the panes (w×h) while it has something to
// show; "" means nothing.
type bodyViewer interface {
	BodyView(m *Model, w, h int) string
}

// featureBody returns the first non-empty feature body at w×h.
func (m *Model) featureBody(w, h int) string {
	for _, f := range m.features {
		if b, ok := f.(bodyViewer); ok {
			if s := b.BodyView(m, w, h); s != "" {
				return s
			}
		}
	}
	return ""
}

// snapshotFollower has work to redo when the snapshot is replaced (a
// reload, a write): Follow is asked after every message and returns the
// command that redoes it, or nil.
type snapshotFollower interface {
	Follow(m *Model) tea.Cmd
}

// followSnapshot asks every feature that follows the snapshot.
func (m *Model) followSnapshot() tea.Cmd {
	var cmds []tea.Cmd
	for _, f := range m.features {
		if sf, ok := f.(snapshotFollower); ok {
			cmds = append(cmds, sf.Follow(m))
		}
	}
	return tea.Batch(cmds...)
}

// recallHistorian holds the recall history read from the sessions (the
// editing feature's "recalled N×"), so the stats panel shows it without
// reading the sessions again; nil while it is read.
type recallHistorian interface {
	RecallHistory() *recalls.Then
}

// recallHistory is the first feature's recall history, nil when none.
func (m *Model) recallHistory() *recalls.Then {
	for _, f := range m.features {
		if h, ok := f.(recallHistorian); ok {
			if t := h.RecallHistory(); t != nil {
				return t
			}
		}
	}
	return nil
}

// keyModer sets the key map's mode while it has the keyboard (a dialog).
type keyModer interface {
	KeyMode(m *Model) (keymap.Mode, bool)
}

// featureMode is the first feature's key mode, if one has the keyboard.
func (m *Model) featureMode() (keymap.Mode, bool) {
	for _, f := range m.features {
		if km, ok := f.(keyModer); ok {
			if mode, ok := km.KeyMode(m); ok {
				return mode, true
			}
		}
	}
	return 0, false
}

// statusTexter adds a segment to the status line.
type statusTexter interface {
	StatusText(m *Model) string
}

// defaultFeatures are the features Run installs: the editing code's, and
// the why panel.
func defaultFeatures(opts Options) []Feature {
	return append(editingFeatures(opts), newWhyFeature())
}

// ---- helpers for features ----

// DB returns the open memory file, or nil before it is open.
func (m *Model) DB() *store.DB {
	return m.caps().Writer // nil for crabtalk's store: it is read-only
}

// Path returns the memory file's path.
func (m *Model) Path() string { return m.path }

// SelectedEntry returns the entry under the cursor.
func (m *Model) SelectedEntry() (store.Entry, bool) {
	r, ok := m.list.selected()
	if !ok {
		return store.Entry{}, false
	}
	return m.snap.entries[r.idx], true
}

// ListedEntries returns the entries in the list as shown (search hits, when
// searching), in list order.
func (m *Model) ListedEntries() []store.Entry {
	var out []store.Entry
	for _, r := range m.list.rows {
		if r.isEntry() {
			out = append(out, m.snap.entries[r.idx])
		}
	}
	return out
}

// MarkListed marks (or unmarks) every listed entry and returns how many
// there are; it reads sizes from the rows, so 100k marks stay cheap.
func (m *Model) MarkListed(on bool) int {
	n := 0
	for _, r := range m.list.rows {
		if !r.isEntry() {
			continue
		}
		n++
		e := &m.snap.entries[r.idx]
		_, marked := m.marks[e.ID]
		switch {
		case on && !marked:
			m.marks[e.ID] = *e
			m.markBytes += len(e.Content)
		case !on && marked:
			delete(m.marks, e.ID)
			m.markBytes -= len(e.Content)
		}
	}
	return n
}

// ClearMarks unmarks everything.
func (m *Model) ClearMarks() { m.marks, m.markBytes = map[uint64]store.Entry{}, 0 }

// listedIDs returns the ids of the listed entries, in list order.
func (m *Model) listedIDs() []uint64 {
	ids := make([]uint64, 0, m.list.entries)
	for _, r := range m.list.rows {
		if r.isEntry() {
			ids = append(ids, m.snap.entries[r.idx].ID)
		}
	}
	return ids
}

// Entries returns every entry of the current state, ascending id.
func (m *Model) Entries() []store.Entry { return m.snap.entries }

// Marked reports whether the entry with id is marked.
func (m *Model) Marked(id uint64) bool { _, ok := m.marks[id]; return ok }

// MarkedAs returns the entry with id as it was when marked.
func (m *Model) MarkedAs(id uint64) (store.Entry, bool) {
	e, ok := m.marks[id]
	return e, ok
}

// SetMarked marks or unmarks an entry. Marks survive reloads while the
// entry exists.
func (m *Model) SetMarked(id uint64, on bool) {
	if on == m.Marked(id) {
		return
	}
	e, _ := m.snap.entry(id)
	if on {
		m.marks[id] = e
		m.markBytes += len(e.Content)
	} else {
		delete(m.marks, id)
		m.markBytes -= len(e.Content)
	}
}

// MarkedIDs returns the marked entries' ids.
func (m *Model) MarkedIDs() []uint64 {
	ids := make([]uint64, 0, len(m.marks))
	for id := range m.marks {
		ids = append(ids, id)
	}
	return ids
}

// SetStatus shows a transient message in the status line.
func (m *Model) SetStatus(text string) tea.Cmd { return m.setMessage(text) }

// Keys returns the key map, so a feature can match and enable bindings.
func (m *Model) Keys() *keymap.KeyMap { return &m.c.keys }

// EnableEditing turns the editing bindings on (they are declared but off
// until the editing feature is installed).
func (m *Model) EnableEditing() { m.c.editing = true; m.setMode() }

// Refresh re-reads the memory's entries after a write made through DB() and
// shows them, keeping the selection (by id), search and marks; sel, if not
// zero, selects that entry instead.
func (m *Model) Refresh(sel uint64) tea.Cmd {
	if m.db == nil {
		return nil
	}
	return m.refreshWith(listedSnapshot(m.db.Memory(), m.snap), sel)
}

// refreshWith shows s, a snapshot built off the update loop after a write
// (listedSnapshot with the previous one, so its orders are derived in
// linear time), as Refresh does.
func (m *Model) refreshWith(s *snapshot, sel uint64) tea.Cmd {
	if m.db == nil || s == nil {
		return nil
	}
	m.applySnapshot(s)
	if sel != 0 && !m.list.selectID(m.snap, sel) {
		m.pendingSel = sel // selected once the search re-runs, or revealed
		if m.result == nil {
			m.revealPending()
		}
	}
	m.list.scroll(m.bodyHeight())
	return tea.Batch(m.showSelected(), m.rerunSearch(), warmCmd(m.snap))
}

// Reload re-reads the file now (as `R` does).
func (m *Model) Reload() tea.Cmd { return m.reloadNow() }

// Width is the terminal's width in cells.
func (m *Model) Width() int { return m.c.width }

// Height is the terminal's height in cells.
func (m *Model) Height() int { return m.c.height }

// cardLines collects the features' header-card lines for e.
func (m *Model) cardLines(e store.Entry) []string {
	var out []string
	for _, f := range m.features {
		if c, ok := f.(cardLiner); ok {
			out = append(out, c.CardLines(m, e)...)
		}
	}
	return out
}

// rowBadge collects the features' list badges for e.
func (m *Model) rowBadge(e store.Entry) string {
	var s string
	for _, f := range m.features {
		if b, ok := f.(rowBadger); ok {
			s += b.RowBadge(m, e)
		}
	}
	return s
}

// entryFilter combines the features' entry filters; nil when none applies.
func (m *Model) entryFilter() func(store.Entry) bool {
	var keeps []func(store.Entry) bool
	for _, f := range m.features {
		if ef, ok := f.(entryFilterer); ok {
			if k := ef.EntryFilter(m); k != nil {
				keeps = append(keeps, k)
			}
		}
	}
	if len(keeps) == 0 {
		return nil
	}
	return func(e store.Entry) bool {
		for _, k := range keeps {
			if !k(e) {
				return false
			}
		}
		return true
	}
}

// overlay returns the first non-empty feature overlay.
func (m *Model) overlay() string {
	for _, f := range m.features {
		if o, ok := f.(overlayViewer); ok {
			if s := o.OverlayView(m); s != "" {
				return s
			}
		}
	}
	return ""
}
