package tui

import (
	"fmt"
	"slices"

	tea "charm.land/bubbletea/v2"

	"github.com/crmem/crmem/face/editor"
	"github.com/crmem/crmem/internal/humanize"
	"github.com/crmem/crmem/internal/sanitize"
	"github.com/crmem/crmem/store"
	"github.com/crmem/crmem/store/hygiene"
	"github.com/crmem/crmem/tui/dialog"
	"github.com/crmem/crmem/tui/part"
)

// The findings view is a part of its own (tui/findings); what it asks
// that writes, opens the editor or a dialog comes back as requests, and
// the editing part carries them out here (findingsDo), through writing:
// refused on a read-only memory or while a write is in flight.

// findingsDo carries out a request of the findings view that writes, or
// reports false for one it is not.
func (f *editing) findingsDo(m *Model, r part.Request) (tea.Cmd, bool) {
	switch r := r.(type) {
	case part.EditFinding:
		return f.writing(m, func(m *Model) tea.Cmd { return f.editFinding(m, r.Finding) }), true
	case part.DeleteFinding:
		return f.writing(m, func(m *Model) tea.Cmd {
			e, cmd, ok := findingEntry(m, r.Finding)
			if !ok {
				return cmd
			}
			return f.confirmDelete(m, e)
		}), true
	case part.Merge:
		return f.writing(m, func(m *Model) tea.Cmd { return f.askMerge(m, r.Keep, r.Drop) }), true
	case part.NotDuplicates:
		return f.writing(m, func(m *Model) tea.Cmd { return notDuplicateCmd(m.path, r.A, r.B) }), true
	}
	return nil, false
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

// notDuplicateDone returns the findings view to its list, whose report
// is computed again without the pair.
func (m *Model) notDuplicateDone(msg notDuplicateMsg) tea.Cmd {
	if msg.err != nil {
		return m.setMessage("not remembered: " + errText(m, msg.err))
	}
	return tea.Batch(m.fv.Again(m.ctx()), m.setMessage(fmt.Sprintf("%s and %s are not duplicates: remembered in %s",
		sanitize.Name(msg.a), sanitize.Name(msg.b), sanitize.Line(displayPath(msg.file, m.home)))))
}

// askMerge asks y/n before merging drop into keep.
func (f *editing) askMerge(m *Model, keep, drop store.Entry) tea.Cmd {
	carried := len(mergedAliases(keep, drop)) - len(keep.Aliases)
	text := fmt.Sprintf("merge: keep %s, give it %s, delete %s?", sanitize.Name(keep.Name),
		humanize.Plural(carried, "alias"), sanitize.Name(drop.Name))
	f.dlg = &dialog.Confirm{Text: text, Warn: m.refs.resumeWarning(m, []store.Entry{drop}), Yes: reqMerge{keep: keep, drop: drop}}
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
