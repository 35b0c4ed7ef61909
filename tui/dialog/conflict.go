package dialog

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/crmem/crmem/face/editor"
	"github.com/crmem/crmem/internal/humanize"
	"github.com/crmem/crmem/internal/sanitize"
	"github.com/crmem/crmem/tui/part"
)

// diffContext is how many unchanged lines the conflict view shows around
// each change.
const diffContext = 2

// Conflict is an edit conflict's theirs (−) against yours (+): a compact
// line diff of the aliases and the content, the Body a choice draws in
// place of the panes while the conflict is asked about.
type Conflict struct {
	title string
	path  string // the kept file holding the whole of yours
	lines []editor.DiffLine
}

// ConflictBody computes the diff of what happened meanwhile (w) against
// the edit (r).
func ConflictBody(w editor.Meanwhile, r editor.Result) *Conflict {
	var lines []editor.DiffLine
	title := "theirs (−) against yours (+)"
	mine := conflictText(r.Aliases, r.Content)
	if w.Kind == editor.TheyRemoved {
		title = "they removed it; yours (+) would put it back"
		for _, l := range strings.Split(mine, "\n") {
			lines = append(lines, editor.DiffLine{Op: editor.DiffMine, Text: l})
		}
	} else {
		lines = editor.LineDiff(conflictText(w.Theirs.Aliases, w.Theirs.Content), mine, diffContext)
	}
	return &Conflict{title: title, path: r.Path, lines: lines}
}

// View fits the diff to width×h (dialog.Body); what does not fit is
// counted, and the whole of yours is in the kept file.
func (c *Conflict) View(pc *part.Context, width, h int) string {
	st := pc.Styles
	const kept = "  · your whole text: "
	path := part.ShortPath(sanitize.Name(c.path), max(width-ansi.StringWidth(c.title+kept), 12))
	out := []string{st.PaneTitle.Render(c.title) + st.Dim.Render(kept+path)}
	room := h - 1
	if len(c.lines) > room {
		room-- // for the line that counts the rest
	}
	for _, l := range c.lines[:min(len(c.lines), max(room, 0))] {
		out = append(out, diffLineView(st, l, width))
	}
	if n := len(c.lines) - max(room, 0); n > 0 {
		out = append(out, st.Dim.Render(fmt.Sprintf("… %s more diff lines", humanize.Count(n))))
	}
	return part.Box(strings.Join(out, "\n"), width, h)
}

// conflictText is what the diff compares: an aliases line when there are
// aliases, then the content.
func conflictText(aliases []string, content string) string {
	if len(aliases) == 0 {
		return content
	}
	return "aliases: " + strings.Join(aliases, ", ") + "\n" + content
}

// diffLineView renders one diff line, safe and cut to the width.
func diffLineView(st *part.Styles, l editor.DiffLine, width int) string {
	text := ansi.Truncate(string(l.Op)+" "+sanitize.Line(l.Text), width, "…")
	switch l.Op {
	case editor.DiffTheirs:
		return st.Warning.Render(text)
	case editor.DiffMine:
		return st.Message.Render(text)
	case editor.DiffSkip:
		return st.Dim.Render("  …")
	}
	return st.Dim.Render(text)
}
