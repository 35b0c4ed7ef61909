package editing

import (
	"errors"
	"fmt"
	"slices"

	tea "charm.land/bubbletea/v2"

	"github.com/crmem/crmem/face/editor"
	"github.com/crmem/crmem/internal/humanize"
	"github.com/crmem/crmem/internal/sanitize"
	"github.com/crmem/crmem/store"
	"github.com/crmem/crmem/store/history"
	"github.com/crmem/crmem/store/hygiene"
	"github.com/crmem/crmem/tui/dialog"
	"github.com/crmem/crmem/tui/historyview"
	"github.com/crmem/crmem/tui/part"
)

// What the other parts ask that writes, opens the editor or asks first
// (the findings view's edit, delete, merge and not duplicates, the
// history's restore, undo from either) comes to the editing part as
// their requests, which the root hands it (Do); each goes through
// writing: refused on a read-only memory or while a write is in flight.

// Do carries out a request of another part that writes, or reports
// false for one it is not.
func (p *Part) Do(s Screen, r part.Request) ([]part.Request, tea.Cmd, bool) {
	switch r := r.(type) {
	case part.EditFinding:
		reqs, cmd := p.writing(s, func() ([]part.Request, tea.Cmd) { return p.editFinding(s, r.Finding) })
		return reqs, cmd, true
	case part.DeleteFinding:
		reqs, cmd := p.writing(s, func() ([]part.Request, tea.Cmd) {
			e, reqs, ok := findingEntry(s, r.Finding)
			if !ok {
				return reqs, nil
			}
			return p.confirmDelete(s, e), nil
		})
		return reqs, cmd, true
	case part.Merge:
		reqs, cmd := p.writing(s, func() ([]part.Request, tea.Cmd) { return p.askMerge(s, r.Keep, r.Drop), nil })
		return reqs, cmd, true
	case part.NotDuplicates:
		path := s.Ctx().Path
		reqs, cmd := p.writing(s, func() ([]part.Request, tea.Cmd) { return nil, notDuplicateCmd(path, r.A, r.B) })
		return reqs, cmd, true
	case part.Restore:
		reqs, cmd := p.askRestore(s, r.H, r.V)
		return reqs, cmd, true
	case part.Undo:
		reqs, cmd := p.writing(s, func() ([]part.Request, tea.Cmd) { return p.undoLast(s) })
		return reqs, cmd, true
	}
	return nil, nil, false
}

// writing runs a write action unless the memory is read-only or a write
// is in flight.
func (p *Part) writing(s Screen, do func() ([]part.Request, tea.Cmd)) ([]part.Request, tea.Cmd) {
	switch {
	case s.Ctx().ReadOnly:
		return say(s.ReadOnlyWhy()), nil
	case p.busy:
		return say("still saving the last change…"), nil
	}
	p.kept = ""
	return do()
}

// findingEntry is the one entry a finding is about, as the snapshot holds
// it; a finding about several asks to open it first.
func findingEntry(s Screen, fd hygiene.Finding) (store.Entry, []part.Request, bool) {
	c := s.Ctx()
	if len(fd.Entries) != 1 {
		return store.Entry{}, say(fmt.Sprintf("this finding is about %s: %s to act on one",
			humanize.Plural(len(fd.Entries), "entry"), part.KeyName(c.Keys.Accept))), false
	}
	e, ok := c.Snap.Get(fd.Entries[0].ID)
	if !ok {
		return store.Entry{}, say("that entry no longer exists"), false
	}
	return e, nil, true
}

// NotDuplicateMsg says a pair was remembered as not duplicates, in File
// (or why not).
type NotDuplicateMsg struct {
	A, B, File string
	Err        error
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
		return NotDuplicateMsg{A: a, B: b, File: file, Err: err}
	}
}

// askMerge asks y/n before merging drop into keep.
func (p *Part) askMerge(s Screen, keep, drop store.Entry) []part.Request {
	carried := len(mergedAliases(keep, drop)) - len(keep.Aliases)
	text := fmt.Sprintf("merge: keep %s, give it %s, delete %s?", sanitize.Name(keep.Name),
		humanize.Plural(carried, "alias"), sanitize.Name(drop.Name))
	p.dlg = &dialog.Confirm{Text: text, Warn: s.ResumeWarning([]store.Entry{drop}), Yes: reqMerge{keep: keep, drop: drop}}
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
func (p *Part) merge(s Screen, r reqMerge) []part.Request {
	keep, drop := r.keep, r.drop
	ops := []store.Op{
		store.Remove{Name: drop.Name, Expect: &drop}, // first: its name becomes free to be an alias
		store.Update{Name: keep.Name, Content: keep.Content, Aliases: mergedAliases(keep, drop), Expect: &keep},
	}
	return p.write(s, r, ops)
}

// editFinding opens the finding's one entry in the editor: for a secret,
// to redact it (the status says where it is). A finding about several
// entries says how to act on one.
func (p *Part) editFinding(s Screen, fd hygiene.Finding) ([]part.Request, tea.Cmd) {
	e, reqs, ok := findingEntry(s, fd)
	if !ok {
		return reqs, nil
	}
	if cur, ok := s.Writer().Memory().Get(e.ID); ok && cur.Name == e.Name {
		e = cur
	}
	ss, err := editor.Edit(e, p.ed)
	if err != nil {
		return say("cannot start the editor: " + err.Error()), nil
	}
	return say(redactHint(fd)), p.runEditor(ss)
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

// askRestore asks y/n before bringing version v of h back; the current
// version, or one memory holds as it is, writes nothing.
func (p *Part) askRestore(s Screen, h history.History, v history.Version) ([]part.Request, tea.Cmd) {
	name := sanitize.Name(h.Name)
	if v.Current {
		return say(fmt.Sprintf("%s: version #%d is already current; nothing written", name, v.N)), nil
	}
	return p.writing(s, func() ([]part.Request, tea.Cmd) {
		var current *store.Entry
		if e, ok := s.Writer().Memory().Lookup(h.Name); ok && e.Name == h.Name {
			current = &e
		}
		ops, err := s.RestoreOps(h, v, current)
		switch {
		case errors.Is(err, history.ErrCurrent):
			return say(fmt.Sprintf("%s: version #%d is what memory holds now; nothing written", name, v.N)), nil
		case err != nil:
			return say("cannot restore " + name + ": " + sanitize.Line(err.Error())), nil
		}
		text := fmt.Sprintf("restore %s to version #%d (%s)? it replaces the current content and aliases", name, v.N, historyview.ActionText(v, h.Name))
		if current == nil {
			text = fmt.Sprintf("bring %s back as version #%d held it (%s)?", name, v.N, historyview.ActionText(v, h.Name))
		}
		p.dlg = &dialog.Confirm{Text: text, Yes: reqRestore{name: h.Name, n: v.N, ops: ops}}
		return nil, nil
	})
}
