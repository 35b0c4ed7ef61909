package historyview

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/crmem/crmem/store/history"
	"github.com/crmem/crmem/tui/part"
)

// testStyles are the styles the root lends, with or without colour.
func testStyles(colour bool) *part.Styles {
	st := &part.Styles{DiffDelWord: lipgloss.NewStyle().Reverse(true), DiffAddWord: lipgloss.NewStyle().Reverse(true)}
	if colour {
		st.DiffDel = lipgloss.NewStyle().Foreground(lipgloss.Color("#FF5F5F"))
		st.DiffAdd = lipgloss.NewStyle().Foreground(lipgloss.Color("#5FD7AF"))
		st.DiffDelWord, st.DiffAddWord = st.DiffDel.Reverse(true), st.DiffAdd.Reverse(true)
	}
	return st
}

// TestVersionRow_SessionsOnlyOnAStore: on a store, a version its log no
// longer holds (known from a session) says so; a v1 file keeps no log.
func TestVersionRow_SessionsOnlyOnAStore(t *testing.T) {
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	v := history.Version{N: 1, Action: history.Write, Name: "deploy-steps", Origin: history.FromSession,
		Call: &history.Call{Session: "2026-deploy", Title: "deploy pipeline", Time: now.Add(-72 * time.Hour)}}
	if head, _ := versionRow(v, "deploy-steps", false, true, now, 30); head != "#1 write · sessions only" {
		t.Errorf("on a store, a version its log does not hold reads %q", head)
	}
	if head, _ := versionRow(v, "deploy-steps", false, false, now, 30); head != "#1 write" {
		t.Errorf("on a v1 file, a version before the current reads %q", head)
	}
}

// TestHistoryView_StylesTheDiff: removed and added lines are drawn in
// their styles, with colour.
func TestHistoryView_StylesTheDiff(t *testing.T) {
	st := testStyles(true)
	d := diffResult{hunks: []diffHunk{{header: "@@ -2,2 +2,2 @@", lines: []diffLine{
		{op: '-', segs: []diffSeg{{text: "Run "}, {text: "migrations.", changed: true}}},
		{op: '+', segs: []diffSeg{{text: "Run "}, {text: "the migrations first.", changed: true}}},
		{op: ' ', segs: []diffSeg{{text: "Ship it."}}},
	}}}}
	lines := renderDiff(st, d, 40)
	if len(lines) != 4 || ansi.Strip(lines[0]) != "@@ -2,2 +2,2 @@" {
		t.Fatalf("%d lines, want the hunk's header and 3: %q", len(lines), lines)
	}
	lines = lines[1:]
	if lines[0] == ansi.Strip(lines[0]) || lines[1] == ansi.Strip(lines[1]) {
		t.Errorf("removed or added line drawn plain: %q", lines[:2])
	}
	if lines[2] != "  Ship it." {
		t.Errorf("unchanged line %q, want it plain", lines[2])
	}
	if !strings.Contains(lines[0], st.DiffDelWord.Render("migrations.")) || !strings.Contains(lines[1], st.DiffAddWord.Render("the migrations first.")) {
		t.Errorf("the changed words are not set apart: %q", lines[:2])
	}
}

// TestHistoryView_DiffWrapsWithinItsColumn: a long line wraps inside the
// diff column under its gutter, and an escape sequence in the content is
// shown as text, never sent raw.
func TestHistoryView_DiffWrapsWithinItsColumn(t *testing.T) {
	st := testStyles(false)
	long := strings.Repeat("word ", 20) + "\x1b[31mred\x1b[0m"
	lines := diffRows(st, diffLine{op: '+', segs: []diffSeg{{text: long}}}, 20)
	if len(lines) < 5 {
		t.Fatalf("%d rows for a %d-cell line at 20 cells: %q", len(lines), len(long), lines)
	}
	for _, l := range lines {
		p := ansi.Strip(l)
		if w := ansi.StringWidth(p); w > 20 || !strings.HasPrefix(p, "+ ") {
			t.Errorf("row %q: %d cells, want ≤ 20 behind its gutter", p, w)
		}
		if strings.Contains(p, "\x1b") {
			t.Errorf("row %q holds a raw escape", p)
		}
	}
}

// TestDiff_HunksAndWordWrap: a long content's diff shows its changes
// with three lines of context under diff -u's headers, not the whole
// content; an unchanged content says so; rows break after a space, not
// inside a word, and lose no text.
func TestDiff_HunksAndWordWrap(t *testing.T) {
	st := testStyles(false)
	var a []string
	for i := range 40 {
		a = append(a, fmt.Sprintf("line %d", i+1))
	}
	b := slices.Clone(a)
	b[29] = "line 30 changed"
	rows := renderDiff(st, diffOf(strings.Join(a, "\n"), strings.Join(b, "\n")), 40)
	got := ansi.Strip(strings.Join(rows, "\n"))
	if want := "@@ -27,7 +27,7 @@\n  line 27\n  line 28\n  line 29\n- line 30\n+ line 30 changed\n  line 31\n  line 32\n  line 33"; got != want {
		t.Errorf("diff:\n%s\nwant:\n%s", got, want)
	}
	if got := ansi.Strip(strings.Join(renderDiff(st, diffOf("a\nb", "a\nb"), 40), "\n")); got != "content unchanged (2 lines)" {
		t.Errorf("an unchanged content: %q", got)
	}
	text := "the quick brown fox jumps over the lazy dog again and again"
	rows = diffRows(st, diffLine{op: ' ', segs: []diffSeg{{text: "the quick brown "}, {text: "fox jumps", changed: true}, {text: " over the lazy dog again and again"}}}, 22)
	var joined string
	for _, r := range rows {
		p := strings.TrimPrefix(ansi.Strip(r), "  ")
		if ansi.StringWidth(p) > 20 {
			t.Errorf("row %q wider than 20 cells", p)
		}
		if strings.HasPrefix(p, "ump") || strings.HasSuffix(p, "j") {
			t.Errorf("row %q cut inside a word", p)
		}
		joined += p
	}
	if joined != text {
		t.Errorf("rows %q lose text: %q", rows, joined)
	}
}

// TestDiff_LastLineWithoutNewline: a changed last line that differs only
// by its newline says so, or the two lines would read alike.
func TestDiff_LastLineWithoutNewline(t *testing.T) {
	rows := renderDiff(testStyles(false), diffOf("a\nlast", "a\nlast\nmore"), 40)
	got := ansi.Strip(strings.Join(rows, "\n"))
	if !strings.Contains(got, "- last ⏎ no newline at the end\n+ last\n+ more") {
		t.Errorf("diff:\n%s", got)
	}
}

// TestDiff_NoNewlineMarkOnlyWhereLinesReadAlike: a removed or added
// last line whose text the other side does not have needs no mark.
func TestDiff_NoNewlineMarkOnlyWhereLinesReadAlike(t *testing.T) {
	for _, ab := range [][2]string{{"a\nlast", ""}, {"", "a\nlast"}, {"a\nlast", "a\nfirst"}} {
		if got := ansi.Strip(strings.Join(renderDiff(testStyles(false), diffOf(ab[0], ab[1]), 40), "\n")); strings.Contains(got, "newline") {
			t.Errorf("diff of %q and %q:\n%s", ab[0], ab[1], got)
		}
	}
}

// TestHistoryView_SaysWhatChangedBesidesTheContent: the diff's header
// lists the aliases a version dropped and gained, a rename and a change of
// kind; the first version lists its aliases.
func TestHistoryView_SaysWhatChangedBesidesTheContent(t *testing.T) {
	a := history.Version{N: 1, Action: history.Write, Name: "k8s", Kind: "archive", Aliases: []string{"on call", "pager"}}
	b := history.Version{N: 2, Action: history.RenameIn, Name: "kubernetes", From: "k8s", Kind: "note", Aliases: []string{"pager", "handoff"}}
	got := strings.Join(changeText(&a, b), "\n")
	want := "name k8s → kubernetes\nkind archive → note\naliases −on call +handoff"
	if got != want {
		t.Errorf("changes:\n%s\nwant:\n%s", got, want)
	}
	if got := changeText(nil, a); len(got) != 1 || got[0] != "aliases on call, pager" {
		t.Errorf("first version: %q", got)
	}
	if got := changeText(&a, a); len(got) != 0 {
		t.Errorf("no change: %q", got)
	}
}
