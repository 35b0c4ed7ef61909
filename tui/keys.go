package tui

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/crmem/crmem/store"
	"github.com/crmem/crmem/tui/searchbar"
)

// handleKey routes a key of the panes or the search line (layerKey gives
// every other layer its own): quit, the search line, then the focused pane.
func (m *Model) handleKey(k tea.KeyPressMsg) tea.Cmd {
	keys := &m.c.keys
	switch {
	case key.Matches(k, keys.Quit):
		return m.quit()
	case m.bar.Typing():
		return m.searchKey(k)
	}
	if cmd, ok := m.paneKey(k); ok {
		return cmd
	}
	if cmd, ok := m.appKey(k); ok {
		return cmd
	}
	if m.focus == focusPreview {
		return m.previewKey(k)
	}
	return m.listKey(k)
}

// paneKey handles the keys that move between list and preview, and esc
// turning the explain view off (one layer at a time).
func (m *Model) paneKey(k tea.KeyPressMsg) (tea.Cmd, bool) {
	keys := &m.c.keys
	switch {
	case m.pv.Explaining() && (key.Matches(k, keys.SearchCancel) || key.Matches(k, keys.Back)):
		m.pv.ExplainOff()
		return tea.Batch(m.showSelected(), m.setMessage("explain off")), true
	case key.Matches(k, keys.Open):
		if m.list.AtMore() {
			return m.expandNames(), true
		}
		m.focus = focusPreview
		return m.showSelected(), true
	case key.Matches(k, keys.Back):
		m.focusList()
		return m.showSelected(), true
	}
	return nil, false
}

// helpKey scrolls the help screen when it does not fit; its close keys
// (esc, ?, and quit: no key quits from an overlay) close it. Any other
// key closes it too and does nothing else, as every other overlay
// swallows the keys it does not use: after ?, Y copied a secret to the
// clipboard, * marked every entry, v ran $PAGER (issue 42 item 3). A key
// that would write says so: the help did not offer it.
func (m *Model) helpKey(k tea.KeyPressMsg) tea.Cmd {
	m.hp.Groups = m.helpGroups()
	reqs, cmd := m.hp.Key(m.ctx(), k)
	return tea.Batch(cmd, m.do(reqs))
}

// helpClosed says the help closed on k, a key not its own, which did
// nothing else (part.Closed).
func (m *Model) helpClosed(k tea.KeyPressMsg) tea.Cmd {
	m.setMode() // the keys of the layer below
	if b, ok := m.writeKey(k); ok {
		return m.setMessage("help closed; " + keyName(b) + " not run: press it again to " + b.Help().Desc)
	}
	return m.setMessage("help closed")
}

// writeKey is the binding of k if it is an editing key that writes to
// the memory (edit, new note, rename, aliases, delete, delete marked,
// undo) in the mode set now.
func (m *Model) writeKey(k tea.KeyPressMsg) (key.Binding, bool) {
	if m.ed == nil {
		return key.Binding{}, false
	}
	return m.ed.WriteKey(&m.c.keys, k)
}

// appKey handles the keys that work in either pane.
func (m *Model) appKey(k tea.KeyPressMsg) (tea.Cmd, bool) {
	if cmd, ok := m.layerOpen(k); ok { // the keys the layers' registrations name
		return cmd, true
	}
	keys := &m.c.keys
	switch {
	case key.Matches(k, keys.Search):
		m.bar.Start()
		m.focusList()
		return m.showSelected(), true
	case key.Matches(k, keys.SearchCancel):
		return m.clearSearch(), true
	case key.Matches(k, keys.Focus):
		if m.focus == focusList {
			m.focus = focusPreview
		} else {
			m.focusList()
		}
		return m.showSelected(), true
	case key.Matches(k, keys.Sort):
		return m.setOrder(m.nextOrder()), true
	case key.Matches(k, keys.Explain):
		return m.toggleExplain(), true
	case key.Matches(k, keys.Recall):
		return m.toggleRecall(), true
	case key.Matches(k, keys.Reload):
		m.w.manual = true
		return m.reloadNow(), true
	case key.Matches(k, keys.Mouse):
		m.mouse = !m.mouse
		return m.setMessage(map[bool]string{true: "mouse on", false: "mouse off (terminal selection works)"}[m.mouse]), true
	}
	if cmd, ok := m.readingKey(k); ok {
		return cmd, true
	}
	return m.filterKey(k)
}

// filterKey handles 1–4.
func (m *Model) filterKey(k tea.KeyPressMsg) (tea.Cmd, bool) {
	keys := &m.c.keys
	for _, f := range []struct {
		b key.Binding
		f kindFilter
	}{
		{keys.FilterAll, filterAll}, {keys.FilterNotes, kindFilter(store.Note)},
		{keys.FilterArchives, kindFilter(store.Archive)}, {keys.FilterTopics, kindFilter(store.Topic)},
	} {
		if key.Matches(k, f.b) {
			return m.setFilter(f.f), true
		}
	}
	return nil, false
}

// listKey moves the list cursor.
func (m *Model) listKey(k tea.KeyPressMsg) tea.Cmd {
	return m.do(m.list.Key(m.c.partContext(m.bodyHeight()), k))
}

// previewKey scrolls the preview with the same keys.
func (m *Model) previewKey(k tea.KeyPressMsg) tea.Cmd {
	m.pv.Key(m.c.partContext(m.bodyHeight()), k)
	return nil
}

// searchKey edits the query; enter keeps it, esc clears it; ↑↓, ctrl+p/n,
// ctrl+k/j and pgup/pgdn move the list while typing, and a row the user
// moved to stays selected until the query changes (as in fzf).
func (m *Model) searchKey(k tea.KeyPressMsg) tea.Cmd {
	ask, by := m.bar.Key(&m.c.keys, k)
	switch ask {
	case searchbar.Cleared:
		return m.clearSearch()
	case searchbar.Kept:
		if m.moved {
			return m.showSelected()
		}
		return m.selectBest()
	case searchbar.Recall:
		return m.toggleRecall()
	case searchbar.Move:
		m.moved = true
		return m.moveCursor(by)
	case searchbar.ListKey:
		m.moved = true
		return m.listKey(k)
	case searchbar.Edited:
		return m.querySet()
	}
	return nil
}

// handlePaste feeds pasted text to the search line while typing.
func (m *Model) handlePaste(p tea.PasteMsg) tea.Cmd {
	if !m.bar.Paste(p.Content) {
		return nil
	}
	return m.querySet()
}

// handleMouse gives a mouse event to the layer on top when the mouse is
// captured (layerMouse): the panes' own is paneMouse.
func (m *Model) handleMouse(msg tea.MouseMsg) tea.Cmd {
	if !m.mouse {
		return nil
	}
	return m.layerMouse(msg)
}

// paneMouse: the wheel scrolls the pane under the pointer, a click selects.
func (m *Model) paneMouse(msg tea.MouseMsg) tea.Cmd {
	mo := msg.Mouse()
	inList := m.paneAt(mo.X) == focusList
	if m.bar.Typing() && inList {
		m.moved = true // a row picked with the mouse stays picked, as with the keys
	}
	switch msg.(type) {
	case tea.MouseWheelMsg:
		d := 3
		if mo.Button == tea.MouseWheelUp {
			d = -3
		}
		if inList {
			return m.moveCursor(d)
		}
		m.pv.Scroll(d)
		return nil
	case tea.MouseClickMsg:
		return m.click(mo, inList)
	}
	return nil
}

// click focuses the pane under the pointer and selects the row clicked.
func (m *Model) click(mo tea.Mouse, inList bool) tea.Cmd {
	if !inList {
		m.focus = focusPreview
		return m.showSelected()
	}
	m.focusList()
	if !m.list.Click(mo.Y-bodyTop, m.bodyHeight()) {
		return nil
	}
	if m.list.AtMore() {
		return m.expandNames()
	}
	return m.showSelected()
}
