// Package historyview is one entry's story shown in place of the panes:
// its versions down the side, oldest first, and beside them the diff of
// the selected version against the one before. It is a part (part.Part):
// it reads the history index the root lends it in its part.Context and
// cannot import the root; what it asks (a restore, an undo) comes back as
// part requests.
package historyview

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/crmem/crmem/internal/humanize"
	"github.com/crmem/crmem/internal/sanitize"
	"github.com/crmem/crmem/keymap"
	"github.com/crmem/crmem/store/history"
	"github.com/crmem/crmem/store/sessions"
	"github.com/crmem/crmem/tui/part"
)

// View is one entry's story. It reads the index the root holds and
// follows every new one (a reload, a write), keeping the version
// selected.
type View struct {
	open   bool
	name   string     // the entry's name, as asked
	reads  part.Reads // which index h is from, and which is being read
	h      history.History
	cursor int           // the selected version's index in h.Versions
	sc     part.Scroller // the diff's window
	drawn  drawnDiff
}

// drawnDiff is the diff last drawn, kept while its key holds: a frame
// redrawn (a tick, a message, a scroll) diffs nothing again.
type drawnDiff struct {
	key     diffKey
	rows    []string
	bounded bool
}

// diffKey is what a drawn diff depends on.
type diffKey struct {
	of     int
	cursor int
	w      int
	st     *part.Styles
}

var (
	_ part.Part      = (*View)(nil)
	_ part.Overlayer = (*View)(nil)
	_ part.Updater   = (*View)(nil)
)

// versionsWidth is the versions column's width in a view w cells wide:
// 30 cells from 80 columns, a third below.
func VersionsWidth(w int) int {
	if w >= 80 {
		return 30
	}
	return max(w/3, 1)
}

// ReadMsg carries an entry's history as the index of generation gen has
// it; the root hands it to Take.
type ReadMsg struct {
	gen  int
	name string
	h    history.History
}

// Open reports whether the view is on screen.
func (v *View) Open() bool { return v.open }

// Show opens the view on the entry called name and reads its history
// off the loop from the context's index (none yet: the view says the
// history is read and fills in once it is).
func (v *View) Show(c *part.Context, name string) tea.Cmd {
	*v = View{open: true, name: name}
	return v.Follow(c.History)
}

// Follow reads the entry's history from a new index off the loop while
// the view is open; the history before stays on screen meanwhile.
func (v *View) Follow(hs part.History) tea.Cmd {
	if !v.open {
		return nil
	}
	ix, gen, ok := v.reads.Ask(hs)
	if !ok {
		return nil
	}
	name := v.name
	return func() tea.Msg { return ReadMsg{gen: gen, name: name, h: ix.History(name)} }
}

// Update takes a history read (ReadMsg).
func (v *View) Update(_ *part.Context, msg tea.Msg) (bool, []part.Request, tea.Cmd) {
	r, ok := msg.(ReadMsg)
	if ok {
		v.Take(r)
	}
	return ok, nil, nil
}

// Take shows a history read, keeping the version selected (by its
// number) when it still exists, else the current one; for an entry
// memory does not hold, its last version that held content (what a
// restore brings back). One read for another entry or from an index
// replaced meanwhile is dropped.
func (v *View) Take(msg ReadMsg) {
	if !v.open || msg.name != v.name {
		return
	}
	keep := 0
	if sel, ok := v.Selected(); ok {
		keep = sel.N
	}
	if !v.reads.Take(msg.gen) {
		return
	}
	v.h = msg.h
	v.cursor = max(len(v.h.Versions)-1, 0)
	for i, ver := range v.h.Versions {
		if !v.h.Exists && ver.Action != history.Delete && ver.Action != history.RenameOut && !earlierEntry(v.h, ver) {
			v.cursor = i
		}
	}
	for i, ver := range v.h.Versions {
		if keep != 0 && ver.N == keep {
			v.cursor = i
		}
	}
}

// Selected is the version under the cursor.
func (v *View) Selected() (history.Version, bool) {
	if !v.reads.Read() || v.cursor >= len(v.h.Versions) {
		return history.Version{}, false
	}
	return v.h.Versions[v.cursor], true
}

// DiffTop is the first line of the diff shown.
func (v *View) DiffTop() int { return v.sc.Top }

// Key drives the view: ↑ ↓ pick a version, the page keys scroll its diff,
// enter or r asks to restore it, u to undo; cancel, quit and the history
// key close it.
func (v *View) Key(c *part.Context, k tea.KeyPressMsg) ([]part.Request, tea.Cmd) {
	keys, h := c.Keys, c.Body
	n := len(v.h.Versions)
	switch {
	case key.Matches(k, keys.Cancel), key.Matches(k, keys.Quit), key.Matches(k, keys.History):
		v.open = false
	case key.Matches(k, keys.Accept), key.Matches(k, keys.Restore):
		if ver, ok := v.Selected(); ok {
			return []part.Request{part.Restore{H: v.h, V: ver}}, nil
		}
	case key.Matches(k, keys.Undo):
		return []part.Request{part.Undo{}}, nil
	case key.Matches(k, keys.Up), key.Matches(k, keys.Down), key.Matches(k, keys.Top), key.Matches(k, keys.Bottom):
		to := v.cursor
		switch {
		case key.Matches(k, keys.Up):
			to--
		case key.Matches(k, keys.Down):
			to++
		case key.Matches(k, keys.Top):
			to = 0
		default:
			to = n - 1
		}
		if to = min(max(to, 0), max(n-1, 0)); to != v.cursor {
			v.cursor, v.sc = to, part.Scroller{}
		}
	default:
		if d, ok := part.NavDelta(keys, k, h, 0); ok {
			v.sc.Top = max(v.sc.Top+d, 0) // the view pulls it back within the diff
		}
	}
	return nil, nil
}

// Wheel moves the selection one version (the pointer at column x over
// the versions column of a view w wide) or scrolls the diff three lines
// (over it); up says which way.
func (v *View) Wheel(x, w int, up bool) {
	overVersions := x < VersionsWidth(w)
	d := map[bool]int{true: -1, false: 1}[up]
	if overVersions {
		if to := min(max(v.cursor+d, 0), max(len(v.h.Versions)-1, 0)); to != v.cursor {
			v.cursor, v.sc = to, part.Scroller{}
		}
		return
	}
	v.sc.Top = max(v.sc.Top+3*d, 0) // the view pulls it back within the diff
}

// SetKeys enables an entry's history's keys (keymap.KeyMap.HistoryKeys):
// moving, open, restore, undo, and the keys that close it.
func (v *View) SetKeys(k *keymap.KeyMap) { k.Only(false, k.HistoryKeys()...) }

// ShortHelp is nil: the view names its keys in the help line's place
// (Overlay).
func (v *View) ShortHelp(*keymap.KeyMap) []key.Binding { return nil }

// Overlay is the view's keys for the help line: without restore and
// undo on a read-only memory.
func (v *View) Overlay(c *part.Context) string {
	k := c.Keys
	back := part.Hints("/", part.KeyName(k.Cancel), part.KeyName(k.Quit)) + " back"
	scroll := part.Hints("/", part.KeyName(k.PageDown), part.KeyName(k.PageUp)) + " scroll diff"
	if c.ReadOnly {
		return part.Hints(" · ", part.KeyName(k.Up)+" "+part.KeyName(k.Down)+" version", scroll, back) + " · read-only"
	}
	return part.Hints(" · ", part.KeyName(k.Up)+" "+part.KeyName(k.Down)+" version", scroll,
		part.Hints("/", part.KeyName(k.Accept), part.KeyName(k.Restore))+" restore", part.KeyHint(k.Undo, "undo"), back)
}

// View draws the view at w×h: a title, then the versions column and the
// diff beside it.
func (v *View) View(c *part.Context, w, h int) string {
	st := c.Styles
	title := st.PaneTitle.Render("History of "+sanitize.Name(v.name)) + st.Dim.Render(v.titleNote(c.History.Building))
	title = ansi.Truncate(title, w, "…")
	body := h - 1
	if body < 1 {
		return part.Box(title, w, h)
	}
	if !v.reads.Read() {
		return part.Box(title+"\n"+strings.Join(c.History.Waiting(st, w), "\n"), w, h)
	}
	if len(v.h.Versions) == 0 {
		return part.Box(title+"\n"+strings.Join(part.WrapStyled(st.Dim, "nothing known of "+sanitize.Name(v.name)+
			": neither the store's log nor the sessions hold a version of it", w), "\n"), w, h)
	}
	lw := VersionsWidth(w)
	rw := max(w-lw-1, 1)
	left := strings.Split(part.Box(strings.Join(v.versionLines(c, lw, body), "\n"), lw, body), "\n")
	right := strings.Split(part.Box(strings.Join(v.diffLines(c, rw, body), "\n"), rw, body), "\n")
	sep := st.Border.Render("│")
	rows := make([]string, body)
	for i := range rows {
		// each column's line fitted as the renderer measures, so the
		// separator stays in its column whatever the text (as the panes)
		rows[i] = c.Fit(left[i], lw) + sep + c.Fit(right[i], rw)
	}
	return part.Box(title, w, 1) + "\n" + strings.Join(rows, "\n") // not boxed again: Box measures by clusters
}

// titleNote follows the title: the count of versions, whether memory
// holds the entry, and whether a newer index is being read.
func (v *View) titleNote(building bool) string {
	note := ""
	if v.reads.Read() {
		note = "  " + humanize.Plural(len(v.h.Versions), "version")
		if n := len(v.h.Lives); n > 1 {
			note += fmt.Sprintf(" · %d entries had this name", n)
		}
		switch n := len(v.h.Lives); {
		case v.h.Exists:
		case n > 0 && v.h.Lives[n-1].Ended == history.LifeRenamed:
			note += " · renamed to " + sanitize.Name(v.h.Lives[n-1].To)
		default:
			note += " · not in memory now"
		}
	}
	if v.reads.Updating(building) {
		note += " · updating…"
	}
	return note
}

// versionLines are the versions column at width w, two lines a version,
// scrolled to keep the selected one in sight in h rows, then what
// stopped the log's reading and what the sessions could not give.
func (v *View) versionLines(c *part.Context, w, h int) []string {
	st := c.Styles
	var notes []string
	if s := v.h.Stop; s != nil {
		notes = append(notes, part.WrapStyled(st.Warning, fmt.Sprintf("the log stops at byte %s: %s", humanize.Count(int(s.Offset)), sanitize.Line(s.Reason)), w)...)
	}
	if n := len(v.h.Problems); n > 0 {
		notes = append(notes, part.WrapStyled(st.Dim, humanize.Plural(n, "session problem")+": "+sanitize.Line(v.h.Problems[0]), w)...)
	}
	n := 2 * len(v.h.Versions) // two lines a version: only those in the window are drawn
	var sc part.Scroller
	sc.Centre(2*v.cursor, n+len(notes), h+1) // the window has no title of its own: h+1 rows show h lines
	var lines []string
	for i := sc.Top; i < min(sc.Top+h, n+len(notes)); i++ {
		if i >= n {
			lines = append(lines, notes[i-n])
			continue
		}
		ver := v.h.Versions[i/2]
		head, sub := versionRow(ver, v.h.Name, earlierEntry(v.h, ver), onStore(c), c.Now(), w)
		line := [2]string{head, sub}[i%2]
		switch {
		case i/2 == v.cursor:
			line = st.Selected.Render(line + strings.Repeat(" ", max(w-ansi.StringWidth(line), 0)))
		case i%2 == 1:
			line = st.Dim.Render(line)
		}
		lines = append(lines, line)
	}
	return lines
}

// versionRow is a version's two lines at width w: "#4 write ● current"
// (or "· earlier" for a version of an entry that had the name
// before this one, earlier; or, on a store, "· sessions only" for a
// version its log no longer holds: a v1 file keeps no log, so there
// every version before the current one is), then when and by what.
func versionRow(v history.Version, name string, earlier, onStore bool, now time.Time, w int) (string, string) {
	mark := ""
	switch {
	case v.Current:
		mark = " ● current"
	case earlier:
		mark = " · earlier"
	case v.Origin == history.FromSession && onStore:
		mark = " · sessions only"
	}
	head := ansi.Truncate(fmt.Sprintf("#%d %s", v.N, ActionText(v, name)), max(w-ansi.StringWidth(mark), 1), "…") + mark
	var parts []string
	if c := v.Call; c != nil && !c.Time.IsZero() {
		when := humanize.Ago(now, uint64(max(c.Time.Unix(), 0)))
		if l := shortTimeLabel(c.TimeFrom); l != "" {
			when += " (" + l + ")"
		}
		parts = append(parts, when)
	}
	parts = append(parts, sourceText(v))
	return ansi.Truncate(head, w, "…"), ansi.Truncate("  "+strings.Join(parts, " · "), w, "…")
}

// actionText is what a version of the entry called name did: "write",
// "delete", "rename from old", "renamed to new" (a rename away); a version under a
// name the entry had before a rename says which ("write as old").
func ActionText(v history.Version, name string) string {
	switch v.Action {
	case history.RenameIn:
		return "rename from " + sanitize.Name(v.From)
	case history.RenameOut:
		return "renamed to " + sanitize.Name(v.To)
	}
	text := sanitize.Line(string(v.Action))
	if v.Name != "" && v.Name != name {
		text += " as " + sanitize.Name(v.Name)
	}
	return text
}

// sourceText is where a version came from, short: the session that
// wrote it, "unknown source" when none did.
func sourceText(v history.Version) string {
	if v.Call != nil {
		return part.SessionName(v.Call)
	}
	return "unknown source"
}

// shortTimeLabel says, in the versions column, where a call's time comes
// from when it is not the call's own event.
func shortTimeLabel(from string) string {
	switch from {
	case sessions.TimeStep:
		return "step file"
	case sessions.TimeSession:
		return "session"
	}
	return ""
}

// timeLabel says where a call's time comes from, in the diff's header.
func timeLabel(from string) string {
	switch from {
	case sessions.TimeEvent:
		return "event time"
	case sessions.TimeStep:
		return "step file time"
	case sessions.TimeSession:
		return "session time"
	}
	return "time of unknown origin"
}

// diffLines are the diff column at width w and h rows: a header naming
// the pair and the call behind the selected version, then the diff,
// scrolled.
func (v *View) diffLines(c *part.Context, w, h int) []string {
	st := c.Styles
	ver, ok := v.Selected()
	if !ok {
		return nil
	}
	prev := ""
	pair := fmt.Sprintf("#%d", ver.N)
	var before *history.Version
	first := v.cursor == 0 // of its entry: diffed against nothing
	if p := v.h.Versions[max(v.cursor-1, 0)]; !first && p.Life == ver.Life {
		prev, pair, before = p.Content, fmt.Sprintf("#%d → #%d", p.N, ver.N), &p
	} else {
		first = true
	}
	if k := (diffKey{of: v.reads.Of(), cursor: v.cursor, w: w, st: st}); v.drawn.key != k {
		d := diffOf(prev, ver.Content)
		v.drawn = drawnDiff{key: k, rows: renderDiff(st, d, w), bounded: d.bounded}
	}
	head := pair + " · " + ActionText(ver, v.h.Name)
	if first {
		head += " · its whole content"
	}
	if v.drawn.bounded {
		head += " · diff bounded: part of it compared as whole lines"
	}
	var lines []string
	lines = append(lines, part.WrapStyled(st.PaneTitle, head, w)...)
	if l := lifeLine(v.h, ver); l != "" {
		lines = append(lines, part.WrapStyled(st.Warning, l, w)...)
	}
	for _, l := range callText(ver, onStore(c)) {
		lines = append(lines, part.WrapStyled(st.Dim, l, w)...)
	}
	for _, l := range changeText(before, ver) {
		lines = append(lines, part.WrapStyled(st.PaneTitle, l, w)...)
	}
	top := len(lines) + 1 // and the line saying where the window is
	diff := v.drawn.rows
	rows := max(h-top, 1)
	shown := v.sc.Window(diff, rows+1)
	where := ""
	if part.Overflows(len(diff), rows+1) {
		where = st.Dim.Render(ansi.Truncate(fmt.Sprintf("lines %s (%s)", v.sc.Position(len(diff), rows+1),
			part.Hints("/", part.KeyName(c.Keys.PageDown), part.KeyName(c.Keys.PageUp))), w, "…"))
	}
	return append(append(lines, where), shown...)
}

// changeText says what changed besides the content from the version
// before (nil: none, the first) to v: its name, kind and aliases, a line
// each; for the first version, the aliases it has.
func changeText(before *history.Version, v history.Version) []string {
	if v.Action == history.Delete || v.Action == history.RenameOut {
		return nil
	}
	if before == nil || before.Action == history.Delete {
		if len(v.Aliases) == 0 {
			return nil
		}
		names := make([]string, len(v.Aliases))
		for i, a := range v.Aliases {
			names[i] = sanitize.Name(a)
		}
		return []string{"aliases " + strings.Join(names, ", ")}
	}
	var lines []string
	if before.Name != v.Name {
		lines = append(lines, "name "+sanitize.Name(before.Name)+" → "+sanitize.Name(v.Name))
	}
	if before.Kind != v.Kind && before.Kind != "" && v.Kind != "" {
		lines = append(lines, "kind "+sanitize.Line(before.Kind)+" → "+sanitize.Line(v.Kind))
	}
	var parts []string
	for _, a := range before.Aliases {
		if !slices.Contains(v.Aliases, a) {
			parts = append(parts, "−"+sanitize.Name(a))
		}
	}
	for _, a := range v.Aliases {
		if !slices.Contains(before.Aliases, a) {
			parts = append(parts, "+"+sanitize.Name(a))
		}
	}
	if len(parts) > 0 {
		lines = append(lines, "aliases "+strings.Join(parts, " "))
	}
	return lines
}

// callText is the selected version's source in full, a line each: the
// session, agent and step of the call that wrote it; when (labelled);
// whether the store's log holds it, and where (onStore: the memory is
// crabtalk's store, which keeps a log; a v1 file keeps none).
func callText(v history.Version, onStore bool) []string {
	var lines []string
	switch c := v.Call; {
	case c != nil:
		who := "session " + part.SessionName(c)
		if c.Agent != "" {
			who += " · agent " + sanitize.Line(c.Agent)
		}
		var where []string
		if c.Step != "" {
			where = append(where, sanitize.Line(c.Step))
		}
		if !c.Time.IsZero() {
			where = append(where, c.Time.UTC().Format("2006-01-02 15:04 UTC")+" ("+timeLabel(c.TimeFrom)+")")
		}
		lines = append(lines, who, strings.Join(where, " · "))
	case v.Origin == history.FromMemory:
		lines = append(lines, "unknown source: the entry as memory holds it, which no session wrote")
	default:
		lines = append(lines, "unknown source: no session's call wrote it")
	}
	switch l := v.Log; {
	case l != nil:
		lines = append(lines, fmt.Sprintf("log record %s at byte %s", humanize.Count(l.Seq), humanize.Count(int(l.Offset))))
	case v.Origin == history.FromSession && onStore:
		lines = append(lines, "known from the sessions only: the store's log no longer holds it")
	case v.Origin == history.FromSession:
		lines = append(lines, "known from the sessions only: a v1 memory file keeps no history")
	}
	return lines
}

// earlierEntry reports whether ver is a version of an entry that had the
// name before the one h is about now (a life before the last): shown,
// never restored.
func earlierEntry(h history.History, ver history.Version) bool {
	return len(h.Lives) > 1 && ver.Life != h.Lives[len(h.Lives)-1].N
}

// lifeLine says, over the diff, which entry the selected version is of
// when more than one entry had the name ("" when only one did): an
// earlier one (how it ended; not restorable) or this one.
func lifeLine(h history.History, ver history.Version) string {
	if len(h.Lives) < 2 {
		return ""
	}
	name := sanitize.Name(h.Name)
	if !earlierEntry(h, ver) {
		return fmt.Sprintf("this entry: %d entries had the name %s; this is the last, from #%d", len(h.Lives), name, h.Lives[len(h.Lives)-1].First)
	}
	text := "an earlier entry named " + name
	for _, l := range h.Lives {
		if l.N != ver.Life {
			continue
		}
		text += fmt.Sprintf(" (#%d–#%d)", l.First, l.Last)
		switch l.Ended {
		case history.LifeRenamed:
			text += ", renamed to " + sanitize.Name(l.To) + " (its story goes on under that name)"
		case history.LifeDeleted:
			text += ", deleted"
		case history.LifeReplaced:
			text += ", removed or renamed away unrecorded before the next was created"
		}
	}
	return text + ": not restorable under this name"
}

// onStore reports whether the memory is crabtalk's store, which keeps a
// log (a v1 file keeps none).
func onStore(c *part.Context) bool { return c.Memory != nil && c.Memory.Features().Stored != nil }
