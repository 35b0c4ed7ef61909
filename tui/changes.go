package tui

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/crmem/crmem/internal/humanize"
	"github.com/crmem/crmem/keymap"
	"github.com/crmem/crmem/store"
	"github.com/crmem/crmem/tui/reloadlog"
)

// What a reload did to an entry, and the reload's record, are the
// reload log's (tui/reloadlog); the root records them and follows what
// the user has not seen yet.
type (
	changeItem   = reloadlog.Item
	reloadRecord = reloadlog.Record
)

// changeKind is what a reload did to an entry not yet seen (the list's
// mark), as the log's reloadlog.Kind.
type changeKind int

const (
	changeAdded   = changeKind(reloadlog.Added)
	changeChanged = changeKind(reloadlog.Changed)
	changeRemoved = changeKind(reloadlog.Removed)
)

// sign is the kind's mark: + ~ −.
func (k changeKind) sign() string { return reloadlog.Kind(k).Sign() }

// maxStatusNames is how many names the status line names.
const maxStatusNames = 3

// changeState follows what reloads changed: entries not yet seen (marked in
// the list until selected), and the log of this session's reloads.
type changeState struct {
	unseen map[uint64]changeKind
	log    reloadlog.Log // this session's reloads, and the log's place on screen
	// deleted holds the ids this session deleted, so a reload that brings
	// one back says another writer restored it.
	deleted map[uint64]bool
}

// noteWritten follows this session's own writes: an entry it removed is
// remembered as deleted here, one it put back (undo) is forgotten.
func (c *changeState) noteWritten(changes []store.Change) {
	for _, ch := range changes {
		switch {
		case ch.After == nil && ch.Before != nil:
			if c.deleted == nil {
				c.deleted = map[uint64]bool{}
			}
			c.deleted[ch.Before.ID] = true
		case ch.After != nil:
			delete(c.deleted, ch.After.ID)
		}
	}
}

// recordReload turns a reload's diff into a record, naming removed entries
// from the old snapshot and the others from the new one; a changed entry
// whose name differs is a rename (both names), and an added one that this
// session deleted (deleted, by id) was put back by another writer.
func recordReload(d store.Diff, old, cur *snapshot, at time.Time, deleted map[uint64]bool) reloadRecord {
	r := reloadRecord{At: at, Added: len(d.Added), Changed: len(d.Changed), Removed: len(d.Removed)}
	add := func(ids []uint64, s *snapshot, k reloadlog.Kind) {
		for i := len(ids) - 1; i >= 0 && len(r.Items) < reloadlog.MaxItems; i-- {
			if j, ok := s.index(ids[i]); ok {
				it := changeItem{ID: ids[i], Name: s.label(j), Kind: k, Restored: k == reloadlog.Added && deleted[ids[i]]}
				if o, ok := old.index(ids[i]); ok && k == reloadlog.Changed && old.entries[o].Name != s.entries[j].Name {
					it.From = old.label(o)
				}
				r.Items = append(r.Items, it)
			}
		}
	}
	add(d.Added, cur, reloadlog.Added)
	add(d.Changed, cur, reloadlog.Changed)
	add(d.Removed, old, reloadlog.Removed)
	return r
}

// reloadSummary is the status line's account of a reload:
// "reloaded: +1 zz-new-archive · ~1 deploy-steps", or with many changes
// "reloaded: +12 −3 ~1: zz-a, zz-b, zz-c …".
func reloadSummary(r reloadRecord) string {
	total := r.Added + r.Changed + r.Removed
	if total <= maxStatusNames && len(r.Items) == total {
		var parts []string
		for _, k := range []reloadlog.Kind{reloadlog.Added, reloadlog.Removed, reloadlog.Changed} {
			var names []string
			for _, it := range r.Items {
				if it.Kind == k {
					names = append(names, it.Text())
				}
			}
			if len(names) > 0 {
				parts = append(parts, k.Sign()+humanize.Count(len(names))+" "+strings.Join(names, ", "))
			}
		}
		return "reloaded: " + strings.Join(parts, " · ") + restoredWarning(r)
	}
	names := make([]string, 0, maxStatusNames)
	for _, it := range r.Items[:min(len(r.Items), maxStatusNames)] {
		names = append(names, it.Kind.Sign()+it.Text())
	}
	return fmt.Sprintf("reloaded: %s: %s …", r.Counts(), strings.Join(names, ", ")) + restoredWarning(r)
}

// restoredWarning says that another writer put back entries this session
// deleted: a daemon or agent writing its old copy over the file (README,
// "Editing safely").
func restoredWarning(r reloadRecord) string {
	var names []string
	for _, it := range r.Items {
		if it.Restored {
			names = append(names, it.Name)
		}
	}
	if len(names) == 0 {
		return ""
	}
	return fmt.Sprintf(" ⚠ another writer put back what you deleted: %s (an agent or daemon writing an old copy?)",
		firstOf(names, maxStatusNames))
}

// firstOf joins the first n names and counts the rest.
func firstOf(names []string, n int) string {
	s := strings.Join(names[:min(n, len(names))], ", ")
	if len(names) > n {
		s += fmt.Sprintf(" and %s more", humanize.Count(len(names)-n))
	}
	return s
}

// noteReload records a reload from old to cur at now that changed the
// memory: the log grows, added and changed entries become unseen, removed
// ones are forgotten. dropped are the marked entries the reload unmarked,
// noted on their rows.
func (c *changeState) noteReload(d store.Diff, old, cur *snapshot, now time.Time, dropped []store.Entry) reloadRecord {
	rec := recordReload(d, old, cur, now, c.deleted)
	for i, it := range rec.Items {
		rec.Items[i].Unmarked = it.Kind == reloadlog.Removed &&
			slices.ContainsFunc(dropped, func(e store.Entry) bool { return e.ID == it.ID })
	}
	for _, id := range d.Added {
		delete(c.deleted, id) // reported once
	}
	if c.unseen == nil {
		c.unseen = map[uint64]changeKind{}
	}
	for _, id := range d.Removed {
		delete(c.unseen, id)
	}
	for _, id := range d.Changed {
		c.unseen[id] = changeChanged
	}
	for _, id := range d.Added {
		c.unseen[id] = changeAdded
	}
	c.log.Add(rec)
	return rec
}

// seen drops the change mark of an entry the user has looked at.
func (c *changeState) seen(id uint64) { delete(c.unseen, id) }

// latestChange is the entry `.` goes to: the most recent change not yet
// seen, else the most recent change, of entries that still exist.
func (c *changeState) latestChange(s *snapshot) (uint64, bool) {
	var fallback uint64
	found := false
	log := c.log.Records()
	for i := len(log) - 1; i >= 0; i-- {
		for _, it := range log[i].Items {
			if it.Kind == reloadlog.Removed {
				continue
			}
			if _, ok := s.index(it.ID); !ok {
				continue
			}
			if _, unseen := c.unseen[it.ID]; unseen {
				return it.ID, true
			}
			if !found {
				fallback, found = it.ID, true
			}
		}
	}
	return fallback, found
}

// jumpToLatest selects the most recent change, whatever the scroll and the
// order; an entry the filters or the search hide is named instead.
func (m *Model) jumpToLatest() tea.Cmd {
	id, ok := m.chg.latestChange(m.c.snap)
	if !ok {
		return m.setMessage("no changes since crmem started")
	}
	return m.jumpTo(id)
}

// jumpTo selects the entry with id if it is listed, else says why not.
func (m *Model) jumpTo(id uint64) tea.Cmd {
	i, ok := m.c.snap.index(id)
	if !ok {
		return m.setMessage("that entry no longer exists")
	}
	if !m.list.SelectID(m.c.snap, id) {
		m.chg.seen(id)
		return m.setMessage(m.c.snap.label(i) + " is not listed: the search or a filter hides it")
	}
	m.focusList()
	m.list.Scroll(m.bodyHeight())
	return m.showSelected()
}

// openLog shows the reload log, or says there is none.
func (m *Model) openLog() tea.Cmd {
	if !m.chg.log.Show() {
		return m.setMessage("no reloads have changed anything in this session")
	}
	return nil
}

// withChangeHint puts `.` first in the short help bs of the list or the
// preview while reloads have left changes the user has not seen: ". 2
// unseen changes".
func (c *changeState) withChangeHint(keys *keymap.KeyMap, bs []key.Binding) []key.Binding {
	n := len(c.unseen)
	if n == 0 || !keys.LatestChange.Enabled() {
		return bs
	}
	hint := keys.LatestChange
	hint.SetHelp(hint.Help().Key, humanize.Plural(n, "unseen change"))
	return append([]key.Binding{hint}, bs...)
}
