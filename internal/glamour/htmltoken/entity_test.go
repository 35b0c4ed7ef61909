package htmltoken

import (
	"strings"
	"testing"

	"golang.org/x/net/html"
)

// TestEntities_MatchUpstream tokenizes every entity of both tables with
// this package and upstream's, in text and in an attribute value, alone
// and followed by the characters that change how a name without its
// semicolon is read.
func TestEntities_MatchUpstream(t *testing.T) {
	names := make([]string, 0, len(entity())+len(entity2()))
	for name := range entity() {
		names = append(names, name)
	}
	for name := range entity2() {
		names = append(names, name)
	}
	if len(names) < 2000 {
		t.Fatalf("%d entities: the tables lost entries", len(names))
	}
	var b strings.Builder
	for _, name := range names {
		for _, tail := range []string{"", "x", "=", ";", " "} {
			ref := "&" + name + tail
			b.WriteString(ref + "<a title=\"" + ref + "\" alt=" + ref + ">\n")
		}
	}
	in := b.String()
	var got, want []string
	for z := NewTokenizer(strings.NewReader(in)); z.Next() != ErrorToken; {
		got = append(got, z.Token().String())
	}
	for z := html.NewTokenizer(strings.NewReader(in)); z.Next() != html.ErrorToken; {
		want = append(want, z.Token().String())
	}
	if len(got) != len(want) {
		t.Fatalf("%d tokens, upstream %d", len(got), len(want))
	}
	for i := range got {
		if got[i] != want[i] {
			t.Errorf("token %d: %q, upstream %q", i, got[i], want[i])
		}
	}
}
