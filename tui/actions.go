package tui

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"sync/atomic"

	tea "charm.land/bubbletea/v2"

	"github.com/crmem/crmem/internal/humanize"
	"github.com/crmem/crmem/store"
	"github.com/crmem/crmem/tui/preview"
)

// Screen rows above the panes (the search line) and below them (status and
// help lines; a long message takes up to two more).
const (
	bodyTop    = 1
	bodyBottom = 2
)

// bodyHeight is the height of the panes, at least one row even when
// none is drawn (scrolling keeps a row in sight).
func (m *Model) bodyHeight() int {
	return max(m.rows().body, 1)
}

// screenRows is how the screen's height is shared out: which of the
// lines around the panes are drawn, and how many rows the panes get.
type screenRows struct {
	search bool     // the search line is drawn
	status []string // the status lines drawn: message lines, then the status line
	help   []string // the dialog, prompt or short help
	body   int      // rows of the panes, 0 when none fit
}

// total is the number of lines drawn.
func (r screenRows) total() int {
	n := len(r.status) + len(r.help) + r.body
	if r.search {
		n++
	}
	return n
}

// rows shares the screen's height out. When everything does not fit,
// what matters least gives way first: the panes down to one row (a
// panel, the history view, the forgotten list to their title and one
// line of it: at 80×3 the history kept only its title), a message wrapped above the
// status line (whole: a line of it alone read as a fragment), the search
// line (never while a query is typed), the status line, the last rows of
// the panes (a panel, the entry a question is about), the short help. A
// dialog's or prompt's lines and the query being typed always stay: at
// heights 5–6 a question lost its [y/n] below the bottom edge (issue 29
// item 7).
func (m *Model) rows() screenRows {
	o := m.overlay()
	r := screenRows{search: true, status: m.statusLines(), help: m.helpLinesOf(o)}
	least := m.topSpec().least // a panel keeps its title and a line of it
	r.body = max(m.c.height-r.total(), least)
	steps := []func(){
		func() { // the message: its lines whole or not at all
			r.status = r.status[max(len(r.status)-1, 0):]
			r.body = max(m.c.height-r.total(), least)
		},
		func() { r.search = m.bar.Typing() },
		func() { r.status = nil },
		func() { r.body = max(m.c.height-(r.total()-r.body), 0) }, // what the other lines leave
		func() {
			if o == "" {
				r.help = nil
			}
		},
	}
	for _, step := range steps {
		if r.total() <= m.c.height {
			break
		}
		step()
	}
	return r
}

// twoPanes reports whether list and preview fit side by side.
func (c *common) twoPanes() bool { return c.width >= 80 }

// listWidth is the list pane's width (the whole screen in one-pane mode).
func (c *common) listWidth() int {
	if !c.twoPanes() {
		return c.width
	}
	return min(max(c.width*2/5, 36), 56)
}

// previewWidth is the preview pane's width.
func (m *Model) previewWidth() int {
	if !m.c.twoPanes() || m.read.zoom {
		return m.c.width
	}
	return m.c.width - m.c.listWidth() - 1
}

// paneAt returns the pane under column x.
func (m *Model) paneAt(x int) focus {
	if !m.c.twoPanes() || m.read.zoom {
		return m.focus
	}
	if x < m.c.listWidth() {
		return focusList
	}
	return focusPreview
}

// moveCursor moves the selection and shows the new entry.
func (m *Model) moveCursor(d int) tea.Cmd {
	if !m.list.MoveBy(d, m.bodyHeight()) {
		return nil
	}
	return m.showSelected()
}

// rebuild lays out the list again from what it is laid out from now
// (rowsSpec), keeping the selected entry if it is still listed.
func (m *Model) rebuild() { m.list.Rebuild(m.c.snap, m.rowsSpec(), m.bodyHeight()) }

// rowsSpec is what the list is laid out from now.
func (m *Model) rowsSpec() rowsSpec {
	lim := m.lim
	lim.nameRows = m.nameRows()
	return listSpec(&m.list, m.result, m.listKeep(), lim, m.c.loc)
}

// nameRows is how many name-match rows are listed before "… N more": the
// configured number, but few enough that the section leaves the last ten
// rows of the first screen to the agent's own ranking (SPEC §7: it starts
// within the first screen) — at 80×24 the default 20 rows, their title and
// the "more" row filled the panes. The default holds from 35 rows on.
func (m *Model) nameRows() int {
	if !m.c.sized {
		return m.lim.nameRows
	}
	return min(m.lim.nameRows, max(m.c.height-bodyTop-bodyBottom-12, 3))
}

// expandNames lists every name match instead of the first few.
func (m *Model) expandNames() tea.Cmd {
	m.list.Expanded = true
	m.rebuild()
	return m.showSelected()
}

// toggleExplain switches the explain view, saying so.
func (m *Model) toggleExplain() tea.Cmd {
	on := m.pv.ToggleExplain()
	text := "explain on: the preview breaks down each listed row's score" + paren(hints(" ", m.c.explainOff(), "turns it off"))
	if !on {
		text = "explain off"
	}
	return tea.Batch(m.showSelected(), m.setMessage(text))
}

// toggleRecall switches the recall view: exactly what the agent's
// recall(query, limit) returns.
func (m *Model) toggleRecall() tea.Cmd {
	if m.result == nil && !m.list.RecallView {
		return m.setMessage("recall view: type a query first" + paren(keyName(m.c.keys.Search)))
	}
	m.list.RecallView = !m.list.RecallView
	m.rebuild()
	if m.list.RecallView {
		m.list.SelectFirst(m.bodyHeight(), false)
	}
	return m.showSelected()
}

// selectBest puts the cursor on the first hit (the best match).
func (m *Model) selectBest() tea.Cmd {
	m.list.SelectFirst(m.bodyHeight(), true)
	return m.showSelected()
}

// setFilter shows one kind (or all).
func (m *Model) setFilter(f kindFilter) tea.Cmd {
	m.list.Filter = f
	id, had := m.list.SelectedID(m.c.snap)
	m.list.Home() // the selection stays if listed, else the first entry
	m.list.Relayout(m.c.snap, m.rowsSpec(), id, had, m.bodyHeight())
	return tea.Batch(m.showSelected(), m.setMessage("showing "+f.String()))
}

// setOrder changes the list's order (a search's too: it lists every hit
// in that order). An order not built yet is built off the update loop;
// the list keeps its order until it arrives.
func (m *Model) setOrder(o sortOrder) tea.Cmd {
	if o != sortRelevance && !m.c.snap.ready(o) {
		m.sorting, m.sortingSearch = o, m.result != nil
		return tea.Batch(orderCmd(m.c.snap, o), m.setMessage("sorting by "+o.String()+"…"))
	}
	m.sorting = -1
	m.list.Order = o
	m.rebuild()
	return tea.Batch(m.showSelected(), m.setMessage("sorted by "+o.String()))
}

// nextOrder is the order s switches to: after the one being built, if any.
func (m *Model) nextOrder() sortOrder {
	if m.sorting >= 0 {
		return m.sorting.Next(m.applied != "")
	}
	return m.list.Order.Next(m.applied != "")
}

// orderReady applies an order built off the loop if it is still wanted.
func (m *Model) orderReady(msg orderReadyMsg) tea.Cmd {
	if msg.o != m.sorting {
		return nil // the user moved on
	}
	if msg.snap != m.c.snap && !m.c.snap.ready(msg.o) {
		return orderCmd(m.c.snap, msg.o) // a reload came in between
	}
	if m.list.Order == sortRelevance && !m.sortingSearch { // a search began meanwhile: the order is for after it
		m.sorting, m.orderBeforeSearch = -1, msg.o
		return nil
	}
	return m.setOrder(msg.o)
}

// querySet starts a search for the search line's current value.
func (m *Model) querySet() tea.Cmd {
	q := m.bar.Input.Value()
	m.searchSeq++ // even when q is already applied: a search started since must not land
	if q == m.applied && m.result != nil {
		return nil
	}
	if strings.TrimSpace(q) == "" {
		m.endSearch()
		return m.showSelected()
	}
	if m.result == nil && m.list.Order != sortRelevance {
		m.orderBeforeSearch, m.list.Order = m.list.Order, sortRelevance
	}
	return searchCmd(m.searchInput(q))
}

// searchInput snapshots what a search needs.
func (m *Model) searchInput(q string) searchInput {
	if m.searchLatest == nil {
		m.searchLatest = new(atomic.Int64)
	}
	m.searchLatest.Store(int64(m.searchSeq))
	in := searchInput{seq: m.searchSeq, query: q, snap: m.c.snap, indexed: m.indexed, latest: m.searchLatest, expand: m.maxExpansions, recall: m.caps().Recall}
	if m.c.db != nil && !m.indexed {
		in.holdIndex = m.c.db.Memory().HoldIndex
	}
	return in
}

// endSearch drops the query's results and restores the order.
func (m *Model) endSearch() {
	m.result, m.applied = nil, ""
	m.moved, m.list.Expanded, m.list.RecallView = false, false, false
	if m.list.Order == sortRelevance {
		m.list.Order = m.orderBeforeSearch
	}
	m.rebuild()
}

// clearSearch empties the search line and returns to the list.
func (m *Model) clearSearch() tea.Cmd {
	m.bar.Clear()
	m.searchSeq++     // drop searches in flight
	m.pv.ExplainOff() // nothing left to explain
	m.endSearch()
	return m.showSelected()
}

// searchDone applies a search result unless a newer search has started.
func (m *Model) searchDone(msg searchDoneMsg) tea.Cmd {
	if msg.seq != m.searchSeq {
		return nil // stale
	}
	if msg.result.Query != m.applied {
		m.list.Expanded = false
	}
	m.result, m.applied = msg.result, msg.result.Query
	m.rebuild()
	if msg.rerun {
		if m.pendingSel != 0 && !m.list.SelectID(m.c.snap, m.pendingSel) {
			m.revealPending()
		}
		m.pendingSel = 0
		return m.showSelected()
	}
	m.moved = false // the query changed: the selection follows the best hit again
	return m.selectBest()
}

// revealPending selects the entry a write just created (a note saved from
// the editor) although the search or the kind filter hides it: both are
// cleared, so what the user just made is what is selected.
func (m *Model) revealPending() {
	id := m.pendingSel
	m.pendingSel = 0
	if m.result != nil || m.bar.Input.Value() != "" {
		m.bar.Input.Reset()
		m.searchSeq++
		m.endSearch()
	}
	m.list.Filter = filterAll
	m.list.Relayout(m.c.snap, m.rowsSpec(), id, true, m.bodyHeight())
}

// rerunSearch repeats the current query (after a reload or indexing).
func (m *Model) rerunSearch() tea.Cmd {
	if m.applied == "" && m.bar.Input.Value() == "" {
		return nil
	}
	m.searchSeq++
	in := m.searchInput(m.bar.Input.Value())
	in.rerun = true
	return searchCmd(in)
}

// showSelected has the preview show the selected entry (preview.show),
// or say why none is.
func (m *Model) showSelected() tea.Cmd {
	if !m.c.sized {
		return nil
	}
	w, h := m.previewWidth(), m.bodyHeight()
	r, ok := m.list.Selected()
	if !ok {
		text := m.emptyText()
		if m.list.AtMore() {
			text = humanize.Count(m.list.Rows()[m.list.Cursor()].More) + " more name matches" + paren(keyHint(m.c.keys.Open, "lists them"))
		}
		m.pv.ShowText(m.c.partContext(h), text, w, h)
		return nil
	}
	e := m.c.snap.entries[r.Idx]
	m.chg.seen(e.ID)
	s := preview.Entry{
		E: e, Extra: m.cardLines(e), IDs: m.caps().ShowsIDs(), Focused: m.focus == focusPreview,
		Terms: m.result.highlightTerms(),
	}
	if m.pv.Explaining() {
		s.Explain = explainView(m.c.styles, m.result, r, e.ID, w, m.c.explainHints())
	}
	return tea.Batch(m.pv.Show(m.c.partContext(h), s, w, h), m.cardWants(e))
}

// emptyText explains an empty list.
func (m *Model) emptyText() string {
	switch {
	case !m.loaded:
		return "opening " + m.path + "…"
	case m.c.db == nil:
		return "" // the list pane says why (unopenedText)
	case m.result != nil:
		return "no matches"
	case m.blankMemory():
		return "" // the list pane greets (welcomeText)
	}
	what := m.list.Filter.String()
	if m.list.Filter == filterAll {
		what = "entries" // "no all here" said nothing
	}
	if m.dates.r.on() {
		return "no " + what + " created " + m.dates.r.text
	}
	return "no " + what + " here"
}

// rendered hands a rendering to the preview, shown if it is still wanted.
func (m *Model) rendered(msg preview.RenderedMsg) tea.Cmd {
	if !m.pv.Rendered(msg) {
		return nil
	}
	return m.showSelected()
}

// opened installs the opened file, or shows why it could not be opened.
func (m *Model) opened(msg loadedMsg) tea.Cmd {
	m.loaded = true
	m.noFolder = folderMissing(m.path)
	if msg.err != nil || msg.db == nil {
		m.openErr = "the file could not be opened"
		if msg.err != nil {
			m.openErr = m.shortError(msg.err)
		}
		m.st.fileWarning = fmt.Sprintf("cannot open (%s) — waiting for a good write", m.openErr)
		return tea.Batch(m.showSelected(), m.readDone())
	}
	m.c.db, m.st.fileWarning, m.openErr = msg.db, "", ""
	m.indexed = indexReady(m.c.db.Memory())
	m.applySnapshot(msg.snap)
	cmds := []tea.Cmd{m.showSelected(), m.rerunSearch(), openedWarmCmd(m.c.snap, m.c.db.Memory()), m.readDone()}
	if m.onStore() { // the check at start knew only the socket
		cmds = append(cmds, m.daemonCheck())
	}
	if !m.indexed {
		cmds = append(cmds, waitIndexCmd(m.c.db.Memory()))
	}
	return tea.Batch(cmds...)
}

// indexDone re-runs the search now that recall can answer, and builds
// the history index put off until then.
func (m *Model) indexDone() tea.Cmd {
	m.indexed = true
	return tea.Batch(m.rerunSearch(), m.showSelected(), m.historyIndexed())
}

// applySnapshot swaps in new entries keeping selection (by id), scroll
// position and marks (dropped for entries that vanished); it returns the
// dropped marks, as the entries were when marked, in ascending id order.
func (m *Model) applySnapshot(s *snapshot) []store.Entry {
	id, had := m.list.SelectedID(m.c.snap)
	m.c.snap = s
	dropped := m.marks.KeepOnly(s.entry)
	slices.SortFunc(dropped, func(a, b store.Entry) int { return cmp.Compare(a.ID, b.ID) })
	m.list.Relayout(m.c.snap, m.rowsSpec(), id, had, m.bodyHeight())
	return dropped
}
