package tui

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	tea "charm.land/bubbletea/v2"

	crmemconfig "github.com/crmem/crmem/face/config"
	"github.com/crmem/crmem/internal/humanize"
	"github.com/crmem/crmem/internal/sanitize"
	"github.com/crmem/crmem/tui/dialog"
	"github.com/crmem/crmem/tui/part"
)

// dumpDoneMsg reports a finished dump.
type dumpDoneMsg struct {
	dir string
	n   int
	err error
}

// dump asks for a folder and writes the memory there as the mdbook tree of
// SPEC §5, the same as `crmem dump DIR`. The dump runs off the update loop.
func (f *editing) dump(m *Model) tea.Cmd {
	mem := m.memory() // a store's memory dumps too
	if mem == nil {
		return m.setMessage("nothing to dump yet: the file is still opening")
	}
	// The folder proposed is a suggestion: a path typed (/tmp/book,
	// ~/book) replaces it rather than being appended to it.
	f.dlg = dialog.NewSuggested("dump the memory as an mdbook tree into folder", defaultDumpDir(m.path), dumpDirCheck{f.home}, reqDump{mem: mem})
	return nil
}

// dumpDone says where the tree went, or why nothing was written.
func dumpDone(m *Model, msg dumpDoneMsg) tea.Cmd {
	if msg.err != nil {
		return m.setMessage("nothing dumped: " + sanitize.Line(msg.err.Error()))
	}
	return m.setMessage(fmt.Sprintf("dumped %s to %s", humanize.Plural(msg.n, "entry"), sanitize.Name(msg.dir)))
}

// defaultDumpDir proposes memory-book/ next to the memory file.
func defaultDumpDir(path string) string {
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
