package glamour_test

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/crmem/crmem/internal/glamour"
)

// docs exercise every element the renderer draws.
var docs = map[string]string{
	"headings":  "# One\n\n## Two\n\n### Three\n\n#### Four\n\n##### Five\n\n###### Six\n\ntext under it",
	"inline":    "Some *emphasis*, **strong**, ~~struck~~, `code span`, a [link](https://example.com) and an ![image](x.png), https://autolink.example.org/x and owner/repo#12.",
	"lists":     "- one\n- two\n  - nested\n    - deeper\n- three\n\n1. first\n2. second\n\n- [x] done\n- [ ] to do",
	"quote":     "> quoted\n> more\n>\n> > nested quote",
	"table":     "| name | value | note |\n|:-----|------:|:----:|\n| a | 1 | left |\n| bb | 22 | [l](https://x.org) |",
	"rule":      "above\n\n---\n\nbelow",
	"defs":      "Term\n: its definition",
	"wrap":      "A paragraph long enough to be wrapped at the narrower of the widths this test renders at, and then some more words to be sure.",
	"entities":  "&amp; &lt; &copy; &#65;",
	"footnotes": "text[^1]\n\n[^1]: the note",
	"emoji":     "shortcodes stay text :smile: :+1: 🦀", // no WithEmoji: neither renderer turns them into emoji
	"github":    "[issue](https://github.com/a/b/issues/12), https://github.com/a/b/pull/3#discussion_r5 and https://github.com/a/b/commit/abcdef1234\n\n| l |\n|---|\n| [c](https://github.com/a/b/commit/abcdef1234) |",
}

// codeDocs hold code blocks: upstream highlights them with chroma, this
// copy renders them in the code block's own style.
var codeDocs = map[string]string{
	"fenced":   "before\n\n```go\nfunc main() { fmt.Println(\"hi\") }\n```\n\nafter",
	"indented": "before\n\n    x := 1\n    y := 2\n\nafter",
	"bare":     "```\nplain text\n```",
}

// upstreamFile is what upstream renders of docs and codeDocs in every
// style, made by upstream_live_test.go from the upstream module (go test
// -tags upstream -run TestUpstreamRenderings ./internal/glamour -update),
// with the versions of the modules that made it. Rendering with the
// upstream module in every run compiled it, goldmark, chroma's lexers,
// bluemonday and x/net/html for this package alone: some 10 of the 210
// CPU-seconds of a fresh clone's go test ./..., for output that changes
// only with their versions, which TestUpstreamRenderings_OfGoMod keeps in
// step with go.mod. The tagged file also compares the copy with the
// upstream module directly (TestMatchesUpstream_Live), to see a
// difference whole.
const upstreamFile = "testdata/upstream.json"

// upstreamRenderings is upstreamFile's content, by upstreamKey.
type upstreamRenderings struct {
	Modules map[string]string `json:"modules"` // module path → the version go.mod required
	SHA256  map[string]string `json:"sha256"`  // a doc's rendering, hashed
	Text    map[string]string `json:"text"`    // a code doc's rendering without its SGR sequences
	SGRs    map[string]int    `json:"sgrs"`    // the distinct SGR sequences in a code doc's rendering
}

// upstreamModules are the modules whose versions upstream's renderings
// depend on: glamour, the goldmark it parses with, its emoji extension,
// chroma, which colours code blocks, and bluemonday, which sanitizes HTML.
var upstreamModules = []string{"charm.land/glamour/v2", "github.com/yuin/goldmark", "github.com/yuin/goldmark-emoji",
	"github.com/alecthomas/chroma/v2", "github.com/microcosm-cc/bluemonday"}

// upstreamKey names a rendering of one document in one style and width.
func upstreamKey(style string, width int, name string) string {
	return fmt.Sprintf("%s/%d/%s", style, width, name)
}

var readUpstream = sync.OnceValues(func() (upstreamRenderings, error) {
	var u upstreamRenderings
	data, err := os.ReadFile(upstreamFile)
	if err == nil {
		err = json.Unmarshal(data, &u)
	}
	return u, err
})

// upstream is upstreamFile's content; the test fails if it cannot be read.
func upstream(t *testing.T) upstreamRenderings {
	t.Helper()
	u, err := readUpstream()
	if err != nil {
		t.Fatal(err)
	}
	return u
}

// hashed is the hex SHA-256 of s.
func hashed(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

var sgr = regexp.MustCompile("\x1b\\[[0-9;]*m")

// distinctSGRs counts the distinct SGR sequences in s.
func distinctSGRs(s string) int {
	seen := map[string]bool{}
	for _, m := range sgr.FindAllString(s, -1) {
		seen[m] = true
	}
	return len(seen)
}

// goModRequires is the version go.mod requires of each module it names.
func goModRequires(t *testing.T) map[string]string {
	t.Helper()
	mod, err := os.ReadFile("../../go.mod")
	if err != nil {
		t.Fatal(err)
	}
	required := map[string]string{}
	for l := range strings.Lines(string(mod)) {
		if f := strings.Fields(strings.TrimPrefix(strings.TrimSpace(l), "require ")); len(f) >= 2 {
			required[f[0]] = f[1]
		}
	}
	return required
}

// TestUpstreamRenderings_OfGoMod: upstream's renderings were made with the
// versions go.mod requires of the modules that make them. After a bump,
// make them again (go test -tags upstream -run TestUpstreamRenderings
// ./internal/glamour -update): TestMatchesUpstream then compares the copy
// with the new release.
func TestUpstreamRenderings_OfGoMod(t *testing.T) {
	u, required := upstream(t), goModRequires(t)
	for _, m := range upstreamModules {
		if v := u.Modules[m]; v == "" || v != required[m] {
			t.Errorf("%s: made with %s %q; go.mod requires %q (go test -tags upstream -run TestUpstreamRenderings ./internal/glamour -update)", upstreamFile, m, v, required[m])
		}
	}
}

// ours renders md with the copy.
func ours(t *testing.T, style string, width int, md string) string {
	t.Helper()
	r, err := glamour.NewTermRenderer(glamour.WithStylePath(style), glamour.WithWordWrap(width))
	if err != nil {
		t.Fatal(err)
	}
	out, err := r.Render(md)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

var styleNames = []string{"dark", "light", "notty", "ascii", "dracula", "pink", "tokyo-night"}

// TestMatchesUpstream pins the copy to the glamour release it was taken
// from: byte for byte the same output (upstreamFile) for everything but
// code blocks and raw HTML (which crmem never renders: html_test.go).
func TestMatchesUpstream(t *testing.T) {
	u := upstream(t)
	for _, style := range styleNames {
		for _, width := range []int{24, 80} {
			for name, md := range docs {
				t.Run(upstreamKey(style, width, name), func(t *testing.T) {
					got := ours(t, style, width, md)
					if want, ok := u.SHA256[upstreamKey(style, width, name)]; !ok || hashed(got) != want {
						t.Errorf("output differs from upstream's (%s; go test -tags upstream -run TestMatchesUpstream_Live ./internal/glamour shows both)\nours: %q", upstreamFile, got)
					}
				})
			}
		}
	}
}

// TestCodeBlocksUnhighlighted: a code block shows the same text as
// upstream's, without chroma's token colours.
func TestCodeBlocksUnhighlighted(t *testing.T) {
	u := upstream(t)
	for _, style := range styleNames {
		for name, md := range codeDocs {
			t.Run(style+"/"+name, func(t *testing.T) {
				want, ok := u.Text[upstreamKey(style, 80, name)]
				if got := ansi.Strip(ours(t, style, 80, md)); !ok || got != want {
					t.Errorf("text differs from upstream\nours:   %q\ntheirs: %q", got, want)
				}
			})
		}
	}
}

// TestCodeBlocksOneStyle: where upstream colours a Go block token by token,
// the copy draws it in one style.
func TestCodeBlocksOneStyle(t *testing.T) {
	u := upstream(t)
	o, theirs := distinctSGRs(ours(t, "dark", 80, codeDocs["fenced"])), u.SGRs[upstreamKey("dark", 80, "fenced")]
	if o >= theirs {
		t.Errorf("%d distinct SGR sequences here, %d upstream: want fewer (no token colours)", o, theirs)
	}
}
