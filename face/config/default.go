package config

import (
	"fmt"
	"strings"

	"github.com/crmem/crmem/keymap"
)

// DefaultFile is a complete, commented config file holding every default:
// `crmem config --default > config.toml` starts a configuration from it.
func DefaultFile() string {
	var b strings.Builder
	b.WriteString("# crmem configuration (TOML). Every setting is shown with its default;\n")
	b.WriteString("# delete what you do not change. Layers: defaults → this file →\n")
	b.WriteString("# environment ($CRMEM_DB, $CRMEM_STYLE) → flags. `crmem config` shows\n")
	b.WriteString("# the effective values and where each came from.\n\n")
	table := ""
	for _, s := range settings {
		t, name, ok := strings.Cut(s.name, ".")
		if !ok {
			t, name = "", s.name
		}
		if t != table {
			fmt.Fprintf(&b, "\n[%s]\n", t)
			table = t
		}
		fmt.Fprintf(&b, "%-30s # %s\n", name+" = "+tomlValue(defaultValue(s)), s.comment)
	}
	b.WriteString("\n# Key bindings, by name: one key (\"ctrl+s\"), a list of keys\n")
	b.WriteString("# ([\"q\", \"ctrl+c\"]) or false to disable. Key names as in the ? help:\n")
	b.WriteString("# a character, ctrl+x, alt+x, enter, esc, tab, space, backspace, up,\n")
	b.WriteString("# down, left, right, home, end, pgup, pgdown, f1…f35. A key may serve\n")
	b.WriteString("# one action per pane. ctrl+c always quits, in every mode (dialogs,\n")
	b.WriteString("# prompts, the help, the search line): it cannot be unbound or given\n")
	b.WriteString("# to another action.\n[keys]\n")
	k := keymap.DefaultKeyMap()
	for _, name := range keymap.Names() {
		bd, _ := k.Lookup(name)
		fmt.Fprintf(&b, "%-30s # %s\n", name+" = "+tomlValue(bd.Keys()), bd.Help().Desc)
	}
	return b.String()
}

// defaultValue is a setting's default as the file writes it (ints as int).
func defaultValue(s setting) any {
	if n, ok := s.def.(int64); ok {
		return int(n)
	}
	return s.def
}
