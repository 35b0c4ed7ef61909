// Package config is crmem's layered configuration (SPEC §9): built-in
// defaults, then the config file (TOML), then environment variables, then
// command-line flags, each layer overriding the one before. Every value
// remembers where it came from, for `crmem config`.
//
// The file is read with github.com/pelletier/go-toml/v2: its decoder gives
// the typed values and the line of a syntax error, and its parser gives the
// line of every key, so every error names the file and line.
package config

import (
	"fmt"
	"slices"
	"strings"

	"github.com/crmem/crmem/keymap"
)

// Config is the effective configuration.
type Config struct {
	DB            string // the memory file ("~" expanded)
	Sessions      string // the crabtalk sessions folder; "" for sessions/ beside DB
	Style         string // auto | dark | light | notty | a glamour style | a style file
	Sort          string // newest | oldest | name | size
	Mouse         bool   // mouse capture at start
	RecallLimit   int    // the recall view's limit
	MaxExpansions int    // prefix expansions of the word being typed
	NameMatches   int    // name-match rows shown before "… N more"
	// Keys is the defaults with the file's [keys] applied, or the zero
	// KeyMap, which means the defaults (see KeyMap), when the file has no
	// [keys]: built only then, not by every command (~40 KB of a start).
	Keys keymap.KeyMap

	// File is the config file's path; Found says it exists (else the
	// defaults stand in for it).
	File  string
	Found bool

	origins map[string]Source   // by setting name ("db", "search.max_expansions", "keys.quit")
	getenv  func(string) string // the environment Load read, for Memory
}

// SourceKind says which layer a value came from.
type SourceKind int

// The layers, lowest first.
const (
	FromDefault SourceKind = iota
	FromFile
	FromEnv
	FromFlag
)

// Source is where a value came from.
type Source struct {
	Kind SourceKind
	File string // FromFile
	Line int    // FromFile
	Name string // the variable ($CRMEM_DB) or flag (--db)
}

// String is "default", "/home/u/.config/crmem/config.toml:3", "$CRMEM_DB"
// or "--db".
func (s Source) String() string {
	switch s.Kind {
	case FromFile:
		return fmt.Sprintf("%s:%d", s.File, s.Line)
	case FromEnv:
		return "$" + s.Name
	case FromFlag:
		return s.Name
	}
	return "default"
}

// Error is a configuration error: the file and line (0 when the error is
// not in the file) and what is wrong and allowed.
type Error struct {
	File string
	Line int
	Msg  string
	Flag bool // the bad value came from a command-line flag
}

// Error is "file:line: message", or "source: message" outside the file.
func (e *Error) Error() string {
	switch {
	case e.File != "" && e.Line > 0:
		return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
	case e.File != "":
		return fmt.Sprintf("%s: %s", e.File, e.Msg)
	}
	return e.Msg
}

// Setting is one line of `crmem config`: a name, its value as TOML, and its
// source.
type Setting struct {
	Name   string
	Value  string
	Source Source
}

// Settings lists every setting with its value and source: the plain ones,
// then one per key binding.
func (c *Config) Settings() []Setting {
	var out []Setting
	for _, s := range settings {
		out = append(out, Setting{Name: s.name, Value: tomlValue(s.get(c)), Source: c.origins[s.name]})
	}
	keys := c.KeyMap()
	for _, name := range keymap.Names() {
		b, _ := keys.Lookup(name)
		v := tomlValue(b.Keys())
		if len(b.Keys()) == 0 {
			v = "false"
		}
		out = append(out, Setting{Name: "keys." + name, Value: v, Source: c.origins["keys."+name]})
	}
	return out
}

// KeyMap is the effective key map: Keys, or the defaults when the file
// remapped nothing.
func (c *Config) KeyMap() keymap.KeyMap {
	if c.Keys.Configured() {
		return c.Keys
	}
	return keymap.DefaultKeyMap()
}

// tomlValue writes a value as TOML does.
func tomlValue(v any) string {
	switch v := v.(type) {
	case string:
		return quote(v)
	case bool:
		return fmt.Sprint(v)
	case int:
		return fmt.Sprint(v)
	case []string:
		q := make([]string, len(v))
		for i, s := range v {
			q[i] = quote(s)
		}
		return "[" + strings.Join(q, ", ") + "]"
	}
	return fmt.Sprint(v)
}

// quote is a TOML basic string: control characters escaped.
func quote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0):
			fmt.Fprintf(&b, "\\u%04X", r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// sortOrders are the values of sort.
var sortOrders = []string{"newest", "oldest", "name", "size"}

// styleNames are the glamour styles crmem knows by name; a path to a style
// file is accepted too.
var styleNames = []string{"auto", "dark", "light", "notty", "ascii", "dracula", "pink", "tokyo-night"}

// StyleNames are the glamour styles crmem knows by name, for the --style
// flag's help and completion and the TUI's own check.
func StyleNames() []string { return slices.Clone(styleNames) }

// IsStyle reports whether s names a known style.
func IsStyle(s string) bool { return isStyle(s) }

// isStyle reports whether s names a known style.
func isStyle(s string) bool { return slices.Contains(styleNames, s) }
