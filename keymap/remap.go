package keymap

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"charm.land/bubbles/v2/key"
)

// binding is a binding's configured keys and help label, kept so that modes
// can narrow a binding and restore it.
type binding struct {
	keys     []string
	label    string
	defKeys  []string // the built-in keys
	defLabel string   // the built-in label ("q" for q and ctrl+c)
	desc     string   // what the binding does, for the help
}

// bindingType is key.Binding's type, to find the bindings among KeyMap's
// fields.
var bindingType = reflect.TypeFor[key.Binding]()

// Names returns the snake_case name of every binding (the names the
// configuration's [keys] table uses), in declaration order.
func Names() []string { return slices.Clone(bindingNames()) }

// bindingNames are the names of KeyMap's binding fields, in declaration
// order (the type's, worked out once: every command builds a key map).
var bindingNames = sync.OnceValue(func() []string {
	t := reflect.TypeFor[KeyMap]()
	names := make([]string, 0, len(bindingFields()))
	for _, i := range bindingFields() {
		names = append(names, snakeCase(t.Field(i).Name))
	}
	return names
})

// bindingByName maps each binding's name to its field's index.
var bindingByName = sync.OnceValue(func() map[string]int {
	m := make(map[string]int, len(bindingFields()))
	for j, i := range bindingFields() {
		m[bindingNames()[j]] = i
	}
	return m
})

// snakeCase turns a Go field name into its configuration name:
// DeleteMarked → delete_marked.
func snakeCase(s string) string {
	var b strings.Builder
	for i, r := range s {
		if unicode.IsUpper(r) {
			if i > 0 {
				b.WriteByte('_')
			}
			r = unicode.ToLower(r)
		}
		b.WriteRune(r)
	}
	return b.String()
}

// bindingFields are the indexes of KeyMap's binding fields.
var bindingFields = sync.OnceValue(func() []int {
	t := reflect.TypeFor[KeyMap]()
	var out []int
	for i := range t.NumField() {
		if f := t.Field(i); f.IsExported() && f.Type == bindingType {
			out = append(out, i)
		}
	}
	return out
})

// all points at every configurable binding.
func (k *KeyMap) all() []*key.Binding {
	v := reflect.ValueOf(k).Elem()
	out := make([]*key.Binding, 0, len(bindingFields()))
	for _, i := range bindingFields() {
		out = append(out, v.Field(i).Addr().Interface().(*key.Binding))
	}
	return out
}

// Lookup returns the binding with the given snake_case name.
func (k *KeyMap) Lookup(name string) (*key.Binding, bool) {
	i, ok := bindingByName()[name]
	if !ok {
		return nil, false
	}
	return reflect.ValueOf(k).Elem().Field(i).Addr().Interface().(*key.Binding), true
}

// Configured reports whether k was built by DefaultKeyMap (a zero KeyMap
// was not).
func (k KeyMap) Configured() bool { return k.base != nil }

// recordBase remembers every binding's keys and label as both the default
// and the configured state.
func (k *KeyMap) recordBase() {
	k.base = map[string]binding{}
	for _, name := range bindingNames() {
		b, _ := k.Lookup(name)
		keys := slices.Clone(b.Keys())
		k.base[name] = binding{keys: keys, label: b.Help().Key, defKeys: keys, defLabel: b.Help().Key, desc: b.Help().Desc}
	}
}

// Remap replaces the keys of the binding called name; no keys disables it.
// The help label follows: the built-in label when the keys are the
// built-in ones, the keys themselves otherwise.
func (k *KeyMap) Remap(name string, keys []string) error {
	b, ok := k.Lookup(name)
	if !ok {
		return fmt.Errorf("unknown key binding %q", name)
	}
	for _, s := range keys {
		if err := CheckKey(s); err != nil {
			return err
		}
		if s == InterruptKey && name != "quit" {
			return fmt.Errorf("%s always quits and cannot be bound to %s", InterruptKey, name)
		}
	}
	if typingBindings[name] && len(keys) > 0 && !slices.ContainsFunc(keys, func(s string) bool { return !printable(s) }) {
		return fmt.Errorf("%s acts while you type (prompts, the search line), where %s types a character: bind a key that types nothing (enter, esc, tab, ctrl+…)",
			name, Label(keys))
	}
	base := k.base[name]
	base.keys = slices.Clone(keys)
	base.label = Label(keys)
	if slices.Equal(keys, base.defKeys) {
		base.label = base.defLabel
	}
	k.base = cloneBase(k.base) // copies of the map share it: remap a private one
	k.base[name] = base
	setKeys(b, base.keys, base.label)
	return nil
}

// typingBindings end a prompt or the search line, where printable keys are
// text: bound only to printable keys, they would never act, and a prompt
// could neither be accepted nor cancelled.
var typingBindings = map[string]bool{"accept": true, "cancel": true, "search_accept": true, "search_cancel": true}

// cloneBase copies the configured state, so a remapped KeyMap never changes
// a copy made before.
func cloneBase(m map[string]binding) map[string]binding {
	out := make(map[string]binding, len(m))
	for n, b := range m {
		out[n] = b
	}
	return out
}

// setKeys sets a binding's keys (none: it matches nothing and is hidden
// from the help) and label.
func setKeys(b *key.Binding, keys []string, label string) {
	if len(keys) == 0 {
		b.SetKeys()
		b.Unbind()
		return
	}
	b.SetKeys(keys...)
	b.SetHelp(label, b.Help().Desc)
}

// typed narrows a binding while the search line has the keyboard: its
// printable keys are letters of the query, so only the others stay.
func (k *KeyMap) typed(b *key.Binding, name string, typing bool) {
	base := k.base[name]
	desc := base.desc
	keys, label := base.keys, base.label
	if typing {
		keys = slices.DeleteFunc(slices.Clone(keys), printable)
		if len(keys) != len(base.keys) {
			label = Label(keys)
		}
	}
	setKeys(b, keys, label)
	if len(keys) > 0 {
		b.SetHelp(label, desc)
	}
}

// CloseHelpLabel names the keys that close the help screen as configured:
// quit's, cancel's and help's ("q/esc/?" by default, "Q/esc/H" when
// remapped).
func (k KeyMap) CloseHelpLabel() string {
	var parts []string
	for _, l := range []string{k.closeQuitLabel(), k.base["cancel"].label} {
		if l != "" {
			parts = append(parts, l)
		}
	}
	if l := k.base["help"].label; l != "" {
		parts = append(parts, l)
	}
	return strings.Join(parts, "/")
}

// closeQuitLabel is quit's label as configured, without ctrl+c (which
// quits from an overlay rather than closing it).
func (k KeyMap) closeQuitLabel() string {
	b := k.base["quit"]
	if !slices.Contains(b.keys, InterruptKey) {
		return b.label
	}
	if slices.Equal(b.keys, b.defKeys) {
		return b.defLabel
	}
	return Label(slices.DeleteFunc(slices.Clone(b.keys), func(s string) bool { return s == InterruptKey }))
}

// ScrollLabel names the keys that scroll a long overlay: up's and down's
// as configured ("↑/k ↓/j" by default).
func (k KeyMap) ScrollLabel() string {
	return strings.TrimSpace(k.base["up"].label + " " + k.base["down"].label)
}

// printable reports whether a key types a character into a text field.
func printable(s string) bool {
	return utf8.RuneCountInString(s) == 1 || s == "space"
}

// keyGlyphs are how the help shows some keys.
var keyGlyphs = map[string]string{"up": "↑", "down": "↓", "left": "←", "right": "→", "pgdown": "pgdn"}

// Label is the help label for keys: "↑/k", "ctrl+s".
func Label(keys []string) string {
	out := make([]string, len(keys))
	for i, s := range keys {
		out[i] = s
		if g, ok := keyGlyphs[s]; ok {
			out[i] = g
		}
	}
	return strings.Join(out, "/")
}

// namedKeys are the keys Bubble Tea names (as a KeyPressMsg's String).
var namedKeys = map[string]bool{
	"up": true, "down": true, "left": true, "right": true, "home": true, "end": true,
	"pgup": true, "pgdown": true, "tab": true, "enter": true, "esc": true, "backspace": true,
	"delete": true, "insert": true, "space": true,
}

// modifiers may prefix a key, in Bubble Tea's order.
var modifiers = []string{"ctrl+", "alt+", "shift+", "meta+", "hyper+", "super+"}

// CheckKey accepts a key as Bubble Tea names a key press (Key.String): one
// character, or a named key (enter, pgdown, f1…f35), optionally after
// modifiers (ctrl+alt+x). A name no press can ever have is refused, saying
// what to write instead: a modifier twice (ctrl+ctrl+s) or out of Bubble
// Tea's order (alt+ctrl+x is written ctrl+alt+x), shift with a character
// alone (shift+z is the press of "Z"), a function key past f35 (kitty's
// protocol stops there; terminals without it stop at f20).
func CheckKey(s string) error {
	rest, last := s, -1
	for {
		i := slices.IndexFunc(modifiers, func(m string) bool { return strings.HasPrefix(rest, m) && len(rest) > len(m) })
		if i < 0 {
			break
		}
		switch {
		case i == last:
			return fmt.Errorf("key %q names %s twice", s, strings.TrimSuffix(modifiers[i], "+"))
		case i < last:
			return fmt.Errorf("key %q is never pressed as written: write its modifiers in the order %s (%q)", s, modifierOrder(), canonical(s))
		}
		rest, last = rest[len(modifiers[i]):], i
	}
	char := utf8.RuneCountInString(rest) == 1 && unicode.IsPrint([]rune(rest)[0]) && rest != " "
	switch {
	case char && s == "shift+"+rest:
		return fmt.Errorf("key %q is never pressed as written: shift with a character is the character it types (%q)", s, strings.ToUpper(rest))
	case char, namedKeys[rest], functionKey(rest):
		return nil
	}
	return fmt.Errorf("unknown key %q (want one character, or ctrl+x, alt+x, enter, esc, tab, space, backspace, up, down, left, right, home, end, pgup, pgdown, f1…f35)", s)
}

// modifierOrder is "ctrl, alt, shift, meta, hyper, super".
func modifierOrder() string {
	names := make([]string, len(modifiers))
	for i, m := range modifiers {
		names[i] = strings.TrimSuffix(m, "+")
	}
	return strings.Join(names, ", ")
}

// canonical is s with its modifiers in Bubble Tea's order.
func canonical(s string) string {
	rest, have := s, map[string]bool{}
	for {
		i := slices.IndexFunc(modifiers, func(m string) bool { return strings.HasPrefix(rest, m) && len(rest) > len(m) })
		if i < 0 {
			break
		}
		have[modifiers[i]], rest = true, rest[len(modifiers[i]):]
	}
	var b strings.Builder
	for _, m := range modifiers {
		if have[m] {
			b.WriteString(m)
		}
	}
	return b.String() + rest
}

// functionKey reports whether s is f1 … f35, the function keys a press can
// name (Bubble Tea knows f36…f63 only from terminfo, which it does not
// read).
func functionKey(s string) bool {
	var n int
	if _, err := fmt.Sscanf(s, "f%d", &n); err != nil {
		return false
	}
	return n >= 1 && n <= 35 && s == fmt.Sprintf("f%d", n)
}

// Conflict is one key bound to two actions that are active together.
type Conflict struct {
	Key   string
	Pane  string // "list", "preview", "search line" or "help"
	Names [2]string
}

// panes are what Conflicts checks: each pane's name in messages and how
// its keys are enabled, as when editing is wired and a query is active.
var panes = []struct {
	name string
	set  func(k *KeyMap)
}{
	{"list", func(k *KeyMap) { k.Pane(false, k.ListKeys(true, true)...) }},
	{"preview", func(k *KeyMap) { k.Pane(false, k.PreviewKeys(true)...) }},
	{"search line", func(k *KeyMap) { k.Pane(true, k.SearchLineKeys()...) }},
	{"help", func(k *KeyMap) { k.Only(false, k.HelpScreenKeys()...) }},
	{"reload log", func(k *KeyMap) { k.Only(false, k.LogKeys()...) }},
	{"prompts", func(k *KeyMap) { k.Only(true, k.PromptKeys()...) }},
	{"questions", func(k *KeyMap) { k.Only(false, k.QuestionKeys()...) }},
	{"choices", func(k *KeyMap) { k.Only(false, k.ChoiceKeys()...) }},
	{"history", func(k *KeyMap) { k.Only(false, k.HistoryKeys()...) }},
}

// Conflicts returns every key that two enabled bindings share in one pane,
// with every binding enabled as it is when editing is wired and a query is
// active.
func (k KeyMap) Conflicts() []Conflict {
	var out []Conflict
	for _, p := range panes {
		c := k
		p.set(&c)
		owner := map[string]string{}
		for _, name := range Names() {
			b, _ := c.Lookup(name)
			if !b.Enabled() {
				continue
			}
			for _, s := range b.Keys() {
				if prev, ok := owner[s]; ok && prev != name {
					out = append(out, Conflict{Key: s, Pane: p.name, Names: [2]string{prev, name}})
					continue
				}
				owner[s] = name
			}
		}
	}
	return out
}
