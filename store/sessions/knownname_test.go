package sessions

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// TestKnownName_AsByteLoop: knownName, which finds the line ends a word at
// a time, takes the name a byte-by-byte walk of every line end takes (the
// longest known prefix ending at a line end or at the head's end), on
// random heads of short lines, empty lines and newlines at either end.
func TestKnownName_AsByteLoop(t *testing.T) {
	byteLoop := func(head string, known func(string) (string, bool)) (name, content string, ok bool) {
		for i := 1; i <= len(head); i++ {
			if i < len(head) && head[i] != '\n' {
				continue
			}
			if c, found := known(head[:i]); found {
				name, content, ok = head[:i], c, true
			}
		}
		return name, content, ok
	}
	r := rand.New(rand.NewPCG(11, 3))
	for range 5000 {
		var b strings.Builder
		for range r.IntN(6) {
			if r.IntN(4) > 0 {
				b.WriteString([]string{"a", "bc", "deploy", "x y"}[r.IntN(4)])
			}
			b.WriteByte('\n')
		}
		if r.IntN(2) == 0 {
			b.WriteString("tail")
		}
		head := b.String()
		set := map[string]string{}
		for i := 0; i <= len(head); i++ {
			if r.IntN(3) == 0 {
				set[head[:i]] = "content of " + head[:i]
			}
		}
		known := func(n string) (string, bool) { c, ok := set[n]; return c, ok }
		gn, gc, gok := knownName(head, known)
		wn, wc, wok := byteLoop(head, known)
		if gn != wn || gc != wc || gok != wok {
			t.Fatalf("%q: (%q, %q, %v), byte loop (%q, %q, %v)", head, gn, gc, gok, wn, wc, wok)
		}
	}
}
