package tui

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/crmem/crmem/internal/humanize"
	"github.com/crmem/crmem/internal/sanitize"
	"github.com/crmem/crmem/store"
)

// rename asks for the selected entry's new name.
func (f *editing) rename(m *Model) tea.Cmd {
	e, cmd, ok := f.selected(m)
	if !ok {
		return cmd
	}
	title := "rename " + sanitize.Name(e.Name) + mixedParen(e.Name) + " to"
	if r := m.refs.of(m, e); len(r.by) > 0 {
		title = fmt.Sprintf("⚠ %s by this name; rename it to",
			humanize.Counted(len(r.by), "session names it", "sessions name it"))
	}
	f.dlg = newExactPrompt(title, e.Name, f.freeName(m, e.Name), reqRename{e: e})
	return nil
}

// aliases asks for the selected entry's alias list, comma-separated.
func (f *editing) aliases(m *Model) tea.Cmd {
	e, cmd, ok := f.selected(m)
	if !ok {
		return cmd
	}
	if slices.ContainsFunc(e.Aliases, func(a string) bool { return strings.Contains(a, ",") }) {
		return m.setMessage("an alias of " + e.Name + " contains a comma: change the aliases with e")
	}
	f.dlg = newExactPrompt("aliases of "+sanitize.Name(e.Name)+mixedParen(e.Name)+" (comma-separated)", strings.Join(e.Aliases, ", "), validAliases, reqAliases{e: e})
	return nil
}

// sameAliases reports whether a list typed changes nothing.
func sameAliases(list, was []string) bool {
	return slices.Equal(list, was) || len(list)+len(was) == 0
}

// parseAliases splits a comma-separated list, trimming spaces (U+0020:
// a tab or a no-break space an alias holds is part of it) and dropping
// empty items and repeats.
func parseAliases(v string) []string {
	var out []string
	for a := range strings.SplitSeq(v, ",") {
		if a = strings.Trim(a, " "); a != "" && !slices.Contains(out, a) {
			out = append(out, a)
		}
	}
	return out
}

// validAliases accepts any list the prompt can hold (text typed drops
// control characters; those an alias had are kept).
func validAliases(v string) error {
	if len(parseAliases(v)) > 1000 {
		return errors.New("too many aliases")
	}
	return nil
}

// deleteSelected asks y/n before deleting the selected entry.
func (f *editing) deleteSelected(m *Model) tea.Cmd {
	e, cmd, ok := f.selected(m)
	if !ok {
		return cmd
	}
	return f.confirmDelete(m, e)
}

// confirmDelete asks y/n, with the sessions that would lose their resume
// point, before deleting e (undoable).
func (f *editing) confirmDelete(m *Model, e store.Entry) tea.Cmd {
	text := fmt.Sprintf("delete %s %s (%s)?", e.Kind, sanitize.Name(e.Name), humanize.Size(len(e.Content)))
	warn := mixedWarning([]store.Entry{e}, 1) + m.refs.resumeWarning(m, []store.Entry{e})
	f.dlg = &confirmDialog{text: text, warn: warn, yes: reqRemove{es: []store.Entry{e}, label: "delete " + e.Name}}
	return nil
}

// remove deletes entries in one write, each guarded by its state as shown:
// if any changed on disk meanwhile, nothing is deleted.
func (f *editing) remove(m *Model, r reqRemove) tea.Cmd {
	ops := make([]store.Op, len(r.es))
	for i, e := range r.es {
		ops[i] = store.Remove{Name: e.Name, Expect: &r.es[i]}
	}
	return f.write(m, r, ops)
}

// entriesText names one entry or counts several.
func entriesText(es []store.Entry) string {
	if len(es) == 1 {
		return sanitize.Name(es[0].Name)
	}
	return humanize.Plural(len(es), "entry")
}

// totalSize is the content bytes of es.
func totalSize(es []store.Entry) int {
	n := 0
	for _, e := range es {
		n += len(e.Content)
	}
	return n
}
