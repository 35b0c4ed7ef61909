package sessions

import (
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"time"
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

// TestResolve_MaxNameSame: a result read keeping only as much of each
// block's start as RecallOptions.MaxName needs, or read against the
// entries as it is read (RecallOptions.Entries: its text compared, not
// hashed), resolves as one read keeping maxHead bytes and resolved later, on random results of blocks whose names hold
// newlines, are gone, are longer than any entry's, or whose content holds
// the separator, against random entries.
func TestResolve_MaxNameSame(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 9))
	words := []string{"a", "deploy", "x y", "two\nlines", strings.Repeat("n", 40), "## b", "---"}
	word := func() string { return words[r.IntN(len(words))] }
	line := func() string {
		var b strings.Builder
		for range 1 + r.IntN(3) {
			b.WriteString(word())
		}
		return b.String()
	}
	for range 3000 {
		known := map[string]string{}
		longest := 0
		var blocks []string
		for range 1 + r.IntN(4) {
			name := line()
			var body strings.Builder
			for range r.IntN(4) {
				body.WriteString(line())
				body.WriteByte('\n')
			}
			if r.IntN(5) == 0 {
				body.WriteString("\n---\n## " + line())
			}
			content := body.String()
			if r.IntN(4) > 0 {
				known[name] = content
				if r.IntN(4) == 0 {
					known[name] = content + "changed"
				}
				longest = max(longest, len(name))
			}
			blocks = append(blocks, "## "+name+"\n"+content)
		}
		text := strings.Join(blocks, "\n---\n")
		lookup := func(n string) (string, bool) { c, ok := known[n]; return c, ok }
		read := func(maxName int, inline bool) Recall {
			b := NewRecallBuilder("s", "crab", 5, time.Time{})
			b.maxName = maxName
			if inline {
				b.known = lookup
			}
			call, _ := json.Marshal(map[string]any{"message": map[string]any{"role": "assistant", "content": []any{
				map[string]any{"type": "tool_use", "id": "c", "name": "recall", "input": map[string]any{"query": "q"}}}}})
			res, _ := json.Marshal(map[string]any{"message": map[string]any{"role": "user", "content": []any{
				map[string]any{"type": "tool_result", "tool_use_id": "c", "content": text}}}})
			b.Add(call, nil)
			b.Add(res, nil)
			rc := b.Finish().Recalls[0]
			rc.Resolve(lookup)
			return rc
		}
		want := read(0, false)
		for _, inline := range []bool{false, true} {
			got := read(longest, inline)
			if !reflect.DeepEqual(got.Names, want.Names) || got.Result != want.Result {
				t.Fatalf("%q, longest %d, as read %v: %q %s, with maxHead %q %s", text, longest, inline, got.Names, got.Result, want.Names, want.Result)
			}
		}
		if got := read(0, true); !reflect.DeepEqual(got.Names, want.Names) || got.Result != want.Result {
			t.Fatalf("%q, as read: %q %s, later %q %s", text, got.Names, got.Result, want.Names, want.Result)
		}
	}
}
