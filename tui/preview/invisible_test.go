package preview

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// TestRender_InvisibleAndHTMLShown (issue 17, item 11): the preview shows
// zero-width and format characters as dim markers and raw HTML as the text
// it is (the renderer ate it, though search ranks the entry for it), while
// an emoji joined by ZWJ and a combining accent render as themselves.
func TestRender_InvisibleAndHTMLShown(t *testing.T) {
	md := "zero\u200bwidth join\u200der bom\ufeff\n\n" +
		"run <script>alert(1)</script> now\n\n" +
		"<img src=x onerror=\"alert(1)\">\n\n" +
		"<details>\n<summary>more</summary>\nhidden text\n</details>\n\n" +
		"dev \U0001F469\u200d\U0001F4BB café\n"
	for _, style := range []string{"notty", "dark"} {
		raw := renderMarkdown(&renderers{}, RenderKey{width: 70, style: style}, md)
		out := ansi.Strip(raw)
		flat := strings.Join(strings.Fields(out), " ")
		for _, want := range []string{
			"zero⟨U+200B⟩width", "join⟨U+200D⟩er", "bom⟨U+FEFF⟩",
			"run <script>alert(1)</script> now",
			`<img src=x onerror="alert(1)">`,
			"<details>", "<summary>more</summary>", "hidden text", "</details>",
			"dev \U0001F469\u200d\U0001F4BB café",
		} {
			if !strings.Contains(flat, want) {
				t.Errorf("%s: the preview lacks %q:\n%s", style, want, out)
			}
		}
		if strings.ContainsAny(out, "\u200b\ufeff") {
			t.Errorf("%s: an invisible character reaches the screen raw: %q", style, out)
		}
		if dim := strings.Contains(raw, "\x1b[2m⟨U+200B⟩\x1b[22m"); dim != (style != "notty") {
			t.Errorf("%s: marker dim = %v", style, dim)
		}
	}
}
