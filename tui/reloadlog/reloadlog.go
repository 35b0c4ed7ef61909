// Package reloadlog is the log of this session's reloads shown in place
// of the panes: each reload that changed the memory, newest first, with
// the entries it added, changed and removed. It is a part (part.Part):
// the root adds a record per reload (Add) and lends it the snapshot in
// its part.Context; going to an entry comes back as a part request.
package reloadlog

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/crmem/crmem/internal/humanize"
	"github.com/crmem/crmem/keymap"
	"github.com/crmem/crmem/tui/part"
)

// Kind is what a reload did to an entry.
type Kind int

// The kinds of change.
const (
	Added Kind = iota + 1
	Changed
	Removed
)

// Sign is the kind's mark: + ~ −.
func (k Kind) Sign() string { return [...]string{"", "+", "~", "−"}[k] }

// Item is one entry a reload added, changed or removed.
type Item struct {
	ID   uint64
	Name string // sanitized, as it was (a removed entry's last name)
	Kind Kind
	From string // a renamed entry's name before the reload (sanitized); "" if not renamed
	// Restored: an entry this session deleted, put back by another writer
	// (one holding an old copy, such as a running daemon).
	Restored bool
	// Unmarked: a removed entry that was marked here; the reload dropped
	// its mark.
	Unmarked bool
}

// Text names the item: "name", or "old → new" for a rename.
func (it Item) Text() string {
	if it.From != "" {
		return it.From + " → " + it.Name
	}
	return it.Name
}

// Record is one reload of this session: when, the counts, and the
// entries (the first MaxItems of them).
type Record struct {
	At                      time.Time
	Added, Changed, Removed int
	Items                   []Item // added, then changed, then removed; newest id first in each
}

// Counts is "+12 −3 ~1".
func (r Record) Counts() string {
	return "+" + humanize.Count(r.Added) + " −" + humanize.Count(r.Removed) + " ~" + humanize.Count(r.Changed)
}

// Bounds of the log: reloads kept, entries kept per reload.
const (
	MaxReloads = 200
	MaxItems   = 500
)

// Log is the reloads of this session and the log's place on screen.
type Log struct {
	records []Record // oldest first
	open    bool
	cursor  int // index into rows
}

var _ part.Part = (*Log)(nil)

// row is one line of the log: a reload's heading or one entry.
type row struct {
	rec  int // index into the records
	item int // -1 for the heading
}

// Add records a reload; while the log is open its rows go on top and
// the cursor stays on the entry it was on.
func (l *Log) Add(r Record) {
	l.records = append(l.records, r)
	if l.open {
		l.cursor += 1 + len(r.Items)
	}
	if len(l.records) > MaxReloads {
		l.records = slices.Delete(l.records, 0, len(l.records)-MaxReloads)
		l.cursor = min(l.cursor, len(l.rows())-1)
	}
}

// Records are the reloads recorded, oldest first.
func (l *Log) Records() []Record { return l.records }

// Open reports whether the log is on screen.
func (l *Log) Open() bool { return l.open }

// Show opens the log with the cursor on the newest entry; false when no
// reload has changed anything.
func (l *Log) Show() bool {
	if len(l.records) == 0 {
		return false
	}
	l.open, l.cursor = true, 0
	l.move(1)
	return true
}

// Cursor is the row under the cursor, of Rows (the headings counted).
func (l *Log) Cursor() int { return l.cursor }
func (l *Log) Rows() int   { return len(l.rows()) }

// rows lays the log out newest reload first.
func (l *Log) rows() []row {
	var rows []row
	for i := len(l.records) - 1; i >= 0; i-- {
		rows = append(rows, row{rec: i, item: -1})
		for j := range l.records[i].Items {
			rows = append(rows, row{rec: i, item: j})
		}
	}
	return rows
}

// move moves to the next entry row in direction d (±1, or a page).
func (l *Log) move(d int) {
	rows := l.rows()
	i := min(max(l.cursor+d, 0), len(rows)-1)
	step := 1
	if d < 0 {
		step = -1
	}
	for j := i; j >= 0 && j < len(rows); j += step {
		if rows[j].item >= 0 {
			l.cursor = j
			return
		}
	}
}

// Key drives the log: move; esc, c and the quit keys as configured close
// it (no key quits from an overlay); enter goes to the entry under the
// cursor (the log closes on the way), unless it no longer exists.
func (l *Log) Key(c *part.Context, k tea.KeyPressMsg) ([]part.Request, tea.Cmd) {
	keys := c.Keys
	switch {
	case key.Matches(k, keys.Cancel) || key.Matches(k, keys.Quit) || key.Matches(k, keys.ChangeLog):
		l.open = false
	case key.Matches(k, keys.Accept):
		r := l.rows()[l.cursor]
		it := l.records[r.rec].Items[r.item]
		if _, ok := c.Snap.Get(it.ID); !ok {
			return []part.Request{part.Message{Text: it.Name + " no longer exists"}}, nil
		}
		l.open = false
		return []part.Request{part.Jump{ID: it.ID}}, nil
	case key.Matches(k, keys.Top): // the newest entry, below its heading
		l.cursor = 0
		l.move(1)
	case key.Matches(k, keys.Bottom): // the oldest entry
		l.move(len(l.rows()))
	default:
		if d, ok := part.NavDelta(keys, k, c.Body, 0); ok {
			l.move(d)
		}
	}
	return nil, nil
}

// View renders the log at w×h, the cursor's row kept in sight.
func (l *Log) View(c *part.Context, w, h int) string {
	st := c.Styles
	rows := l.rows()
	var sc part.Scroller
	sc.Centre(l.cursor, len(rows), h)
	keys := c.Keys
	closeKeys := part.Hints("/", part.KeyName(keys.Cancel), part.KeyName(keys.ChangeLog))
	hint := part.Hints(" · ", part.Hints(": ", part.KeyName(keys.Accept), "go to the entry"), part.Hints(": ", closeKeys, "close"))
	lines := []string{st.PaneTitle.Render("Reloads this session") + st.Dim.Render("  ("+hint+")")}
	for i := sc.Top; i < len(rows) && len(lines) < h; i++ {
		lines = append(lines, l.line(c, rows[i], i == l.cursor, w))
	}
	return part.Box(strings.Join(lines, "\n"), w, h)
}

// line renders one row of the log at width w.
func (l *Log) line(c *part.Context, r row, selected bool, w int) string {
	st := c.Styles
	rec := l.records[r.rec]
	if r.item < 0 {
		more := ""
		if n := rec.Added + rec.Changed + rec.Removed - len(rec.Items); n > 0 {
			more = fmt.Sprintf("  (%s more not kept)", humanize.Count(n))
		}
		return st.GroupHeader.Render(rec.At.In(c.Loc).Format("15:04:05") + "  " + rec.Counts() + more)
	}
	it := rec.Items[r.item]
	line := "  " + it.Kind.Sign() + " " + it.Text()
	if it.Restored {
		line += st.Warning.Render("  ⚠ you deleted it; another writer put it back")
	}
	if _, ok := c.Snap.Get(it.ID); !ok {
		line += st.Dim.Render("  (gone)")
	}
	if it.Unmarked {
		line += st.Warning.Render(" ⚠ was marked: unmarked")
	}
	line = ansi.Truncate(line, w, "…")
	if selected {
		return st.Selected.Render(ansi.Strip(line))
	}
	return line
}

// ShortHelp is the log's line of keys.
func (l *Log) ShortHelp(k *keymap.KeyMap) []key.Binding {
	return []key.Binding{k.Up, k.Down, k.Accept, k.Cancel}
}
