package tui

import (
	"fmt"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"

	"github.com/crmem/crmem/bm25"
	"github.com/crmem/crmem/internal/sanitize"
	"github.com/crmem/crmem/store"
)

// readOnly reports whether the open memory refuses every write action
// (crabtalk's store does).
//
// crabtalk's store is also read-only while its daemon runs (the daemon
// check, now and then: Model.daemonCheck), and writable again once it has
// stopped; every write checks again before it appends (open.DaemonGuard).
func (m *Model) readOnly() bool { return m.caps().ReadOnly() || m.daemonHolds() }

// daemonHolds reports whether crabtalk's daemon (or another process)
// writes the open store, so crmem does not.
func (m *Model) daemonHolds() bool { return m.st.daemon && m.onStore() }

// onStore reports whether the open memory is crabtalk's store (its
// entries as the store keeps them), which crmem writes only while its
// daemon is not running; false before anything is open.
func (m *Model) onStore() bool { return m.c.db != nil && !m.caps().ShowsIDs() }

// daemonCheck checks for crabtalk's daemon as the open memory needs: on
// crabtalk's store, whether anything writes it (storeDaemonCmd); on a v1
// file, or before the file is open, whether its socket answers
// (daemonCmd). The format is the open memory's, never read again from the
// file.
func (m *Model) daemonCheck() tea.Cmd {
	if m.onStore() {
		return storeDaemonCmd(m.path, m.st.daemonSock)
	}
	return daemonCmd(m.st.daemonSock)
}

// caps are the open memory's capabilities; before it is open, none.
func (m *Model) caps() store.Features { return m.c.caps() }

// caps are the open memory's capabilities; before it is open, none.
func (c *common) caps() store.Features {
	if c.db == nil {
		return store.Features{}
	}
	return c.db.Features()
}

// memory returns the open memory, or nil before it is open.
func (m *Model) memory() *store.Memory {
	if m.c.db == nil {
		return nil
	}
	return m.c.db.Memory()
}

// storeQuery is the query a recall that takes prefixes itself runs while
// the user types (crabtalk's store's; runSearch): the word being typed
// (the query ends in a letter or digit, not in a space or punctuation)
// gets the recall's prefix `*`, so `depl` is searched as `depl*`. Such a
// recall splits queries on whitespace, so the prefix is the query's last
// whitespace-separated piece.
func storeQuery(q string) string {
	r, _ := utf8.DecodeLastRuneInString(q)
	if q == "" || !bm25.IsWordRune(r) {
		return q
	}
	return q + "*"
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

// readOnlyMessage is what a write key says on a memory crmem does not
// write: while crabtalk's daemon writes the store, who and how to stop it.
func (m *Model) readOnlyMessage() string {
	if m.daemonHolds() && m.st.daemonWhy != "" {
		return "read-only while crabtalk runs: " + sanitize.Line(m.st.daemonWhy)
	}
	if m.daemonHolds() {
		return "read-only while crabtalk runs: stop it first"
	}
	return store.ErrCrabdb.Error()
}

// storeWarnings are the status line's warnings for crabtalk's store: what
// the reader warned about (a torn tail is ignored, and said so; what the
// start's repair of crmem's unfinished append did, also on a store it
// writes), as plain text.
func (m *Model) storeWarnings() []string {
	if m.c.db == nil {
		return nil
	}
	var out []string
	for _, w := range m.caps().Warnings {
		out = append(out, "⚠ "+sanitize.Line(w))
	}
	return out
}

// readOnlyStatus is the status line's mark of a memory crmem does not
// write ("crabtalk store, read-only"); "" when it writes it.
func (m *Model) readOnlyStatus() string {
	f := m.caps()
	if m.c.db == nil || !f.ReadOnly() {
		return ""
	}
	return m.c.styles.dim.Render(f.Format + ", read-only")
}
