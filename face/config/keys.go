package config

import (
	"slices"
	"strings"

	"github.com/crmem/crmem/internal/humanize"
	"github.com/crmem/crmem/keymap"
)

// applyKeys applies the [keys] table: each binding, by its snake_case name,
// is one key, a list of keys, or false (disabled).
func (f fileLayer) applyKeys(v any) error {
	t, ok := v.(map[string]any)
	if !ok {
		return f.errorAt("keys", "keys must be a table ([keys]), not %s", typeName(v))
	}
	if !f.c.Keys.Configured() {
		f.c.Keys = keymap.DefaultKeyMap()
	}
	for _, name := range f.sortedKeys(t, "keys.") {
		keys, err := f.bindingKeys(name, t[name])
		if err != nil {
			return err
		}
		if err := f.c.Keys.Remap(name, keys); err != nil {
			return f.errorAt("keys."+name, "keys.%s: %v", name, err)
		}
		f.c.origins["keys."+name] = Source{Kind: FromFile, File: f.c.File, Line: f.lines["keys."+name]}
	}
	return nil
}

// bindingKeys reads one binding's value.
func (f fileLayer) bindingKeys(name string, v any) ([]string, error) {
	at := "keys." + name
	if !slices.Contains(keymap.Names(), name) {
		return nil, f.errorAt(at, "unknown key binding %q in [keys] (known: %s)", name, strings.Join(keymap.Names(), ", "))
	}
	const want = `a key ("ctrl+s"), a list of keys (["q", "ctrl+c"]) or false`
	switch v := v.(type) {
	case string:
		return []string{v}, nil
	case bool:
		if !v {
			return nil, nil
		}
	case []any:
		if len(v) > maxBindingKeys {
			return nil, f.errorAt(at, "keys.%s lists %s keys; a binding takes at most %d", name, humanize.Count(len(v)), maxBindingKeys)
		}
		keys := make([]string, 0, len(v))
		for _, e := range v {
			s, ok := e.(string)
			if !ok {
				return nil, f.errorAt(at, "keys.%s must be %s; the list holds %s", name, want, typeName(e))
			}
			keys = append(keys, s)
		}
		return keys, nil
	}
	return nil, f.errorAt(at, "keys.%s must be %s, not %s", name, want, describe(v))
}

// checkConflicts reports a key bound to two actions of one pane, at the
// line of the later of the two bindings the file set.
func (f fileLayer) checkConflicts() error {
	cs := f.c.Keys.Conflicts()
	if len(cs) == 0 {
		return nil
	}
	c := cs[0]
	at := ""
	for _, n := range c.Names {
		if f.c.origins["keys."+n].Kind == FromFile && f.lines["keys."+n] >= f.lines[at] {
			at = "keys." + n
		}
	}
	return f.errorAt(at, "key %q is bound to both %s and %s in the %s (one action per key in each pane)",
		c.Key, c.Names[0], c.Names[1], c.Pane)
}
