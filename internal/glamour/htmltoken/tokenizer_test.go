package htmltoken_test

import (
	"io"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"

	"golang.org/x/net/html"

	"github.com/crmem/crmem/internal/glamour/htmltoken"
)

// tokenizerCases are inputs where a tokenizer can go wrong: entities with
// and without their semicolon, in text and in attributes, unterminated
// tags, comments, raw text and RCDATA elements, CDATA, doctypes, NUL
// bytes, carriage returns and invalid UTF-8.
var tokenizerCases = []string{
	"", "plain text", "a < b > c", "<", "<>", "</>", "</", "<!", "<?xml version=\"1.0\"?>x",
	// Entities.
	"&amp; &lt; &gt; &quot; &apos; &nbsp; &copy; &hellip;", "&amp &lt &gt &copy &nbsp x",
	"&ampx; &notit; &notin; &not &noti", "&frac12x &middotdot &brvbar3 &nbspx", "&bogus; &; & &# &#; &#x; &#xZ;",
	"&#65; &#x41; &#X41 &#0; &#128; &#x9F; &#xD800; &#x110000; &#99999999999;",
	"&NotEqualTilde; &nLt; &vsupne; &acE;", "&AMP; &Amp; &AElig &AElig; &aelig",
	"&CounterClockwiseContourIntegral; &ThisIsNotAnEntityButItIsLong;",
	// Entities in attributes.
	`<a href="?a=1&amp;b=2&copy=3&lt&gt;">x</a>`, `<a title='&amp &ampx &amp= &notin= &notin;='>`,
	`<img alt=&lt;b&gt; src=x&y>`, `<p data-x="&#65;&#x42;&#0;">`,
	// Tags and attributes.
	"<b>bold</b> <i>it</i> <BR/> <br / >", "<div class=x id='y' data-z=\"w\" bare>t</div>",
	`<a href="x" HREF="y" Href=z>dup</a>`, "<p a=1 b='2 c=\"3\">", "<a =x>", "<a b=>c",
	"unclosed <b>tag", "<b", "<b ", "<b a", "<b a=", "<b a=\"", "<b a='x", "</b", "</b x=1>",
	"</ b>", "< b>", "<3", "<b/c>", "<b/>text", "<b\x00>nul</b\x00>", "<a\tb\nc\rd\fe>",
	"<tïtle>u</tïtle>", "<ß>", "<p>a<p>b", "<a href=x/>",
	// Comments and doctypes.
	"<!-- comment -->after", "<!---->", "<!--->", "<!-->", "<!-- a -- b -->", "<!-- x --!>y",
	"<!-- unterminated", "<!--", "<!-x>", "<!DOCTYPE html>", "<!doctype HTML PUBLIC \"x\">",
	"<!DOCTYPE", "<!DOCTYPEhtml>", "<?php echo 1 ?>", "</!x>",
	// Raw text and RCDATA.
	"<script>alert('<b>'); if (a<b) x</script>after", "<SCRIPT>x</SCRIPT>y",
	"<script><!-- <script> </script> --></script>z", "<script>x</scriptx>y</script>",
	"<script>unterminated", "<script></script", "<script><!--", "<script><!--<script>",
	"<style>p{}</style><p>p</p>", "<style>a</style", "<textarea>&lt;b&gt; <b>t</b></textarea>",
	"<title>&amp; <i>t</i></title>after", "<title><title>nested</title> still </title>out",
	"<xmp><b></xmp>", "<iframe><b></iframe>", "<noembed>&amp;</noembed>", "<noframes>x</noframes>",
	"<plaintext><b>all</b></plaintext>", "<noscript><b></noscript>",
	// CDATA.
	"<![CDATA[x<y]]>after", "<![CDATA[unterminated", "<![CDATA[]]>", "<![cdata[x]]>", "<![CDATA",
	// Bytes that are not text.
	"a\x00b", "\x00", "<b>\x00</b>", "<script>\x00</script>", "<textarea>\x00</textarea>",
	"<!--\x00-->", "<![CDATA[a\x00b]]>", "<a href='\x00'>", "text\r\nwith\rreturns\r", "<a title=\"a\r\nb\">",
	"\xff\xfe", "<b\xff>x</b>", "<a href=\"\xc3\">", "&\xff;", "<!--\xc3-->", "<script>\xe2\x82</script>",
}

// token is one token as both packages see it: the type, the raw bytes,
// Token()'s fields and its String.
type token struct {
	Type, Raw, Data, String string
	Atom                    uint32
	Attr                    [][3]string
}

// stream is everything a tokenizer yields for an input: its tokens and
// the error that ended them.
type stream struct {
	Tokens []token
	Err    string
}

// modes are the ways the tests drive each tokenizer: as bluemonday does,
// with CDATA allowed, and fed one byte per read (which exercises the
// buffer's refills).
var modes = []struct {
	name   string
	cdata  bool
	reader func(string) io.Reader
}{
	{"default", false, func(s string) io.Reader { return strings.NewReader(s) }},
	{"cdata", true, func(s string) io.Reader { return strings.NewReader(s) }},
	{"onebyte", false, func(s string) io.Reader { return iotest.OneByteReader(strings.NewReader(s)) }},
}

// upstreamStream tokenizes r with golang.org/x/net/html.
func upstreamStream(r io.Reader, cdata bool) stream {
	z := html.NewTokenizer(r)
	z.AllowCDATA(cdata)
	var s stream
	for z.Next() != html.ErrorToken {
		raw := string(z.Raw())
		t := z.Token()
		tok := token{Type: t.Type.String(), Raw: raw, Data: t.Data, String: t.String(), Atom: uint32(t.DataAtom)}
		for _, a := range t.Attr {
			tok.Attr = append(tok.Attr, [3]string{a.Namespace, a.Key, a.Val})
		}
		s.Tokens = append(s.Tokens, tok)
	}
	s.Err = z.Err().Error()
	return s
}

// copyStream tokenizes r with this package.
func copyStream(r io.Reader, cdata bool) stream {
	z := htmltoken.NewTokenizer(r)
	z.AllowCDATA(cdata)
	var s stream
	for z.Next() != htmltoken.ErrorToken {
		raw := string(z.Raw())
		t := z.Token()
		tok := token{Type: t.Type.String(), Raw: raw, Data: t.Data, String: t.String(), Atom: uint32(t.DataAtom)}
		for _, a := range t.Attr {
			tok.Attr = append(tok.Attr, [3]string{a.Namespace, a.Key, a.Val})
		}
		s.Tokens = append(s.Tokens, tok)
	}
	s.Err = z.Err().Error()
	return s
}

// compareStreams fails t when the two tokenizers differ on in.
func compareStreams(t *testing.T, in string) {
	t.Helper()
	for _, m := range modes {
		got, want := copyStream(m.reader(in), m.cdata), upstreamStream(m.reader(in), m.cdata)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s %q:\n copy     %+v\n upstream %+v", m.name, in, got, want)
		}
	}
}

func TestTokenizer_MatchesUpstream(t *testing.T) {
	for _, in := range tokenizerCases {
		compareStreams(t, in)
	}
}

func FuzzTokenizer_MatchesUpstream(f *testing.F) {
	for _, in := range tokenizerCases {
		f.Add(in)
	}
	f.Fuzz(compareStreams)
}
