package tui

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/crmem/crmem/internal/editor"
	"github.com/crmem/crmem/internal/humanize"
	"github.com/crmem/crmem/internal/sanitize"
)

// diffContext is how many unchanged lines the conflict view shows around
// each change.
const diffContext = 2

// dialogBody draws the open dialog's body (an edit conflict's diff) in
// place of the panes; "" when the dialog has none.
func (f *editing) dialogBody(m *Model, w, h int) string {
	if c, ok := f.dlg.(*choiceDialog); ok && c.body != nil {
		return c.body(m, w, h)
	}
	return ""
}

// conflictBody shows theirs (−) against yours (+) as a compact line diff
// of the aliases and the content, fitted to the pane; what does not fit is
// counted, and the whole of yours is in the kept file.
func conflictBody(w editor.Meanwhile, r editor.Result) func(*Model, int, int) string {
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
	return func(m *Model, width, h int) string {
		st := m.c.styles
		const kept = "  · your whole text: "
		path := shortPath(sanitize.Name(r.Path), max(width-ansi.StringWidth(title+kept), 12))
		out := []string{st.paneTitle.Render(title) + st.dim.Render(kept+path)}
		room := h - 1
		if len(lines) > room {
			room-- // for the line that counts the rest
		}
		for _, l := range lines[:min(len(lines), max(room, 0))] {
			out = append(out, diffLineView(m, l, width))
		}
		if n := len(lines) - max(room, 0); n > 0 {
			out = append(out, st.dim.Render(fmt.Sprintf("… %s more diff lines", humanize.Count(n))))
		}
		return box(strings.Join(out, "\n"), width, h)
	}
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
func diffLineView(m *Model, l editor.DiffLine, width int) string {
	st := m.c.styles
	text := ansi.Truncate(string(l.Op)+" "+sanitize.Name(l.Text), width, "…")
	switch l.Op {
	case editor.DiffTheirs:
		return st.warning.Render(text)
	case editor.DiffMine:
		return st.message.Render(text)
	case editor.DiffSkip:
		return st.dim.Render("  …")
	}
	return st.dim.Render(text)
}
