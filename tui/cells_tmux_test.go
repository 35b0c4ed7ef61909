package tui

import (
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/crmem/crmem/store"
)

// cardRowsCut counts the rows of the preview card that do not end in the
// card's right border: the row was drawn wider than the terminal and cut.
func cardRowsCut(screen string) (rows, cut int) {
	for _, l := range strings.Split(screen, "\n") {
		_, right, ok := strings.Cut(l, "┃")
		if !ok {
			continue
		}
		right = strings.TrimRight(right, " ")
		if !strings.HasPrefix(right, "╭") && !strings.HasPrefix(right, "│") && !strings.HasPrefix(right, "╰") {
			continue
		}
		rows++
		if !strings.HasSuffix(right, "╮") && !strings.HasSuffix(right, "│") && !strings.HasSuffix(right, "╯") {
			cut++
		}
	}
	return rows, cut
}

// TestTmux_WideRowsKeepTheCardBorder (issue 29 item 2): in tmux, which
// draws per code point (no mode 2027), names with 👩🏽‍💻, ☺️, 🏳️‍🌈,
// half-width dakuten or Devanagari no longer push the preview card's right
// border off the screen, at two widths.
func TestTmux_WideRowsKeepTheCardBorder(t *testing.T) {
	e := newTmux(t)
	bin := buildBinary(t)
	path := filepath.Join(t.TempDir(), "memory.db")
	var entries []store.Entry
	for i, n := range widerPerCodePoint {
		entries = append(entries, store.Entry{ID: uint64(i + 1), Name: n, Kind: store.Note, CreatedAt: 1767265200 - uint64(i)*3600,
			Content: "# " + n + "\n\n" + strings.Repeat(n+" and more text ", 4)})
	}
	writeEntries(t, path, entries)
	e.start("s", bin+" "+path)
	for _, width := range []string{"120", "83"} {
		e.tmux("resize-window", "-t", "s", "-x", width, "-y", "30")
		for i, n := range widerPerCodePoint {
			// The rendered preview, not the plain text shown until it
			// comes: the search line counts its lines only then.
			e.waitFor("s", 10*time.Second, "the card of "+n, func(s string) bool {
				return strings.Contains(s, "created 2026") && strings.Contains(s, "more text") && strings.Contains(s, "id "+strconv.Itoa(i+1)) &&
					strings.Contains(s, "preview lines")
			})
			screen := e.screen("s")
			if rows, cut := cardRowsCut(screen); rows < 5 || cut > 0 {
				t.Errorf("at %s columns, entry %d (%s): %d of %d card rows lost their right border:\n%s", width, i+1, n, cut, rows, screen)
			}
			e.keys("s", "j")
		}
		e.keys("s", "g")
	}
}
