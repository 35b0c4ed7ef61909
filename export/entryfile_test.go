package export_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/crmem/crmem/export"
	"github.com/crmem/crmem/store"
)

func TestParseEntry(t *testing.T) {
	now := uint64(fixedNow.Unix())
	meta := func(inner string) string {
		return "<div id=\"meta\">\n<dl>\n" + inner + "</dl>\n</div>\n"
	}
	created := "  <dt>Created</dt>\n  <dd><time datetime=\"2020-01-01T00:00:00Z\">x</time></dd>\n"
	tests := []struct {
		name, in string
		content  string
		aliases  []string
		created  uint64
	}{
		{"plain", "hello\n\n", "hello", nil, now},
		{"plain keeps leading space", "  indented\n", "  indented", nil, now},
		{"bom plain", "\uFEFFhi\n", "hi", nil, now},
		{"meta", meta(created) + "\nbody\n", "body", nil, 1577836800},
		{"meta without blank line", meta(created) + "body", "body", nil, 1577836800},
		{"meta with bom", "\uFEFF" + meta(created) + "\nbody", "body", nil, 1577836800},
		{"crlf", strings.ReplaceAll(meta(created)+"\nbody\n", "\n", "\r\n"), "body", nil, 1577836800},
		{"offset time", meta(`<time datetime="2026-03-01T12:30:00+02:00">`), "", nil, 1772361000},
		{"bad date", meta(`<time datetime="not-a-date">`) + "x", "x", nil, now},
		{"before 1970", meta(`<time datetime="1969-12-31T23:59:59Z">`) + "x", "x", nil, now},
		{"unclosed meta", "<div id=\"meta\">\nno close\nhello\n", "<div id=\"meta\">\nno close\nhello", nil, now},
		{"meta not at start", "x\n" + meta(created), "x\n" + strings.TrimSpace(meta(created)), nil, now},
		{"aliases one line", meta("<dt>Aliases</dt><dd><ul><li>a</li><li> b </li></ul></dd>") + "c", "c", []string{"a", "b"}, now},
		{"aliases escaped", meta("<dt>Aliases</dt><dd><ul><li>a&lt;b&gt;</li><li>x&amp;y</li><li>&amp;lt;</li></ul></dd>"), "", []string{"a<b>", "x&y", "&lt;"}, now},
		{"aliases row ends at next dt", meta("<dt>Aliases</dt><dd><ul><li>a</li></ul></dd><dt>Other</dt><dd><li>no</li></dd>"), "", []string{"a"}, now},
		{"unclosed li", meta("<dt>Aliases</dt><dd><ul><li>a</li><li>b</ul></dd>"), "", []string{"a"}, now},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, err := export.ParseEntry("n", []byte(tt.in), fixedNow)
			if err != nil {
				t.Fatal(err)
			}
			if e.Name != "n" || e.Content != tt.content || !slices.Equal(e.Aliases, tt.aliases) || e.CreatedAt != tt.created {
				t.Errorf("got %+v, want content %q aliases %q created %d", e, tt.content, tt.aliases, tt.created)
			}
		})
	}
}

func TestParseEntry_InvalidUTF8(t *testing.T) {
	if _, err := export.ParseEntry("n", []byte("a\xffb"), fixedNow); err == nil {
		t.Fatal("no error")
	}
}

func TestFormatEntry_RoundTrip(t *testing.T) {
	tests := []struct {
		name  string
		in    store.Entry
		wantC string // content after the round trip
	}{
		{"simple", store.Entry{Name: "a", CreatedAt: 1767265200, Content: "x"}, "x"},
		{"empty", store.Entry{Name: "a", CreatedAt: 1, Content: ""}, ""},
		{"markup aliases", store.Entry{Name: "a", CreatedAt: 1, Aliases: []string{"a<b", "x&y", "<tag>", "&amp;"}, Content: "c"}, "c"},
		{"leading newlines", store.Entry{Name: "a", CreatedAt: 1, Content: "\n\n# T\n\nbody\n"}, "# T\n\nbody"},
		{"content looks like meta", store.Entry{Name: "a", CreatedAt: 1, Content: "<div id=\"meta\">\n</div>\nx"}, "<div id=\"meta\">\n</div>\nx"},
		{"unicode", store.Entry{Name: "螃蟹", CreatedAt: 1767319200, Aliases: []string{"カニ"}, Content: "crabs 🦀"}, "crabs 🦀"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			text := export.FormatEntry(tt.in)
			if !strings.HasSuffix(string(text), "\n") {
				t.Errorf("no final newline: %q", text)
			}
			got, err := export.ParseEntry(tt.in.Name, text, fixedNow)
			if err != nil {
				t.Fatal(err)
			}
			if got.Content != tt.wantC || got.CreatedAt != tt.in.CreatedAt || !slices.Equal(got.Aliases, tt.in.Aliases) {
				t.Errorf("round trip of %+v gave %+v", tt.in, got)
			}
			again := export.FormatEntry(got)
			if tt.in.Content == tt.wantC && string(again) != string(text) {
				t.Errorf("second format differs:\n%q\n%q", again, text)
			}
		})
	}
}

func TestFormatEntry_Layout(t *testing.T) {
	e := store.Entry{Name: "a", CreatedAt: 1767265200, Aliases: []string{"x&y"}, Content: "body"}
	want := "<div id=\"meta\">\n<dl>\n  <dt>Created</dt>\n" +
		"  <dd><time datetime=\"2026-01-01T11:00:00Z\">2026-01-01T11:00:00Z</time></dd>\n" +
		"  <dt>Aliases</dt>\n  <dd>\n    <ul>\n      <li>x&amp;y</li>\n    </ul>\n  </dd>\n" +
		"</dl>\n</div>\n\nbody\n"
	if got := string(export.FormatEntry(e)); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	empty := string(export.FormatEntry(store.Entry{CreatedAt: 0}))
	if !strings.HasSuffix(empty, "</div>\n\n") || !strings.Contains(empty, "1970-01-01T00:00:00Z") {
		t.Errorf("empty entry: %q", empty)
	}
	huge := string(export.FormatEntry(store.Entry{CreatedAt: 0x1122334455667788}))
	if !strings.Contains(huge, `datetime="1970-01-01T00:00:00Z"`) {
		t.Errorf("out-of-range time not written as the epoch: %q", huge)
	}
}
