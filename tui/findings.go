package tui

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/crmem/crmem/internal/editor"
	"github.com/crmem/crmem/internal/humanize"
	"github.com/crmem/crmem/internal/sanitize"
	"github.com/crmem/crmem/keymap"
	"github.com/crmem/crmem/store"
	"github.com/crmem/crmem/store/hygiene"
	"github.com/crmem/crmem/store/sessions"
	"github.com/crmem/crmem/tui/dialog"
)

// findingsView is the hygiene report (crmem lint) in place of the panes,
// grouped by kind, with actions on the selected finding. The report is
// computed off the update loop from the snapshot and again whenever the
// snapshot is replaced while the view is open (a reload, a write), so a
// finding fixed meanwhile, by the user or the agent, disappears.
type findingsView struct {
	open   bool
	cursor int       // the selected finding
	shown  *snapshot // the snapshot report is of; nil until computed
	doing  *snapshot // the snapshot being examined, nil when none
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

// findingsDoneMsg carries the report of a snapshot.
type findingsDoneMsg struct {
	snap *snapshot
	r    hygiene.Report
}

// findingsCmd examines snap's entries (immutable) off the loop: refs are
// the sessions' references to archives (nil: orphans not checked), and
// the pairs remembered as not duplicates are read from beside the file.
func findingsCmd(snap *snapshot, path string, refs *sessions.Refs) tea.Cmd {
	return func() tea.Msg {
		opts := hygiene.Options{Refs: refs}
		if nd, err := hygiene.NotDuplicatesOf(path); err == nil {
			opts.NotDuplicates = nd
		}
		return findingsDoneMsg{snap: snap, r: hygiene.Run(snap.entries, opts)}
	}
}

// show opens the view from its first finding, keeping the report it has
// (shown until the current snapshot's is computed).
func (v *findingsView) show() {
	*v = findingsView{open: true, shown: v.shown, report: v.report, doing: v.doing}
}

// follow examines the current snapshot when the view is open and shows
// another, unless that is under way (Model.Update asks after every
// message); refs are the sessions' references to archives.
func (v *findingsView) follow(m *Model, refs *refsState) tea.Cmd {
	if !v.open || v.shown == m.c.snap && !v.stale || v.doing == m.c.snap {
		return nil
	}
	v.doing, v.stale = m.c.snap, false
	return findingsCmd(m.c.snap, m.path, refs.shared())
}

// shared are the sessions' references to archives, or nil when no
// session was read (then every archive would look orphaned).
func (r *refsState) shared() *sessions.Refs {
	if !r.loaded || r.count == 0 || r.err != nil {
		return nil
	}
	refs := r.refs
	return &refs
}

// take takes the report of a snapshot; the report of one replaced
// meanwhile is dropped (follow asks for the current one).
func (v *findingsView) take(m *Model, msg findingsDoneMsg, refs *refsState) tea.Cmd {
	if v.doing == msg.snap {
		v.doing = nil
	}
	if msg.snap != m.c.snap {
		return v.follow(m, refs)
	}
	prev, had := v.selected()
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
func (v *findingsView) stillDuplicates(c *comparison) bool {
	for _, fd := range v.report.Findings {
		ids := fd.IDs()
		if fd.Kind == hygiene.Duplicate && slices.Contains(ids, c.pair[0].ID) && slices.Contains(ids, c.pair[1].ID) {
			return true
		}
	}
	return false
}

// selected is the finding under the cursor.
func (v *findingsView) selected() (hygiene.Finding, bool) {
	fs := v.report.Findings
	if v.shown == nil || v.cursor >= len(fs) {
		return hygiene.Finding{}, false
	}
	return fs[v.cursor], true
}

// findingsAsk is what a key in the findings view asks of the editing
// part, carried as a value and carried out in one switch
// (editing.findingsKey): the view owns what it shows, the editing part
// the writes, the editor and the dialogs.
type findingsAsk interface{ isFindingsAsk() }

// The findings view's asks.
type (
	// askEditFinding opens the finding's one entry in the editor.
	askEditFinding struct{ fd hygiene.Finding }
	// askDeleteFinding asks before deleting the finding's one entry.
	askDeleteFinding struct{ fd hygiene.Finding }
	// askUndo undoes the last write.
	askUndo struct{}
	// askMergePair asks before merging drop into keep.
	askMergePair struct{ keep, drop store.Entry }
	// askNotDuplicate remembers the entries named a and b as not duplicates.
	askNotDuplicate struct{ a, b string }
	// askJump closes the view on the entry id in the list.
	askJump struct{ id uint64 }
)

func (askEditFinding) isFindingsAsk()   {}
func (askDeleteFinding) isFindingsAsk() {}
func (askUndo) isFindingsAsk()          {}
func (askMergePair) isFindingsAsk()     {}
func (askNotDuplicate) isFindingsAsk()  {}
func (askJump) isFindingsAsk()          {}

// key drives the view: the comparison's keys when it is shown, the
// list's otherwise. What the key asks of the editing part comes back as
// ask (nil when nothing).
func (v *findingsView) key(m *Model, k tea.KeyPressMsg) (tea.Cmd, findingsAsk) {
	keys := &m.c.keys
	if key.Matches(k, keys.Findings) {
		v.open, v.cmp = false, nil
		return nil, nil
	}
	if v.cmp != nil {
		return v.compareKey(m, k)
	}
	switch {
	case key.Matches(k, keys.Cancel), key.Matches(k, keys.Quit):
		v.open = false
	case key.Matches(k, keys.Accept), key.Matches(k, keys.Merge):
		return v.openFinding(m)
	case key.Matches(k, keys.Edit), key.Matches(k, keys.Delete):
		fd, ok := v.selected()
		if !ok {
			return nil, nil
		}
		if key.Matches(k, keys.Edit) {
			return nil, askEditFinding{fd}
		}
		return nil, askDeleteFinding{fd}
	case key.Matches(k, keys.Undo):
		return nil, askUndo{}
	default:
		n := len(v.report.Findings)
		if d, ok := navDelta(keys, k, m.bodyHeight(), n); ok { // first and last: the report's, not the list's
			v.cursor = min(max(v.cursor+d, 0), max(n-1, 0))
		}
	}
	return nil, nil
}

// findingsKey gives the key to the findings view and carries out what it
// asks: the writes through writing (refused on a read-only memory or
// while a write is in flight).
func (f *editing) findingsKey(m *Model, k tea.KeyPressMsg) tea.Cmd {
	cmd, ask := f.fv.key(m, k)
	switch a := ask.(type) {
	case askEditFinding:
		return f.writing(m, func(m *Model) tea.Cmd { return f.editFinding(m, a.fd) })
	case askDeleteFinding:
		return f.writing(m, func(m *Model) tea.Cmd {
			e, cmd, ok := findingEntry(m, a.fd)
			if !ok {
				return cmd
			}
			return f.confirmDelete(m, e)
		})
	case askUndo:
		return f.writing(m, f.undoLast)
	case askMergePair:
		return f.writing(m, func(m *Model) tea.Cmd { return f.askMerge(m, a.keep, a.drop) })
	case askNotDuplicate:
		return f.writing(m, func(m *Model) tea.Cmd { return notDuplicateCmd(m.path, a.a, a.b) })
	case askJump:
		return m.jumpTo(a.id)
	}
	return cmd
}

// writing runs a write action unless the memory is read-only or a write
// is in flight.
func (f *editing) writing(m *Model, do func(*Model) tea.Cmd) tea.Cmd {
	switch {
	case m.readOnly():
		return m.setMessage(m.readOnlyMessage())
	case f.busy:
		return m.setMessage("still saving the last change…")
	}
	f.kept = ""
	return do(m)
}

// findingEntry is the one entry a finding is about, as the snapshot holds
// it; a finding about several asks to open it first.
func findingEntry(m *Model, fd hygiene.Finding) (store.Entry, tea.Cmd, bool) {
	if len(fd.Entries) != 1 {
		return store.Entry{}, m.setMessage(fmt.Sprintf("this finding is about %s: %s to act on one",
			humanize.Plural(len(fd.Entries), "entry"), keyName(m.c.keys.Accept))), false
	}
	i, ok := m.c.snap.index(fd.Entries[0].ID)
	if !ok {
		return store.Entry{}, m.setMessage("that entry no longer exists"), false
	}
	return m.c.snap.entries[i], nil, true
}

// openFinding shows two duplicates side by side, or closes the view on
// the finding's first entry in the list.
func (v *findingsView) openFinding(m *Model) (tea.Cmd, findingsAsk) {
	fd, ok := v.selected()
	if !ok {
		return nil, nil
	}
	if fd.Kind == hygiene.Duplicate {
		return v.compare(m, fd), nil
	}
	v.open = false
	return nil, askJump{fd.Entries[0].ID}
}

// compare shows the finding's closest pair side by side, the older entry
// (lower id) chosen to be kept.
func (v *findingsView) compare(m *Model, fd hygiene.Finding) tea.Cmd {
	a, b, sim := fd.Entries[0].ID, fd.Entries[1].ID, 1.0
	if d := fd.Duplicate; d != nil {
		sim = d.Similarity
		if len(d.Pairs) > 0 {
			a, b, sim = min(d.Pairs[0].A, d.Pairs[0].B), max(d.Pairs[0].A, d.Pairs[0].B), d.Pairs[0].Similarity
		}
	}
	ia, oka := m.c.snap.index(a)
	ib, okb := m.c.snap.index(b)
	if !oka || !okb {
		return m.setMessage("that entry no longer exists")
	}
	c := &comparison{pair: [2]store.Entry{m.c.snap.entries[ia], m.c.snap.entries[ib]}, sim: sim}
	for i, e := range c.pair {
		var held bool
		c.masked[i], held = hygiene.MaskEntry(e)
		c.secrets = c.secrets || held
	}
	v.cmp = c
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
func (v *findingsView) compareKey(m *Model, k tea.KeyPressMsg) (tea.Cmd, findingsAsk) {
	keys := &m.c.keys
	c := v.cmp
	switch {
	case key.Matches(k, keys.Cancel), key.Matches(k, keys.Quit), key.Matches(k, keys.Accept):
		v.cmp = nil
	case key.Matches(k, keys.Focus):
		c.keep = 1 - c.keep
	case key.Matches(k, keys.Reveal):
		if !c.secrets {
			return m.setMessage("no secret to show: neither entry holds one"), nil
		}
		c.revealed = !c.revealed
	case key.Matches(k, keys.Merge):
		return nil, askMergePair{keep: c.pair[c.keep], drop: c.pair[1-c.keep]}
	case key.Matches(k, keys.NotDuplicate):
		return nil, askNotDuplicate{a: c.pair[0].Name, b: c.pair[1].Name}
	case key.Matches(k, keys.Undo):
		return nil, askUndo{}
	case key.Matches(k, keys.Top):
		c.offset = 0
	case key.Matches(k, keys.Bottom): // compareView clamps it to the last page
		c.offset = math.MaxInt32
	default:
		if d, ok := navDelta(&m.c.keys, k, m.bodyHeight(), 0); ok { // top and bottom are above
			c.offset = max(c.offset+d, 0)
		}
	}
	return nil, nil
}

// notDuplicateMsg says a pair was remembered as not duplicates.
type notDuplicateMsg struct {
	a, b, file string
	err        error
}

// notDuplicateCmd remembers, in the file beside the memory that crmem lint
// --not-duplicate writes, that the entries named a and b are not duplicates.
func notDuplicateCmd(path, a, b string) tea.Cmd {
	return func() tea.Msg {
		file := hygiene.NotDuplicatesPath(path)
		nd, err := hygiene.NotDuplicatesOf(path)
		if err == nil {
			nd.Add(a, b)
			err = nd.Save()
		}
		return notDuplicateMsg{a: a, b: b, file: file, err: err}
	}
}

// notDuplicateDone returns to the list, whose report is computed again
// without the pair.
func (v *findingsView) notDuplicateDone(m *Model, msg notDuplicateMsg, refs *refsState) tea.Cmd {
	if msg.err != nil {
		return m.setMessage("not remembered: " + errText(m, msg.err))
	}
	v.cmp, v.stale = nil, true
	return tea.Batch(v.follow(m, refs), m.setMessage(fmt.Sprintf("%s and %s are not duplicates: remembered in %s",
		sanitize.Name(msg.a), sanitize.Name(msg.b), sanitize.Line(displayPath(msg.file, m.home)))))
}

// askMerge asks y/n before merging drop into keep.
func (f *editing) askMerge(m *Model, keep, drop store.Entry) tea.Cmd {
	carried := len(mergedAliases(keep, drop)) - len(keep.Aliases)
	text := fmt.Sprintf("merge: keep %s, give it %s, delete %s?", sanitize.Name(keep.Name),
		humanize.Plural(carried, "alias"), sanitize.Name(drop.Name))
	f.dlg = &dialog.Confirm{Text: text, Warn: f.refs.resumeWarning(m, []store.Entry{drop}), Yes: reqMerge{keep: keep, drop: drop}}
	return nil
}

// mergedAliases are keep's aliases, then drop's name and aliases that keep
// does not already answer to, in order, each once.
func mergedAliases(keep, drop store.Entry) []string {
	out := slices.Clone(keep.Aliases)
	for _, a := range append([]string{drop.Name}, drop.Aliases...) {
		if a != keep.Name && !slices.Contains(out, a) {
			out = append(out, a)
		}
	}
	return out
}

// merge deletes drop and gives keep drop's name and aliases as aliases,
// in one write (so one undo), each guarded by its state as shown: if
// either changed on disk meanwhile, nothing changes.
func (f *editing) merge(m *Model, r reqMerge) tea.Cmd {
	keep, drop := r.keep, r.drop
	ops := []store.Op{
		store.Remove{Name: drop.Name, Expect: &drop}, // first: its name becomes free to be an alias
		store.Update{Name: keep.Name, Content: keep.Content, Aliases: mergedAliases(keep, drop), Expect: &keep},
	}
	return f.write(m, r, ops)
}

// editFinding opens the finding's one entry in the editor: for a secret,
// to redact it (the status says where it is). A finding about several
// entries says how to act on one.
func (f *editing) editFinding(m *Model, fd hygiene.Finding) tea.Cmd {
	e, cmd, ok := findingEntry(m, fd)
	if !ok {
		return cmd
	}
	if cur, ok := m.writer().Memory().Get(e.ID); ok && cur.Name == e.Name {
		e = cur
	}
	s, err := editor.Edit(e, f.ed)
	if err != nil {
		return m.setMessage("cannot start the editor: " + err.Error())
	}
	return tea.Batch(m.setMessage(redactHint(fd)), f.runEditor(s))
}

// redactHint says where a secret is, redacted; other findings get none.
func redactHint(fd hygiene.Finding) string {
	s := fd.Secret
	if s == nil {
		return ""
	}
	where := fmt.Sprintf("line %d", s.Line)
	if s.Field == "alias" {
		where = fmt.Sprintf("alias %d", s.Line)
	}
	return fmt.Sprintf("redact %s (%s) at %s, then save", sanitize.Line(s.Redacted), sanitize.Line(s.Description), where)
}

// view draws the findings view at w×h in place of the panes while it is
// open ("" otherwise); ids says the format shows entries' ids.
func (v *findingsView) view(c *common, ids bool, w, h int) string {
	if !v.open {
		return ""
	}
	if v.cmp != nil {
		return v.compareView(c, ids, w, h)
	}
	return v.listView(c, ids, w, h)
}

// hints are the view's keys for the help line: without the write actions
// on a read-only memory.
func (v *findingsView) hints(k *keymap.KeyMap, readOnly bool) string {
	closeKeys := hints("/", keyName(k.Cancel), keyName(k.Findings))
	if c := v.cmp; c != nil {
		reveal := ""
		if c.secrets {
			reveal = keyHint(k.Reveal, map[bool]string{false: "show secrets", true: "mask secrets"}[c.revealed])
		}
		if readOnly {
			return hints(" · ", reveal, keyHint(k.Up, "scroll"), closeKeys+" back") + " · read-only"
		}
		return hints(" · ", keyHint(k.Focus, "keep the other"), keyHint(k.Merge, "merge"), keyHint(k.NotDuplicate, "not duplicates"),
			reveal, keyHint(k.Undo, "undo"), keyHint(k.Up, "scroll"), keyName(k.Cancel)+" back")
	}
	if readOnly {
		return hints(" · ", keyHint(k.Accept, "open"), closeKeys+" close") + " · read-only"
	}
	return hints(" · ", keyHint(k.Accept, "open"), keyHint(k.Edit, "edit/redact"), keyHint(k.Delete, "delete"), keyHint(k.Undo, "undo"), closeKeys+" close")
}

// findingLines are a finding's line (what check found which entries,
// with their ids when the format shows them) and its reason.
func findingLines(st *styles, fd hygiene.Finding, ids bool) (string, string) {
	refs := make([]string, len(fd.Entries))
	for i, r := range fd.Entries {
		refs[i] = sanitize.Name(r.Name)
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
func reasonLines(st *styles, reason string, w int, whole bool) []string {
	pad := strings.Repeat(" ", min(reasonIndent, max(w-10, 0)))
	if !whole {
		return []string{st.dim.Render(ansi.Truncate(pad+reason, w, "…"))}
	}
	var out []string
	for _, l := range strings.Split(ansi.Wrap(reason, max(w-len(pad), 1), ""), "\n") {
		out = append(out, st.dim.Render(ansi.Truncate(pad+l, w, "…")))
	}
	return out
}

// listView draws the report grouped by kind with the cursor's finding
// highlighted, scrolled to keep it in sight.
func (v *findingsView) listView(c *common, ids bool, w, h int) string {
	st := c.styles
	title := st.paneTitle.Render("Findings")
	var lines []string
	at := 0 // the cursor's first line
	switch {
	case v.shown == nil:
		lines = []string{st.dim.Render("examining the memory…")}
	case len(v.report.Findings) == 0:
		lines = append(wrapDim(st, "nothing found: no duplicates, secrets, deceptive names, outsize entries or orphan archives", w), v.boundedLines(st, w)...)
	default:
		title += st.dim.Render(fmt.Sprintf("  (%s in %s)", humanize.Plural(len(v.report.Findings), "finding"), humanize.Plural(v.report.Entries, "entry")))
		lines, at = v.groupedLines(st, w, ids)
	}
	if v.doing != nil && v.shown != nil {
		title += st.dim.Render(" updating…")
	}
	var sc scroller
	sc.centre(at, len(lines), h)
	return box(title+"\n"+strings.Join(sc.window(lines, h), "\n"), w, h)
}

// groupedLines are the findings under a header per kind, and the line the
// cursor's finding starts on.
func (v *findingsView) groupedLines(st *styles, w int, ids bool) ([]string, int) {
	var lines []string
	at := 0
	var kind hygiene.Kind
	for i, fd := range v.report.Findings {
		if fd.Kind != kind {
			kind = fd.Kind
			lines = append(lines, st.groupHeader.Render(fmt.Sprintf("%s (%s)", kind, humanize.Count(v.report.Count(kind)))))
		}
		head, reason := findingLines(st, fd, ids)
		head = ansi.Truncate(head, w, "…")
		if i == v.cursor {
			at = len(lines)
			head = st.selectedRow(true).Render(ansi.Strip(head) + strings.Repeat(" ", max(w-ansi.StringWidth(head), 0)))
		}
		lines = append(lines, head)
		lines = append(lines, reasonLines(st, reason, w, i == v.cursor)...)
	}
	return append(lines, v.boundedLines(st, w)...), at
}

// boundedLines say what the report did not compare, and how to have it,
// whole, wrapped to w.
func (v *findingsView) boundedLines(st *styles, w int) []string {
	var lines []string
	for _, b := range v.report.Bounded {
		lines = append(lines, wrapDim(st, "bounded: "+sanitize.Line(b), w)...)
	}
	return lines
}

// wrapDim is text wrapped to w cells, dimmed, a line each.
func wrapDim(st *styles, text string, w int) []string {
	var lines []string
	for _, l := range strings.Split(ansi.Wrap(text, max(w, 1), " "), "\n") {
		lines = append(lines, st.dim.Render(l))
	}
	return lines
}

// compareView draws the two duplicates side by side, each with its card
// and its content, the one kept and the one merged into it marked.
func (v *findingsView) compareView(cm *common, ids bool, w, h int) string {
	st := cm.styles
	c := v.cmp
	title := st.paneTitle.Render("Duplicates side by side") + st.dim.Render(fmt.Sprintf("  (similarity %.2f)", c.sim))
	switch {
	case c.secrets && c.revealed:
		title += st.warning.Render("  secrets shown")
	case c.secrets:
		title += st.dim.Render(fmt.Sprintf("  secrets masked: %s shows them", keyName(cm.keys.Reveal)))
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
		cols[i] = box(strings.Join(lines[min(c.offset, len(lines)):], "\n"), colW, body)
	}
	sep := st.border.Render(strings.TrimSuffix(strings.Repeat("│\n", body), "\n"))
	row := lipgloss.JoinHorizontal(lipgloss.Top, cols[0], sep, cols[1])
	return box(title+"\n"+row, w, h)
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
func compareColumn(st *styles, e store.Entry, size, tokens int, kept bool, differs []bool, width int, ids bool) []string {
	mark := st.warning.Render("✗ merged into the other, deleted")
	if kept {
		mark = st.kinds[store.Note].Render("✓ kept")
	}
	aliases := make([]string, len(e.Aliases))
	for i, a := range e.Aliases {
		aliases[i] = sanitize.Name(a)
	}
	head := []string{
		mark,
		st.cardTitle.Render(sanitize.Name(e.Name)),
		st.label.Render(e.Kind.String() + idLabel(e.ID, ids) + " · " + humanize.Size(size) + " · " + humanize.Plural(tokens, "token")),
		st.label.Render("aliases: ") + strings.Join(aliases, ", "),
		"",
	}
	for i, l := range head {
		head[i] = ansi.Truncate(l, width, "…")
	}
	gw := ansi.StringWidth(diffGutter)
	mark, blank := st.mark.Render(diffGutter), strings.Repeat(" ", gw)
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
