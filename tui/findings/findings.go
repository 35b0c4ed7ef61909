// Package findings is the hygiene report (crmem lint) shown in place of
// the panes: the findings grouped by kind, two duplicates side by side.
// It is a part (part.Part): it reads the snapshot and the sessions'
// references the root lends it in its part.Context and cannot import
// the root; what needs a write, the editor, a dialog or the list (edit,
// delete, merge, not duplicates, undo, go to an entry) comes back as part
// requests, which the root carries out.
package findings

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/crmem/crmem/internal/humanize"
	"github.com/crmem/crmem/internal/sanitize"
	"github.com/crmem/crmem/keymap"
	"github.com/crmem/crmem/store"
	"github.com/crmem/crmem/store/hygiene"
	"github.com/crmem/crmem/store/sessions"
	"github.com/crmem/crmem/tui/part"
)

// View is the report with actions on the selected finding. The report
// is computed off the update loop from the snapshot and again whenever
// the snapshot is replaced while the view is open (a reload, a write), so
// a finding fixed meanwhile, by the user or the agent, disappears.
type View struct {
	open   bool
	cursor int           // the selected finding
	shown  part.Snapshot // the snapshot report is of; nil until computed
	doing  part.Snapshot // the snapshot being examined, nil when none
	report hygiene.Report
	cmp    *comparison // two duplicates side by side; nil shows the list
	stale  bool        // the report is to be computed again (a pair remembered as not duplicates)
}

// comparison is two duplicates side by side, one chosen to be kept.
type comparison struct {
	pair [2]store.Entry
	// masked are the pair with their secrets masked (hygiene.MaskEntry),
	// shown until the reveal key shows the pair as it is.
	masked   [2]store.Entry
	secrets  bool // the pair holds a secret: masked differs from pair
	revealed bool
	sim      float64
	keep     int // 0: the left one is kept, 1: the right one
	offset   int // first content line shown
}

var (
	_ part.Part      = (*View)(nil)
	_ part.Overlayer = (*View)(nil)
	_ part.Updater   = (*View)(nil)
)

// DoneMsg carries the report of a snapshot; the root hands it to Take.
type DoneMsg struct {
	snap part.Snapshot
	r    hygiene.Report
}

// compute examines snap's entries (immutable) off the loop: refs are the
// sessions' references to archives (nil: orphans not checked), and the
// pairs remembered as not duplicates are read from beside the file at
// path.
func compute(snap part.Snapshot, path string, refs *sessions.Refs) tea.Cmd {
	return func() tea.Msg {
		opts := hygiene.Options{Refs: refs}
		if nd, err := hygiene.NotDuplicatesOf(path); err == nil {
			opts.NotDuplicates = nd
		}
		return DoneMsg{snap: snap, r: hygiene.Run(snap.Entries(), opts)}
	}
}

// Open reports whether the view is on screen.
func (v *View) Open() bool { return v.open }

// Show opens the view from its first finding, keeping the report it has
// (shown until the current snapshot's is computed), and examines the
// context's snapshot.
func (v *View) Show(c *part.Context) tea.Cmd {
	*v = View{open: true, shown: v.shown, report: v.report, doing: v.doing}
	return v.Follow(c)
}

// Follow examines the context's snapshot when the view is open and shows
// another, unless that is under way (the root asks after every message).
func (v *View) Follow(c *part.Context) tea.Cmd {
	if !v.open || v.shown == c.Snap && !v.stale || v.doing == c.Snap {
		return nil
	}
	v.doing, v.stale = c.Snap, false
	return compute(c.Snap, c.Path, c.Refs)
}

// Again returns to the list and computes the report again (a pair was
// remembered as not duplicates).
func (v *View) Again(c *part.Context) tea.Cmd {
	v.cmp, v.stale = nil, true
	return v.Follow(c)
}

// Merged returns to the list from the side by side view (the pair was
// merged).
func (v *View) Merged() { v.cmp = nil }

// Report is the report shown, and Cursor the index of the selected
// finding in it.
func (v *View) Report() hygiene.Report { return v.report }
func (v *View) Cursor() int            { return v.cursor }

// Compared is the pair shown side by side (false: the list is shown).
func (v *View) Compared() ([2]store.Entry, bool) {
	if v.cmp == nil {
		return [2]store.Entry{}, false
	}
	return v.cmp.pair, true
}

// Update takes the report of a snapshot (DoneMsg).
func (v *View) Update(c *part.Context, msg tea.Msg) (bool, []part.Request, tea.Cmd) {
	r, ok := msg.(DoneMsg)
	if !ok {
		return false, nil, nil
	}
	return true, nil, v.Take(c, r)
}

// Take takes the report of a snapshot; the report of one replaced
// meanwhile is dropped (Follow asks for the current one).
func (v *View) Take(c *part.Context, msg DoneMsg) tea.Cmd {
	if v.doing == msg.snap {
		v.doing = nil
	}
	if msg.snap != c.Snap {
		return v.Follow(c)
	}
	prev, had := v.Selected()
	v.shown, v.report = msg.snap, msg.r
	v.cursor = placeOf(v.report.Findings, prev, had, v.cursor)
	if v.cmp != nil && !v.stillDuplicates(v.cmp) {
		v.cmp = nil // merged or changed: back to the list
	}
	return nil
}

// placeOf is where the cursor goes in a new report: on the finding it was
// on (by Finding.Key), else at the same position, which a fixed finding
// leaves to the next one.
func placeOf(fs []hygiene.Finding, prev hygiene.Finding, had bool, cursor int) int {
	if had {
		key := prev.Key()
		for i := range fs {
			if fs[i].Key() == key {
				return i
			}
		}
	}
	return min(cursor, max(len(fs)-1, 0))
}

// stillDuplicates reports whether both entries compared are still in the
// memory as shown and still in one duplicate finding.
func (v *View) stillDuplicates(c *comparison) bool {
	for _, fd := range v.report.Findings {
		ids := fd.IDs()
		if fd.Kind == hygiene.Duplicate && slices.Contains(ids, c.pair[0].ID) && slices.Contains(ids, c.pair[1].ID) {
			return true
		}
	}
	return false
}

// Selected is the finding under the cursor.
func (v *View) Selected() (hygiene.Finding, bool) {
	fs := v.report.Findings
	if v.shown == nil || v.cursor >= len(fs) {
		return hygiene.Finding{}, false
	}
	return fs[v.cursor], true
}

// Key drives the view: the comparison's keys when it is shown, the
// list's otherwise. What needs the root comes back as requests.
func (v *View) Key(c *part.Context, k tea.KeyPressMsg) ([]part.Request, tea.Cmd) {
	keys := c.Keys
	if key.Matches(k, keys.Findings) {
		v.open, v.cmp = false, nil
		return nil, nil
	}
	if v.cmp != nil {
		return v.compareKey(c, k), nil
	}
	switch {
	case key.Matches(k, keys.Cancel), key.Matches(k, keys.Quit):
		v.open = false
	case key.Matches(k, keys.Accept), key.Matches(k, keys.Merge):
		return v.openFinding(c), nil
	case key.Matches(k, keys.Edit), key.Matches(k, keys.Delete):
		fd, ok := v.Selected()
		if !ok {
			return nil, nil
		}
		if key.Matches(k, keys.Edit) {
			return []part.Request{part.EditFinding{Finding: fd}}, nil
		}
		return []part.Request{part.DeleteFinding{Finding: fd}}, nil
	case key.Matches(k, keys.Undo):
		return []part.Request{part.Undo{}}, nil
	default:
		n := len(v.report.Findings)
		if d, ok := part.NavDelta(keys, k, c.Body, n); ok { // first and last: the report's, not the list's
			v.cursor = min(max(v.cursor+d, 0), max(n-1, 0))
		}
	}
	return nil, nil
}

// openFinding shows two duplicates side by side, or closes the view on
// the finding's first entry in the list.
func (v *View) openFinding(c *part.Context) []part.Request {
	fd, ok := v.Selected()
	if !ok {
		return nil
	}
	if fd.Kind == hygiene.Duplicate {
		return v.compare(c, fd)
	}
	v.open = false
	return []part.Request{part.Jump{ID: fd.Entries[0].ID}}
}

// compare shows the finding's closest pair side by side, the older entry
// (lower id) chosen to be kept.
func (v *View) compare(c *part.Context, fd hygiene.Finding) []part.Request {
	a, b, sim := fd.Entries[0].ID, fd.Entries[1].ID, 1.0
	if d := fd.Duplicate; d != nil {
		sim = d.Similarity
		if len(d.Pairs) > 0 {
			a, b, sim = min(d.Pairs[0].A, d.Pairs[0].B), max(d.Pairs[0].A, d.Pairs[0].B), d.Pairs[0].Similarity
		}
	}
	ea, oka := c.Snap.Get(a)
	eb, okb := c.Snap.Get(b)
	if !oka || !okb {
		return []part.Request{part.Message{Text: "that entry no longer exists"}}
	}
	cmp := &comparison{pair: [2]store.Entry{ea, eb}, sim: sim}
	for i, e := range cmp.pair {
		var held bool
		cmp.masked[i], held = hygiene.MaskEntry(e)
		cmp.secrets = cmp.secrets || held
	}
	v.cmp = cmp
	return nil
}

// shown are the pair as the comparison draws them: masked unless revealed.
func (c *comparison) shown() [2]store.Entry {
	if c.revealed {
		return c.pair
	}
	return c.masked
}

// compareKey drives the comparison: tab chooses the entry kept, merge
// asks, the movement keys scroll, cancel returns to the list.
func (v *View) compareKey(ctx *part.Context, k tea.KeyPressMsg) []part.Request {
	keys := ctx.Keys
	c := v.cmp
	switch {
	case key.Matches(k, keys.Cancel), key.Matches(k, keys.Quit), key.Matches(k, keys.Accept):
		v.cmp = nil
	case key.Matches(k, keys.Focus):
		c.keep = 1 - c.keep
	case key.Matches(k, keys.Reveal):
		if !c.secrets {
			return []part.Request{part.Message{Text: "no secret to show: neither entry holds one"}}
		}
		c.revealed = !c.revealed
	case key.Matches(k, keys.Merge):
		return []part.Request{part.Merge{Keep: c.pair[c.keep], Drop: c.pair[1-c.keep]}}
	case key.Matches(k, keys.NotDuplicate):
		return []part.Request{part.NotDuplicates{A: c.pair[0].Name, B: c.pair[1].Name}}
	case key.Matches(k, keys.Undo):
		return []part.Request{part.Undo{}}
	case key.Matches(k, keys.Top):
		c.offset = 0
	case key.Matches(k, keys.Bottom): // compareView clamps it to the last page
		c.offset = math.MaxInt32
	default:
		if d, ok := part.NavDelta(keys, k, ctx.Body, 0); ok { // top and bottom are above
			c.offset = max(c.offset+d, 0)
		}
	}
	return nil
}

// View draws the findings view at w×h in place of the panes while it is
// open ("" otherwise), with the entries' ids when the format shows them.
func (v *View) View(c *part.Context, w, h int) string {
	if !v.open {
		return ""
	}
	ids := c.Features().ShowsIDs()
	if v.cmp != nil {
		return v.compareView(c, ids, w, h)
	}
	return v.listView(c, ids, w, h)
}

// SetKeys enables the findings view's keys: moving, the actions on a
// finding (merge, not duplicates, reveal, edit, delete, undo), the pane
// switch, and its key, quit and cancel to close it.
func (v *View) SetKeys(k *keymap.KeyMap) {
	k.Only(false, append(k.ScrollKeys(), &k.Quit, &k.Findings, &k.Accept, &k.Focus, &k.Merge, &k.NotDuplicate, &k.Reveal,
		&k.Edit, &k.Delete, &k.Undo)...)
}

// ShortHelp is nil: the view names its keys in the help line's place
// (Overlay).
func (v *View) ShortHelp(*keymap.KeyMap) []key.Binding { return nil }

// Overlay is the view's keys for the help line: without the write
// actions on a read-only memory.
func (v *View) Overlay(ctx *part.Context) string {
	k, readOnly := ctx.Keys, ctx.ReadOnly
	closeKeys := part.Hints("/", part.KeyName(k.Cancel), part.KeyName(k.Findings))
	if c := v.cmp; c != nil {
		reveal := ""
		if c.secrets {
			reveal = part.KeyHint(k.Reveal, map[bool]string{false: "show secrets", true: "mask secrets"}[c.revealed])
		}
		if readOnly {
			return part.Hints(" · ", reveal, part.KeyHint(k.Up, "scroll"), closeKeys+" back") + " · read-only"
		}
		return part.Hints(" · ", part.KeyHint(k.Focus, "keep the other"), part.KeyHint(k.Merge, "merge"), part.KeyHint(k.NotDuplicate, "not duplicates"),
			reveal, part.KeyHint(k.Undo, "undo"), part.KeyHint(k.Up, "scroll"), part.KeyName(k.Cancel)+" back")
	}
	if readOnly {
		return part.Hints(" · ", part.KeyHint(k.Accept, "open"), closeKeys+" close") + " · read-only"
	}
	return part.Hints(" · ", part.KeyHint(k.Accept, "open"), part.KeyHint(k.Edit, "edit/redact"), part.KeyHint(k.Delete, "delete"), part.KeyHint(k.Undo, "undo"), closeKeys+" close")
}

// findingLines are a finding's line (what check found which entries,
// with their ids when the format shows them) and its reason.
func findingLines(st *part.Styles, fd hygiene.Finding, ids bool) (string, string) {
	refs := make([]string, len(fd.Entries))
	for i, r := range fd.Entries {
		refs[i] = sanitize.Name(r.Name)
		if part.IsMixed(r.Name) { // as the list marks it: the two of a look-alike pair read apart
			refs[i] += part.MixedMark
		}
		if ids {
			refs[i] = fmt.Sprintf("#%d %s", r.ID, refs[i])
		}
	}
	head := fmt.Sprintf("  %-10s %s", sanitize.Line(fd.Check), strings.Join(refs, ", "))
	return head, sanitize.Line(fd.Reason)
}

// reasonIndent is where a finding's reason starts, under its entries.
const reasonIndent = 13

// reasonLines shows a reason under its finding: on one line cut at width,
// or, for the selected finding, wrapped whole.
func reasonLines(st *part.Styles, reason string, w int, whole bool) []string {
	pad := strings.Repeat(" ", min(reasonIndent, max(w-10, 0)))
	if !whole {
		return []string{st.Dim.Render(ansi.Truncate(pad+reason, w, "…"))}
	}
	var out []string
	for _, l := range strings.Split(ansi.Wrap(reason, max(w-len(pad), 1), ""), "\n") {
		out = append(out, st.Dim.Render(ansi.Truncate(pad+l, w, "…")))
	}
	return out
}

// listView draws the report grouped by kind with the cursor's finding
// highlighted, scrolled to keep it in sight.
func (v *View) listView(c *part.Context, ids bool, w, h int) string {
	st := c.Styles
	title := st.PaneTitle.Render("Findings")
	var lines []string
	at := 0 // the cursor's first line
	switch {
	case v.shown == nil:
		lines = []string{st.Dim.Render("examining the memory…")}
	case len(v.report.Findings) == 0:
		lines = append(part.WrapStyled(st.Dim, "nothing found: no duplicates, secrets, deceptive names, outsize entries or orphan archives", w), v.boundedLines(st, w)...)
	default:
		title += st.Dim.Render(fmt.Sprintf("  (%s in %s)", humanize.Plural(len(v.report.Findings), "finding"), humanize.Plural(v.report.Entries, "entry")))
		lines, at = v.groupedLines(st, w, ids)
	}
	if v.doing != nil && v.shown != nil {
		title += st.Dim.Render(" updating…")
	}
	var sc part.Scroller
	sc.Centre(at, len(lines), h)
	return part.Box(title+"\n"+strings.Join(sc.Window(lines, h), "\n"), w, h)
}

// groupedLines are the findings under a header per kind, and the line the
// cursor's finding starts on.
func (v *View) groupedLines(st *part.Styles, w int, ids bool) ([]string, int) {
	var lines []string
	at := 0
	var kind hygiene.Kind
	for i, fd := range v.report.Findings {
		if fd.Kind != kind {
			kind = fd.Kind
			lines = append(lines, st.GroupHeader.Render(fmt.Sprintf("%s (%s)", kind, humanize.Count(v.report.Count(kind)))))
		}
		head, reason := findingLines(st, fd, ids)
		head = ansi.Truncate(head, w, "…")
		if i == v.cursor {
			at = len(lines)
			head = st.Selected.Render(ansi.Strip(head) + strings.Repeat(" ", max(w-ansi.StringWidth(head), 0)))
		}
		lines = append(lines, head)
		lines = append(lines, reasonLines(st, reason, w, i == v.cursor)...)
	}
	return append(lines, v.boundedLines(st, w)...), at
}

// boundedLines say what the report did not compare, and how to have it,
// whole, wrapped to w.
func (v *View) boundedLines(st *part.Styles, w int) []string {
	var lines []string
	for _, b := range v.report.Bounded {
		lines = append(lines, part.WrapStyled(st.Dim, "bounded: "+sanitize.Line(b), w)...)
	}
	return lines
}

// compareView draws the two duplicates side by side, each with its card
// and its content, the one kept and the one merged into it marked.
func (v *View) compareView(cm *part.Context, ids bool, w, h int) string {
	st := cm.Styles
	c := v.cmp
	title := st.PaneTitle.Render("Duplicates side by side") + st.Dim.Render(fmt.Sprintf("  (similarity %.2f)", c.sim))
	switch {
	case c.secrets && c.revealed:
		title += st.Warning.Render("  secrets shown")
	case c.secrets:
		title += st.Dim.Render(fmt.Sprintf("  secrets masked: %s shows them", part.KeyName(cm.Keys.Reveal)))
	}
	pair := c.shown()
	colW := max((w-1)/2, 1)
	body := max(h-1, 1)
	cols := make([]string, 2)
	longest := 0
	differs := differingLines(pair[0].Content, pair[1].Content)
	for i, e := range pair {
		lines := compareColumn(st, e, len(c.pair[i].Content), c.pair[i].Tokens(), i == c.keep, differs[i], colW, ids)
		longest = max(longest, len(lines))
		cols[i] = strings.Join(lines, "\n")
	}
	c.offset = min(c.offset, max(longest-body, 0))
	for i := range cols {
		lines := strings.Split(cols[i], "\n")
		cols[i] = part.Box(strings.Join(lines[min(c.offset, len(lines)):], "\n"), colW, body)
	}
	sep := st.Border.Render(strings.TrimSuffix(strings.Repeat("│\n", body), "\n"))
	row := lipgloss.JoinHorizontal(lipgloss.Top, cols[0], sep, cols[1])
	return part.Box(title+"\n"+row, w, h)
}

// differingLines marks, for each of two contents, the lines the other does
// not have (hygiene.Diff); nil marks none (contents too long to compare).
func differingLines(a, b string) [2][]bool {
	var out [2][]bool
	d, ok := hygiene.Diff(a, b)
	if !ok {
		return out
	}
	for _, l := range d {
		switch l.Op {
		case ' ':
			out[0], out[1] = append(out[0], false), append(out[1], false)
		case '-':
			out[0] = append(out[0], true)
		case '+':
			out[1] = append(out[1], true)
		}
	}
	return out
}

// diffGutter marks a content line the other entry does not have; a line
// both have gets a blank of the same width.
const diffGutter = "▌"

// compareColumn is one entry's side: whether it is kept, its name, kind,
// size and aliases, then its content wrapped at width, each line the other
// entry lacks marked in the gutter. e is the entry as shown (its secrets
// masked or not); size and tokens are the entry's own; ids says whether
// the format shows ids.
func compareColumn(st *part.Styles, e store.Entry, size, tokens int, kept bool, differs []bool, width int, ids bool) []string {
	mark := st.Warning.Render("✗ merged into the other, deleted")
	if kept {
		mark = st.Kinds[store.Note].Render("✓ kept")
	}
	aliases := make([]string, len(e.Aliases))
	for i, a := range e.Aliases {
		aliases[i] = sanitize.Name(a)
	}
	head := []string{
		mark,
		st.CardTitle.Render(sanitize.Name(e.Name)),
		st.Label.Render(e.Kind.String() + idLabel(e.ID, ids) + " · " + humanize.Size(size) + " · " + humanize.Plural(tokens, "token")),
		st.Label.Render("aliases: ") + strings.Join(aliases, ", "),
		"",
	}
	for i, l := range head {
		head[i] = ansi.Truncate(l, width, "…")
	}
	gw := ansi.StringWidth(diffGutter)
	mark, blank := st.Mark.Render(diffGutter), strings.Repeat(" ", gw)
	for i, line := range strings.Split(e.Content, "\n") {
		g := blank
		if i < len(differs) && differs[i] {
			g = mark
		}
		for _, w := range strings.Split(ansi.Wrap(sanitize.Text(line), max(width-gw, 1), ""), "\n") {
			head = append(head, g+w)
		}
	}
	return head
}

// idLabel is " · id N" when the format shows ids, else "".
func idLabel(id uint64, ids bool) string {
	if !ids {
		return ""
	}
	return fmt.Sprintf(" · id %d", id)
}
