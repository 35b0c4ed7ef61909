package genlog

import (
	"bytes"
	"encoding/json"
	"strings"
)

// content is a new entry's text: 30 to 80 words in sentences, now and then
// a heading or a list item (about 200 to 500 bytes).
func (g *gen) content() string {
	var b strings.Builder
	n := 30 + g.rng.IntN(51)
	for i := range n {
		switch {
		case i == 0 && g.rng.IntN(4) == 0:
			b.WriteString("# ")
		case i > 0 && i%12 == 0:
			if g.rng.IntN(3) == 0 {
				b.WriteString(".\n- ")
			} else {
				b.WriteString(". ")
			}
		case i > 0:
			b.WriteByte(' ')
		}
		b.WriteString(words[g.rng.IntN(len(words))])
	}
	b.WriteByte('.')
	return b.String()
}

// edit is an upsert's new text: half the time a new text, else the old
// one with a few words replaced and perhaps a sentence added.
func (g *gen) edit(old string) string {
	if g.rng.IntN(2) == 0 || old == "" {
		return g.content()
	}
	ws := strings.Split(old, " ")
	for range 1 + g.rng.IntN(3) {
		i := g.rng.IntN(len(ws))
		if !strings.ContainsAny(ws[i], ".\n#-") {
			ws[i] = words[g.rng.IntN(len(words))]
		}
	}
	out := strings.Join(ws, " ")
	if g.rng.IntN(3) == 0 && len(out) < 1500 {
		out += " " + words[g.rng.IntN(len(words))] + " " + words[g.rng.IntN(len(words))] + " " + words[g.rng.IntN(len(words))] + "."
	}
	return out
}

// aliases is 0 to 3 aliases, now and then one with a space.
func (g *gen) aliases() []string {
	n := g.rng.IntN(4)
	out := make([]string, 0, n)
	for range n {
		a := words[g.rng.IntN(len(words))]
		if g.rng.IntN(5) == 0 {
			a += " " + words[g.rng.IntN(len(words))]
		}
		out = append(out, a)
	}
	return out
}

// nonNil is list, or an empty list for nil (so JSON says []).
func nonNil(list []string) []string {
	if list == nil {
		return []string{}
	}
	return list
}

// marshal is compact JSON without HTML escaping, as serde_json writes the
// texts generated here (no U+2028 or U+2029 occurs in them).
func marshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}
