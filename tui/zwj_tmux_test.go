package tui

import (
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"

	"github.com/crmem/crmem/store"
)

// joinedEmoji are names whose emoji a zero-width joiner joins, and
// decomposed Hangul: tmux draws each emoji sequence 2 cells wide where per
// code point it is 3–8, and a conjoining vowel or final consonant in the
// cell before where per code point it is one of its own (issue 42 item 5).
var joinedEmoji = []string{"👨‍👩‍👧‍👦 family", "dev 👩🏽‍💻 notes", "pride 🏳️‍🌈 flag", "\u1112\u1161\u11ab\u1100\u1173\u11af decomposed", "\u1100\u1161 \u1161\u11a8 jamo"}

// tmuxCells is how many cells tmux 3 gives s: per code point, except that
// an emoji after a zero-width joiner joins the one before and takes none,
// and so does a conjoining vowel or final consonant.
func tmuxCells(s string) int {
	n, joined := 0, false
	for _, r := range s {
		switch {
		case r == '\u200d':
			joined = true
		case joined:
			joined = false
		case r >= 0x1160 && r <= 0x11ff, r >= 0xd7b0 && r <= 0xd7ff:
		default:
			n += ansi.WcWidth.StringWidth(string(r))
		}
	}
	return n
}

// columnsOf is the tmux column of the first sep on each row of screen
// that has one.
func columnsOf(screen, sep string) map[int]int {
	cols := map[int]int{}
	for i, l := range strings.Split(screen, "\n") {
		if before, _, ok := strings.Cut(l, sep); ok && utf8.ValidString(before) {
			cols[i] = tmuxCells(before)
		}
	}
	return cols
}

// TestTmux_JoinedEmojiKeepTheColumns: in tmux, rows with emoji ZWJ
// sequences keep the pane separator and the card's right border in their
// columns: the screen draws a joined sequence as its emoji side by side,
// as wide in tmux as per code point. Before, tmux drew 👨‍👩‍👧‍👦 two cells
// wide where the layout gave it eight, and the separator moved six
// columns left on its row.
func TestTmux_JoinedEmojiKeepTheColumns(t *testing.T) {
	e := newTmux(t)
	bin := buildBinary(t)
	path := filepath.Join(t.TempDir(), "memory.db")
	var entries []store.Entry
	for i, n := range joinedEmoji {
		entries = append(entries, store.Entry{ID: uint64(i + 1), Name: n, Kind: store.Note, CreatedAt: 1767265200 - uint64(i)*3600,
			Content: "# " + n + "\n\n" + strings.Repeat(n+" and more text ", 4)})
	}
	writeEntries(t, path, entries)
	e.start("s", bin+" "+path)
	for i, n := range joinedEmoji {
		e.waitFor("s", 10*time.Second, "the card of "+n, contains("created 2026", "more text"))
		time.Sleep(100 * time.Millisecond) // the rendered preview, not the placeholder
		screen := e.screen("s")
		want := -1
		for row, col := range columnsOf(screen, "┃") {
			if want < 0 {
				want = col
			}
			if col != want {
				t.Errorf("entry %d (%s): the pane separator is at column %d on row %d, %d elsewhere:\n%s", i+1, n, col, row, want, screen)
				break
			}
		}
		if rows, cut := cardRowsCut(screen); rows < 5 || cut > 0 {
			t.Errorf("entry %d (%s): %d of %d card rows lost their right border:\n%s", i+1, n, cut, rows, screen)
		}
		e.keys("s", "j")
	}
}
