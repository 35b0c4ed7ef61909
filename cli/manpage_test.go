package cli

import (
	"strings"
	"testing"
	"time"
)

// TestRoffText: text that roff would read as requests or escapes is kept
// as text.
func TestRoffText(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"plain", "plain"},
		{`a\b`, `a\eb`},
		{".TH not a request", `\&.TH not a request`},
		{"line\n'quote first\n.dot", "line\n\\&'quote first\n\\&.dot"},
	} {
		if got := roffText(c.in); got != c.want {
			t.Errorf("roffText(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestRoffParagraphs: blank lines start paragraphs and indented lines keep
// their columns (no filling).
func TestRoffParagraphs(t *testing.T) {
	got := roffParagraphs("Intro text.\n\n  jsonl   what export prints\n  drover  a tree\n\nAfter.")
	want := "Intro text.\n.PP\n.nf\n  jsonl   what export prints\n  drover  a tree\n.fi\n.PP\nAfter."
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// TestManDate: $SOURCE_DATE_EPOCH makes the pages reproducible; a value
// that is no number is refused rather than ignored.
func TestManDate(t *testing.T) {
	now := time.Date(2026, 11, 25, 0, 0, 0, 0, time.UTC)
	env := func(v string) func(string) string { return func(string) string { return v } }
	if d, err := manDate(env(""), now); err != nil || !d.Equal(now) {
		t.Errorf("unset: %v, %v", d, err)
	}
	if d, err := manDate(env("1767225600"), now); err != nil || d.Format("Jan 2006") != "Jan 2026" {
		t.Errorf("epoch: %v, %v", d, err)
	}
	if _, err := manDate(env("yesterday"), now); err == nil || !strings.Contains(err.Error(), "SOURCE_DATE_EPOCH") {
		t.Errorf("bad epoch: %v", err)
	}
}
