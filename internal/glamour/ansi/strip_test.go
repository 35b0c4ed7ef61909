package ansi

import (
	"testing"

	"github.com/microcosm-cc/bluemonday"
)

var stripCases = []string{
	"", "   ", "plain text", "a &amp; b &lt;c&gt; &copy; &#65; &bogus; \"q\" 'a'",
	"<b>bold</b> and <i>italic</i>", "<div>block <span class=x>html</span></div>",
	"<!DOCTYPE html><html><head><title>T</title></head><body>body</body></html>",
	"<!-- comment -->after", "<script>alert(1)</script>after <style>p{}</style>done",
	"<SCRIPT>x</SCRIPT>y", "<script><b>inner</b> text</script>z", "</title>stray end <title>t</title>after",
	"<title><title>nested</title> still </title>out", "<iframe src=x>in</iframe>out <object>o</object>",
	"<noscript>n</noscript><br/>self<img src=x />", "unclosed <b>tag", "<a href=\"x\">link</a>",
	"<b\x00>nul</b>", "text\r\nwith\rreturns", "<tïtle>u</tïtle>", "<p>a<p>b", "<", "a < b > c",
	"<style>a</style><p>p</p>", "</style>x<script>y",
}

func TestStripHTML_MatchesBluemonday(t *testing.T) {
	p := bluemonday.StrictPolicy()
	for _, s := range stripCases {
		if got, want := stripHTML(s), p.Sanitize(s); got != want {
			t.Errorf("stripHTML(%q) = %q, bluemonday %q", s, got, want)
		}
	}
}

func FuzzStripHTML(f *testing.F) {
	for _, s := range stripCases {
		f.Add(s)
	}
	p := bluemonday.StrictPolicy()
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := stripHTML(s), p.Sanitize(s); got != want {
			t.Errorf("stripHTML(%q) = %q, bluemonday %q", s, got, want)
		}
	})
}
