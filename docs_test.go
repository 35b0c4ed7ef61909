package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"
)

// docLink finds a markdown link or image's target: [text](target) or
// ![alt](target), a target without spaces (an optional "title" after it).
var docLink = regexp.MustCompile(`\]\(([^)\s]+)(?:\s+"[^"]*")?\)`)

// docPages are README.md and the pages under docs/, by path from the root.
func docPages(t *testing.T) []string {
	t.Helper()
	pages, err := filepath.Glob(filepath.Join("docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	return append([]string{"README.md"}, pages...)
}

// headingAnchor is the anchor GitHub gives a heading: lowercased, every
// character but letters, digits, spaces, hyphens and underscores dropped,
// spaces made hyphens.
func headingAnchor(h string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(h) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

// unfenced is md with its fenced code blocks blanked (their lines kept
// empty, so line numbers stay).
func unfenced(md string) string {
	var b strings.Builder
	fenced := false
	for line := range strings.Lines(md) {
		if strings.HasPrefix(line, "```") {
			fenced = !fenced
			b.WriteString("\n")
			continue
		}
		if fenced {
			b.WriteString("\n")
			continue
		}
		b.WriteString(line)
	}
	return b.String()
}

// prose is md without its fenced code blocks and code spans, where a
// "](" is text, not a link.
func prose(md string) string {
	var b strings.Builder
	for line := range strings.Lines(unfenced(md)) {
		// A code span is dropped whole; an unpaired backquote keeps the rest.
		parts := strings.Split(line, "`")
		for i, p := range parts {
			if i%2 == 0 || i == len(parts)-1 {
				b.WriteString(p)
			}
		}
	}
	return b.String()
}

// anchors are the anchors of md's headings (a repeated heading's second
// anchor ends in -1, as on GitHub; a code span's text is part of it).
func anchors(md string) map[string]bool {
	out := map[string]bool{}
	for line := range strings.Lines(unfenced(md)) {
		line = strings.TrimRight(line, "\n")
		h := strings.TrimLeft(line, "#")
		if h == line || !strings.HasPrefix(h, " ") {
			continue
		}
		a := headingAnchor(strings.TrimSpace(h))
		for n, try := 1, a; ; n++ {
			if !out[try] {
				out[try] = true
				break
			}
			try = fmt.Sprintf("%s-%d", a, n)
		}
	}
	return out
}

// brokenLinks are the relative links of the page at path (text md) that
// lead to no file, or to no heading of the page they name.
func brokenLinks(path, md string, read func(string) (string, error)) []string {
	var out []string
	for _, m := range docLink.FindAllStringSubmatch(prose(md), -1) {
		target := m[1]
		if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
			continue
		}
		file, anchor, _ := strings.Cut(target, "#")
		linked := md
		if file != "" {
			file = filepath.Join(filepath.Dir(path), filepath.FromSlash(file))
			text, err := read(file)
			if err != nil {
				out = append(out, fmt.Sprintf("%s: %s: %v", path, target, err))
				continue
			}
			linked = text
		}
		if anchor != "" && !anchors(linked)[anchor] {
			out = append(out, fmt.Sprintf("%s: %s: no heading has the anchor #%s", path, target, anchor))
		}
	}
	return out
}

// TestDocs_LinksResolve: every relative link of README.md and the pages
// under docs/ leads to a file that exists and, with a #anchor, to one of
// its headings (as GitHub makes anchors), so moving text between the
// pages cannot leave a link behind.
func TestDocs_LinksResolve(t *testing.T) {
	read := func(path string) (string, error) {
		if !strings.HasSuffix(path, ".md") {
			_, err := os.Stat(path)
			return "", err
		}
		b, err := os.ReadFile(path)
		return string(b), err
	}
	links := 0
	for _, p := range docPages(t) {
		md, err := read(p)
		if err != nil {
			t.Fatal(err)
		}
		links += len(docLink.FindAllString(prose(md), -1))
		for _, b := range brokenLinks(p, md, read) {
			t.Error(b)
		}
	}
	if links < 20 {
		t.Errorf("found only %d links in README.md and docs/: is the parsing broken?", links)
	}
}

// TestDocs_BrokenLinkFound: a link to a missing file, a missing heading
// or a heading of the wrong page is told apart from good ones, and code
// is not taken for links.
func TestDocs_BrokenLinkFound(t *testing.T) {
	files := map[string]string{
		"README.md":         "# crmem\n\n## The two commands that matter\n\n![x](docs/screen.png) [a](docs/a.md#json-output)\n",
		"docs/a.md":         "# A\n\n## JSON output\n\n## crabtalk's store (`store.crmem`)\n\n## JSON output\n",
		"docs/screen.png":   "",
		"docs/ARCHITECTURE": "",
	}
	read := func(path string) (string, error) {
		s, ok := files[filepath.ToSlash(path)]
		if !ok {
			return "", os.ErrNotExist
		}
		return s, nil
	}
	for _, c := range []struct {
		md   string
		want int
	}{
		{"[ok](#the-two-commands-that-matter) [ok](docs/a.md) [ok](docs/a.md#crabtalks-store-storecrmem) [ok](docs/a.md#json-output-1)", 0},
		{"[web](https://example.com/x.md#nowhere) `[code](nowhere.md)`\n```\n[code](nowhere.md)\n```\n", 0},
		{"[gone](docs/b.md)", 1},
		{"[no heading](docs/a.md#configuration)", 1},
		{"[wrong page](#json-output)", 1},
		{"[moved](#the-two-commands-that-matter) [moved](README.md#the-two-commands-that-matter)", 0},
	} {
		md := files["README.md"] + c.md + "\n"
		if got := brokenLinks("README.md", md, read); len(got) != c.want {
			t.Errorf("%q: broken %q, want %d", c.md, got, c.want)
		}
	}
}
