package part

import (
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/crmem/crmem/internal/sanitize"
	"github.com/crmem/crmem/store/history"
)

// HistoryIndex is every entry's story as read once from the open memory
// (history.Index): an entry's versions, the entries memory no longer
// holds, and the summary the card shows. It is read off the update loop
// and replaced whole after a reload or a write, never changed in place,
// so a part may ask it off the loop.
type HistoryIndex interface {
	History(name string) history.History
	Forgotten() []history.Forgotten
	Summary(name string) history.Summary
}

// History is the root's history index as a part reads it.
type History struct {
	Index    HistoryIndex // nil until the first build is done, and during a slow one
	Gen      int          // counts the indexes built: what a part read was read from
	Building bool         // a newer index is being built
	Err      error        // why the last build failed
}

// Waiting is what a view says before the index is built, at width w:
// that it is being read, or why it could not be.
func (h History) Waiting(st *Styles, w int) []string {
	if h.Err != nil && !h.Building {
		return WrapStyled(st.Warning, "cannot show the history: "+sanitize.Line(h.Err.Error()), w)
	}
	return []string{st.Dim.Render("reading the history…")}
}

// SessionName is a call's session as the screen names it: its title in
// «», else its folder or handle.
func SessionName(c *history.Call) string {
	if c.Title != "" {
		return "«" + sanitize.Line(c.Title) + "»"
	}
	return sanitize.Name(c.Session)
}

// WrapStyled is text wrapped to w cells at its spaces, each line in
// style s.
func WrapStyled(s lipgloss.Style, text string, w int) []string {
	var lines []string
	for _, l := range strings.Split(ansi.Wrap(text, max(w, 1), " "), "\n") {
		lines = append(lines, s.Render(l))
	}
	return lines
}

// Reads keeps which of the root's history indexes a view has read and
// which read it is waiting for, so that a view reads each new index
// once, off the loop, and drops a read from an index replaced meanwhile.
// The zero value has read nothing.
type Reads struct {
	of    int // the generation read; 0 before the first read
	asked int // the generation being read; 0 when none
}

// Ask returns the index to read and its generation when h holds one
// the view has neither read nor asked for, and marks it asked.
func (r *Reads) Ask(h History) (HistoryIndex, int, bool) {
	if h.Index == nil || h.Gen == r.of || h.Gen == r.asked {
		return nil, 0, false
	}
	r.asked = h.Gen
	return h.Index, h.Gen, true
}

// Take reports whether a read of generation gen is the one awaited and,
// when it is, makes it the one read.
func (r *Reads) Take(gen int) bool {
	if gen != r.asked {
		return false
	}
	r.of, r.asked = gen, 0
	return true
}

// Of is the generation of the index read, 0 before the first read.
func (r Reads) Of() int { return r.of }

// Read reports whether a read has been taken.
func (r Reads) Read() bool { return r.of != 0 }

// Updating reports whether what is on screen is being replaced: a read
// was taken and a newer index is being built (building) or read.
func (r Reads) Updating(building bool) bool { return (building || r.asked != 0) && r.of != 0 }
