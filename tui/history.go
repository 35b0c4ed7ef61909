package tui

import (
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/crmem/crmem/internal/humanize"
	"github.com/crmem/crmem/store"
	"github.com/crmem/crmem/store/history"
	"github.com/crmem/crmem/tui/part"
)

// historyIndex is every entry's story as read once from the open memory
// (part.HistoryIndex, lent to the parts through their context).
type historyIndex = part.HistoryIndex

// historyBuilder reads the index of a memory (history.Build).
type historyBuilder func(store.Source) (historyIndex, error)

// restoreFunc is the operations that bring version v of h back over the
// entry current (nil when memory does not hold it) (history.RestoreOps).
type restoreFunc func(h history.History, v history.Version, current *store.Entry) ([]store.Op, error)

// historyState is the index the history view, the forgotten list and the
// card's provenance line read. One build runs at a time: a reload or a
// write during it asks for another once it is done, so the index shown
// catches up with the memory without builds piling up. Nothing asks the
// index on the update loop: on a generated store of a million log records
// one entry's summary takes up to 9 ms and the forgotten entries 9 s
// (busy machine), so the card's summaries, like the views' histories and
// the forgotten list, are read off the loop, one at a time.
type historyState struct {
	build    historyBuilder
	restore  restoreFunc
	ix       historyIndex // nil until the first build is done, and during a slow one
	gen      int          // counts the indexes built: what the views and summaries were read from
	err      error        // why the last build failed
	building bool
	again    bool // the memory changed during the build: build again after it
	// took is how long the last build took, doneAt when it ended; deferred
	// says a build is put off until the cooldown after a slow one ends.
	took     time.Duration
	doneAt   time.Time
	deferred bool
	// sums are the summaries read from ix by name; old those of the index
	// before, shown until ix's are read (a reload does not blank the card).
	sums, old map[string]history.Summary
	sumAsk    string // the name whose summary is being read; "" when none
	sumNext   string // the name wanted meanwhile, read next
}

// summaryMsg carries an entry's summary as the index of generation gen
// has it.
type summaryMsg struct {
	gen  int
	name string
	sum  history.Summary
}

// historyBuiltMsg carries a build of the index and how long it took.
type historyBuiltMsg struct {
	ix   historyIndex
	err  error
	took time.Duration
}

// historyRebuildMsg says the cooldown after a slow build is over.
type historyRebuildMsg struct{}

// A build that took historySlow or more is followed by a cooldown of
// historyCooldown times as long before the next: on a store whose log
// holds a million records a build takes half a minute, and an agent that
// writes every few seconds would keep a core busy building. The index
// shown lags the memory by as much meanwhile; a quick build (any v1
// memory, any store of ordinary size) is never put off.
const (
	historySlow     = 250 * time.Millisecond
	historyCooldown = 4
)

// newHistoryState is the index of a screen that reads the history: built
// by history.BuildCached, restored through history.RestoreOps.
func newHistoryState() historyState {
	return historyState{build: cachedHistory(history.NewSessionCache()), restore: history.RestoreOps}
}

// historyOpened builds the index of a memory just opened if the search's
// index is built, else once it is (historyIndexed): the search's comes
// first.
func (m *Model) historyOpened(msg loadedMsg) tea.Cmd {
	if msg.err != nil || msg.db == nil || !indexReady(msg.db.Memory()) {
		return nil
	}
	return m.hist.rebuild(msg.db)
}

// historyIndexed builds the index once the search's is built, when the
// memory opened before it was.
func (m *Model) historyIndexed() tea.Cmd {
	if m.hist.ix != nil || m.hist.building {
		return nil
	}
	return m.hist.rebuild(m.c.db)
}

// rebuildHistory builds the index again after the memory changed: now,
// after the build under way, or once the cooldown after a slow build
// ends.
func (m *Model) rebuildHistory() tea.Cmd {
	s := &m.hist
	if s.building {
		s.again = true
		return nil
	}
	if s.took >= historySlow {
		if wait := time.Until(s.doneAt.Add(historyCooldown * s.took)); wait > 0 {
			if s.deferred {
				return nil
			}
			s.deferred = true
			return m.after(wait, historyRebuildMsg{})
		}
	}
	return s.rebuild(m.c.db)
}

// cooledDown builds the index put off by the cooldown.
func (m *Model) cooledDown() tea.Cmd {
	m.hist.deferred = false
	return m.rebuildHistory()
}

// rebuild reads the index of db again off the update loop, or asks for
// it after the build under way.
func (s *historyState) rebuild(db store.Source) tea.Cmd {
	if db == nil || s.build == nil {
		return nil
	}
	if s.building {
		s.again = true
		return nil
	}
	s.building = true
	if s.took >= historySlow && s.ix != nil {
		// Two indexes of a long log at once are gigabytes (a million
		// records: 3.3 GB each): the old one goes now. The card keeps the
		// summaries read, the views what they show; what is asked meanwhile
		// waits for the new one.
		s.ix, s.old, s.sums = nil, s.sums, nil
	}
	build := s.build
	return func() tea.Msg {
		start := time.Now()
		ix, err := build(db)
		if err != nil {
			err = fmt.Errorf("reading the history: %w", err)
		}
		return historyBuiltMsg{ix: ix, err: err, took: time.Since(start)}
	}
}

// historyBuilt installs a build (a failed one keeps the index before it), has
// the open views follow it, and starts the build asked for meanwhile.
func (m *Model) historyBuilt(msg historyBuiltMsg) tea.Cmd {
	s := &m.hist
	s.building, s.err = false, msg.err
	s.took, s.doneAt = msg.took, time.Now()
	if msg.err == nil && msg.ix != nil {
		if s.sums != nil {
			s.old = s.sums
		}
		s.ix, s.sums = msg.ix, map[string]history.Summary{}
		s.gen++
	}
	var again tea.Cmd
	if s.again {
		s.again = false
		again = m.rebuildHistory()
	}
	return tea.Batch(again, m.fg.Follow(s.part()), m.hv.Follow(s.part()), m.showSelected())
}

// part is the index as the parts read it (part.Context.History).
func (s *historyState) part() part.History {
	return part.History{Index: s.ix, Gen: s.gen, Building: s.building, Err: s.err}
}

// wantSummary reads name's summary off the loop, unless it is known or
// being read; while another is read, name is read next (the latest
// wanted: keys held down do not queue a read per entry passed).
func (s *historyState) wantSummary(name string) tea.Cmd {
	if s.ix == nil {
		return nil
	}
	if _, ok := s.sums[name]; ok {
		return nil
	}
	if s.sumAsk != "" {
		if s.sumAsk != name {
			s.sumNext = name
		}
		return nil
	}
	s.sumAsk = name
	ix, gen := s.ix, s.gen
	return func() tea.Msg { return summaryMsg{gen: gen, name: name, sum: ix.Summary(name)} }
}

// summaryRead keeps a summary read (one of an index replaced meanwhile is
// dropped: the card asks again), reads the one wanted meanwhile, and
// shows the card again.
func (m *Model) summaryRead(msg summaryMsg) tea.Cmd {
	s := &m.hist
	s.sumAsk = ""
	if msg.gen == s.gen && s.ix != nil {
		s.sums[msg.name] = msg.sum
	}
	next := s.sumNext
	s.sumNext = ""
	var cmd tea.Cmd
	if next != "" {
		cmd = s.wantSummary(next)
	}
	return tea.Batch(cmd, m.showSelected())
}

// summary is name's summary as last read: from the index now, else from
// the one before it.
func (s *historyState) summary(name string) (history.Summary, bool) {
	if sum, ok := s.sums[name]; ok {
		return sum, true
	}
	sum, ok := s.old[name]
	return sum, ok
}

// provenanceCard is the header card's provenance line, wrapped to the
// card: which session first remembered the entry and when, how many
// versions it has, and whether the current one's source is known.
// Nothing while the index is read, or when nothing is known of the entry
// beyond itself.
func (m *Model) provenanceCard(e store.Entry) []string {
	sum, ok := m.hist.summary(e.Name)
	if !ok {
		return nil
	}
	var lines []string
	for _, l := range packParts(provenanceParts(sum, m.c.now()), " · ", cardInner(m.previewWidth())) {
		lines = append(lines, m.c.styles.label.Render(l)) // whole: its end says the most
	}
	return lines
}

// packParts joins parts with sep into lines of at most w cells, a part
// never split across two unless it is wider than a line alone (then it is
// wrapped at its spaces); a line that starts a part after a break starts
// with sep's mark ("· 4 versions"), so it reads as the line's sequel.
func packParts(parts []string, sep string, w int) []string {
	var lines []string
	cur := ""
	for _, p := range parts {
		switch {
		case cur == "":
			cur = p
		case ansi.StringWidth(cur+sep+p) <= w:
			cur += sep + p
		default:
			lines, cur = append(lines, cur), strings.TrimLeft(sep, " ")+p
		}
		if ansi.StringWidth(cur) > w {
			wrapped := strings.Split(ansi.Wrap(cur, max(w, 1), " "), "\n")
			lines, cur = append(lines, wrapped[:len(wrapped)-1]...), wrapped[len(wrapped)-1]
		}
	}
	if cur != "" {
		lines = append(lines, cur)
	}
	return lines
}

// provenanceParts are provenance's parts, none when it says nothing.
func provenanceParts(sum history.Summary, now time.Time) []string {
	if sum.Versions == 0 || sum.Versions == 1 && sum.First == nil {
		return nil
	}
	var parts []string
	if c := sum.First; c != nil {
		first := "remembered by session " + part.SessionName(c)
		if !c.Time.IsZero() {
			first += ", " + humanize.Ago(now, uint64(max(c.Time.Unix(), 0)))
		}
		parts = append(parts, first)
	}
	if sum.Versions > 1 {
		parts = append(parts, humanize.Plural(sum.Versions, "version"))
	}
	if sum.Last == nil {
		parts = append(parts, "current version: unknown source")
	}
	return parts
}

// cachedHistory reads the open memory's history index (history.Build:
// a store's whole log, or a v1 file's entries, and the sessions), keeping
// a store's decoded sessions in cache from one build to the next
// (history.BuildCached): after the agent's remember only the session that
// made it is decoded again, which was most of a build of a store with
// hundreds of sessions.
func cachedHistory(cache *history.SessionCache) historyBuilder {
	return func(src store.Source) (historyIndex, error) {
		ix, err := history.BuildCached(src, cache)
		if err != nil {
			return nil, err // not a nil *Index in an interface
		}
		return ix, nil
	}
}
