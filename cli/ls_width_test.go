package cli

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/crmem/crmem/store"
)

// TestLs_ColumnsAlignAsTerminalsDraw: ls's columns start at one place on
// every row as a terminal that measures code point by code point draws
// them (tmux 3.3a: half-width katakana's voicing marks and Devanagari's
// vowel signs take a cell each), also for names whose grapheme clusters
// are fewer than their cells. Seen by hand in tmux: the CREATED column of
// "ｶﾞｷﾞｸﾞｹﾞｺﾞ-ﾊﾞﾋﾞﾌﾞﾍﾞﾎﾞ-ﾒﾓ" stood 10 cells right of the others, of
// "परियोजना-दस्तावेज़-संग्रहालय" 7, of "हिंदी-नोट्स" 4.
func TestLs_ColumnsAlignAsTerminalsDraw(t *testing.T) {
	db := filepath.Join(t.TempDir(), "memory.db")
	names := []string{"deploy-steps", "デプロイ手順", "ｶﾞｷﾞｸﾞｹﾞｺﾞ-ﾊﾞﾋﾞﾌﾞﾍﾞﾎﾞ-ﾒﾓ", "परियोजना-दस्तावेज़-संग्रहालय", "हिंदी-नोट्स", "👍🏽-thumbs"}
	var entries []store.Entry
	for i, n := range names {
		entries = append(entries, store.Entry{ID: uint64(i + 1), Name: n, Content: "x", CreatedAt: 1767323045})
	}
	must(t, os.WriteFile(db, store.Encode(uint64(len(names)), entries), 0o600))
	out := mustRun(t, "", "ls", "--db", db)
	date := regexp.MustCompile(`\d{4}-\d\d-\d\d \d\d:\d\d`)
	at := -1
	for _, line := range strings.Split(strings.TrimSpace(out), "\n")[1:] {
		loc := date.FindStringIndex(line)
		if loc == nil {
			t.Fatalf("no date in %q", line)
		}
		col := ansi.WcWidth.StringWidth(line[:loc[0]])
		if at < 0 {
			at = col
		}
		if col != at {
			t.Errorf("row %q: its date starts at cell %d, the first row's at %d", line, col, at)
		}
	}
}
