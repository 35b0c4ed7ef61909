package tui

import (
	tea "charm.land/bubbletea/v2"

	"github.com/crmem/crmem/store"
	"github.com/crmem/crmem/store/recalls"
	"github.com/crmem/crmem/store/sessions"
	"github.com/crmem/crmem/tui/editing"
)

// The root model's two optional parts are concrete fields, not plugins:
// ed (the editing code: dialogs, marks, undo, archive references, the
// findings view) and why (the why prompt and panel). Either is nil when
// not installed (the core screen of most model tests). What they add to
// the screen is asked here, by name.

// setEditing installs the editing part and turns its bindings on; the
// history index, which its views and the card read, is built from then
// on.
func (m *Model) setEditing(f *editing.Part) {
	m.ed = f
	m.hist = newHistoryState()
	dir := store.SessionsDir(m.path, m.sessions) // until the memory opens and says where its sessions are
	m.refs = refsState{dir: dir, reader: sessions.NewReader(dir)}
	m.enableEditing()
}

// notice is the editing part's lasting notice (unsaved text kept in a
// file), "" when none.
func (m *Model) notice() string {
	if m.ed == nil {
		return ""
	}
	return m.ed.Notice()
}

// quitNotices is what the editing part still has to say when the user
// quits, printed once the screen is gone.
func (m *Model) quitNotices() string {
	if m.ed == nil {
		return ""
	}
	return m.ed.QuitNotice()
}

// recallHistory is the recall history read from the sessions, nil when
// none (yet).
func (m *Model) recallHistory() *recalls.Then { return m.recalled.History() }

// cardLines are the lines of e's header card that the editing part and
// the history index add.
func (m *Model) cardLines(e store.Entry) []string {
	if m.ed == nil {
		return nil
	}
	return append(m.sessionsCard(e), m.provenanceCard(e)...)
}

// cardWants is what is read off the loop for e's card (its history's
// summary), nil when nothing.
func (m *Model) cardWants(e store.Entry) tea.Cmd { return m.hist.wantSummary(e.Name) }

// rowBadge is the editing part's list badge for e.
func (m *Model) rowBadge(e store.Entry) string {
	if m.ed == nil {
		return ""
	}
	return m.sessionsBadge(e)
}

// entryFilter is the editing part's filter of the list (orphans, never
// recalled); nil when none applies.
func (m *Model) entryFilter() func(store.Entry) bool {
	if m.ed == nil {
		return nil
	}
	return m.sessionsFilter()
}

// statusText is the editing part's segment of the status line.
func (m *Model) statusText() string {
	if m.ed == nil {
		return ""
	}
	return m.editStatus()
}
