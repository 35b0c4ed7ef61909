package tui

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/crmem/crmem/store"
)

// readingKey handles the keys of reading and following the agent: copy,
// pager, zoom, matches, the date filter, and the latest change (the log's key
// is its layer's: layerOpen).
func (m *Model) readingKey(k tea.KeyPressMsg) (tea.Cmd, bool) {
	keys := &m.c.keys
	switch {
	case key.Matches(k, keys.CopyName):
		return m.copySelected(false), true
	case key.Matches(k, keys.CopyContent):
		return m.copySelected(true), true
	case key.Matches(k, keys.Pager):
		return m.openPager(), true
	case key.Matches(k, keys.Zoom):
		return m.toggleZoom(), true
	case key.Matches(k, keys.PrevMatch):
		return m.jumpMatch(-1), true
	case key.Matches(k, keys.NextMatch):
		return m.jumpMatch(1), true
	case key.Matches(k, keys.DateFilter):
		m.dates.open(&m.c)
		return nil, true
	case key.Matches(k, keys.LatestChange):
		return m.jumpToLatest(), true
	}
	return nil, false
}

// listKeep combines the date filter with the editing part's entry filter; nil
// when nothing filters.
func (m *Model) listKeep() func(store.Entry) bool {
	date, other := m.dates.keep(), m.entryFilter()
	switch {
	case date == nil:
		return other
	case other == nil:
		return date
	}
	return func(e store.Entry) bool { return date(e) && other(e) }
}
