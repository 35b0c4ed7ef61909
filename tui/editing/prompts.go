package editing

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	crmemconfig "github.com/crmem/crmem/face/config"
	"github.com/crmem/crmem/internal/humanize"
	"github.com/crmem/crmem/internal/sanitize"
	"github.com/crmem/crmem/store"
	"github.com/crmem/crmem/store/hygiene"
	"github.com/crmem/crmem/tui/dialog"
	"github.com/crmem/crmem/tui/marks"
	"github.com/crmem/crmem/tui/part"
)

// rename asks for the selected entry's new name.
func (p *Part) rename(s Screen) ([]part.Request, tea.Cmd) {
	e, reqs, ok := p.selected(s)
	if !ok {
		return reqs, nil
	}
	title := "rename " + sanitize.Name(e.Name) + mixedParen(e.Name) + " to"
	if n := s.SessionsNaming(e); n > 0 {
		title = fmt.Sprintf("⚠ %s by this name; rename it to",
			humanize.Counted(n, "session names it", "sessions name it"))
	}
	p.dlg = dialog.NewExact(title, e.Name, dialog.FreeName{Same: e.Name}, reqRename{e: e})
	return nil, nil
}

// aliases asks for the selected entry's alias list, comma-separated.
func (p *Part) aliases(s Screen) ([]part.Request, tea.Cmd) {
	e, reqs, ok := p.selected(s)
	if !ok {
		return reqs, nil
	}
	if slices.ContainsFunc(e.Aliases, func(a string) bool { return strings.Contains(a, ",") }) {
		return say("an alias of " + e.Name + " contains a comma: change the aliases with e"), nil
	}
	p.dlg = dialog.NewExact("aliases of "+sanitize.Name(e.Name)+mixedParen(e.Name)+" (comma-separated)", strings.Join(e.Aliases, ", "), aliasesCheck{}, reqAliases{e: e})
	return nil, nil
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

// aliasesCheck is the aliases prompt's check (dialog.Check): it accepts
// any list the prompt can hold (text typed drops control characters;
// those an alias had are kept).
type aliasesCheck struct{}

// Check refuses a list too long.
func (aliasesCheck) Check(_ *part.Context, v string) error {
	if len(parseAliases(v)) > 1000 {
		return errors.New("too many aliases")
	}
	return nil
}

// deleteSelected asks y/n before deleting the selected entry.
func (p *Part) deleteSelected(s Screen) ([]part.Request, tea.Cmd) {
	e, reqs, ok := p.selected(s)
	if !ok {
		return reqs, nil
	}
	return p.confirmDelete(s, e), nil
}

// confirmDelete asks y/n, with the sessions that would lose their resume
// point, before deleting e (undoable).
func (p *Part) confirmDelete(s Screen, e store.Entry) []part.Request {
	text := fmt.Sprintf("delete %s %s (%s)?", e.Kind, sanitize.Name(e.Name), humanize.Size(len(e.Content)))
	warn := mixedWarning([]store.Entry{e}, 1) + s.ResumeWarning([]store.Entry{e})
	p.dlg = &dialog.Confirm{Text: text, Warn: warn, Yes: reqRemove{es: []store.Entry{e}, label: "delete " + e.Name}}
	return nil
}

// remove deletes entries in one write, each guarded by its state as shown:
// if any changed on disk meanwhile, nothing is deleted.
func (p *Part) remove(s Screen, r reqRemove) []part.Request {
	ops := make([]store.Op, len(r.es))
	for i, e := range r.es {
		ops[i] = store.Remove{Name: e.Name, Expect: &r.es[i]}
	}
	return p.write(s, r, ops)
}

// deleteMarked asks once, with count, total size and the sessions whose
// resume point would go, then deletes every marked entry in one write.
func (p *Part) deleteMarked(s Screen) ([]part.Request, tea.Cmd) {
	es := s.Marked()
	if len(es) == 0 {
		keys := s.Ctx().Keys
		return say("nothing marked" + part.Paren(part.Hints(", ", part.KeyHint(keys.Mark, "marks an entry"), part.KeyHint(keys.MarkAll, "every listed one"), part.KeyHint(keys.MarkOlder, "old archives")))), nil
	}
	text, warn := s.DeleteMarkedQuestion(es, mixedWarning(es, 3)+s.ResumeWarning(es))
	p.dlg = &dialog.Confirm{Text: text, Warn: warn, Yes: reqRemove{es: es, label: "delete " + humanize.Plural(len(es), "entry")}}
	return nil, nil
}

// markOlder asks for an age and marks every archive older than it. A span
// under a day ("6m" is six minutes, as everywhere) is asked about first:
// months were likely meant, and it marks nearly every archive.
func (p *Part) markOlder(Screen) ([]part.Request, tea.Cmd) {
	p.dlg = dialog.NewPrompt("mark archives older than (e.g. 30d, 2w, 6mo, 1y)", "", marks.SpanCheck{}, reqMarkOlderAge{})
	return nil, nil
}

// markOlderAge marks the archives older than the age typed (v), or asks
// first when it is under a day.
func (p *Part) markOlderAge(v string) []part.Request {
	d, _ := humanize.ParseSpan(v)
	if d >= 24*time.Hour {
		return []part.Request{part.MarkOlder{Age: v, D: d}}
	}
	p.dlg = &dialog.Confirm{Text: marks.SpanQuestion(v, d), Short: marks.SpanBrief(v, d), Yes: reqMarkOlder{age: v, d: d}}
	return nil
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

// mixedNote says which letters of a mixed-script name only look Latin
// ("mixes scripts: е U+0435 CYRILLIC"); "" for any other name.
func mixedNote(name string) string {
	if ls := hygiene.MixedScript(name); len(ls) > 0 {
		return "mixes scripts: " + hygiene.DescribeMixed(ls)
	}
	return ""
}

// mixedWarning is a question's warning about the mixed-script names among
// es (the first n, those it names): " ⚠ dеploy-steps mixes scripts: е
// U+0435 CYRILLIC", or "".
func mixedWarning(es []store.Entry, n int) string {
	out := ""
	for _, e := range es[:min(n, len(es))] {
		if note := mixedNote(e.Name); note != "" {
			out += " ⚠ " + sanitize.Name(e.Name) + " " + note
		}
	}
	return out
}

// mixedParen is " (mixes scripts: е U+0435 CYRILLIC)" for a prompt's
// title about a mixed-script name, else "".
func mixedParen(name string) string {
	if note := mixedNote(name); note != "" {
		return " (" + note + ")"
	}
	return ""
}

// dumpDoneMsg reports a finished dump.
type dumpDoneMsg struct {
	dir string
	n   int
	err error
}

// dump asks for a folder and writes the memory there as the mdbook tree of
// SPEC §5, the same as `crmem dump DIR`. The dump runs off the update loop.
func (p *Part) dump(s Screen) ([]part.Request, tea.Cmd) {
	c := s.Ctx()
	var mem *store.Memory // a store's memory dumps too
	if c.Memory != nil {
		mem = c.Memory.Memory()
	}
	if mem == nil {
		return say("nothing to dump yet: the file is still opening"), nil
	}
	// The folder proposed is a suggestion: a path typed (/tmp/book,
	// ~/book) replaces it rather than being appended to it.
	p.dlg = dialog.NewSuggested("dump the memory as an mdbook tree into folder", DefaultDumpDir(c.Path), dumpDirCheck{p.home}, reqDump{mem: mem})
	return nil, nil
}

// dumpDone says where the tree went, or why nothing was written.
func dumpDone(msg dumpDoneMsg) []part.Request {
	if msg.err != nil {
		return say("nothing dumped: " + sanitize.Line(msg.err.Error()))
	}
	return say(fmt.Sprintf("dumped %s to %s", humanize.Plural(msg.n, "entry"), sanitize.Name(msg.dir)))
}

// DefaultDumpDir proposes memory-book/ next to the memory file.
func DefaultDumpDir(path string) string {
	return filepath.Join(filepath.Dir(path), "memory-book")
}

// dumpDirCheck is the dump prompt's check (dialog.Check), with ~ as
// home.
type dumpDirCheck struct{ home string }

// Check refuses an empty answer and a path that is an existing file.
func (d dumpDirCheck) Check(_ *part.Context, v string) error {
	if v == "" {
		return errors.New("type a folder")
	}
	if fi, err := os.Stat(crmemconfig.ExpandHome(v, d.home)); err == nil && !fi.IsDir() {
		return errors.New("that is a file, not a folder")
	}
	return nil
}
