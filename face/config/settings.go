package config

import (
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/crmem/crmem/store/sessions"
)

// setting describes one plain setting: its name in the file (dotted inside
// a table), the variable and flag that override it, its default, how a
// value is checked, and where it lives in Config.
type setting struct {
	name    string
	env     string // "" if none
	flag    string // "" if none
	def     any
	comment string                                 // for the default file
	check   func(v any, home string) (any, string) // the value, or what is allowed
	get     func(*Config) any
	set     func(*Config, any)
}

// settings are the plain settings in the order `crmem config` lists them.
var settings = []setting{
	{name: "db", env: "CRMEM_DB", flag: "--db", def: "",
		comment: `the memory file; "": memory.db in ~/.crabtalk ($CRABTALK_HOME), else store.crmem there; $CRMEM_DB, --db`,
		check:   checkPath(true),
		get:     func(c *Config) any { return c.DB }, set: func(c *Config, v any) { c.DB = v.(string) }},
	{name: "sessions", flag: "--sessions", def: "",
		comment: `crabtalk's sessions folder; "" means sessions/ beside the db; --sessions`,
		check:   checkPath(true),
		get:     func(c *Config) any { return c.Sessions }, set: func(c *Config, v any) { c.Sessions = v.(string) }},
	{name: "style", env: "CRMEM_STYLE", flag: "--style", def: "auto",
		comment: strings.Join(styleNames, " | ") + " | a glamour style file (.json); $CRMEM_STYLE, --style",
		check:   checkStyle,
		get:     func(c *Config) any { return c.Style }, set: func(c *Config, v any) { c.Style = v.(string) }},
	{name: "sort", def: "newest",
		comment: "the list's order at start: newest | oldest | name | size",
		check:   checkEnum(sortOrders),
		get:     func(c *Config) any { return c.Sort }, set: func(c *Config, v any) { c.Sort = v.(string) }},
	{name: "mouse", flag: "--no-mouse", def: true,
		comment: "mouse capture at start (M toggles it); --no-mouse",
		check:   checkBool,
		get:     func(c *Config) any { return c.Mouse }, set: func(c *Config, v any) { c.Mouse = v.(bool) }},
	{name: "recall_limit", def: int64(sessions.DefaultRecallLimit),
		comment: "the recall view's limit (the agent's default)",
		check:   checkInt(1, 1000),
		get:     func(c *Config) any { return c.RecallLimit }, set: func(c *Config, v any) { c.RecallLimit = v.(int) }},
	{name: "search.max_expansions", def: int64(DefaultMaxExpansions),
		comment: "prefix expansions of the word being typed",
		check:   checkInt(1, 1000),
		get:     func(c *Config) any { return c.MaxExpansions }, set: func(c *Config, v any) { c.MaxExpansions = v.(int) }},
	{name: "search.name_matches", def: int64(DefaultNameMatches),
		comment: `name-match rows shown before "… N more name matches"`,
		check:   checkInt(1, 1000),
		get:     func(c *Config) any { return c.NameMatches }, set: func(c *Config, v any) { c.NameMatches = v.(int) }},
}

// The defaults of the TUI's search settings (SPEC §9), said once: the
// settings above and the TUI without a configuration read them. The
// recall limit's is crabtalk's (sessions.DefaultRecallLimit).
const (
	// DefaultMaxExpansions bounds the prefix expansions of the word being
	// typed.
	DefaultMaxExpansions = 32
	// DefaultNameMatches are the name-match rows before "… N more".
	DefaultNameMatches = 20
)

// settingNamed finds a plain setting.
func settingNamed(name string) (setting, bool) {
	i := slices.IndexFunc(settings, func(s setting) bool { return s.name == name })
	if i < 0 {
		return setting{}, false
	}
	return settings[i], true
}

// settingNames lists the plain settings' names, for messages.
func settingNames() string {
	names := make([]string, len(settings))
	for i, s := range settings {
		names[i] = s.name
	}
	return strings.Join(names, ", ") + " and the [keys] table"
}

// typeName names a TOML value's type in messages.
func typeName(v any) string {
	switch v.(type) {
	case string:
		return "a string"
	case bool:
		return "a boolean"
	case int64, int:
		return "an integer"
	case float64:
		return "a float"
	case []any:
		return "an array"
	case map[string]any:
		return "a table"
	}
	return fmt.Sprintf("a %T", v)
}

// checkPath accepts a string path, "~" expanded; empty only if allowed.
func checkPath(emptyOK bool) func(any, string) (any, string) {
	return func(v any, home string) (any, string) {
		s, ok := v.(string)
		if !ok || (s == "" && !emptyOK) {
			return nil, "a path (a non-empty string)"
		}
		return ExpandHome(s, home), ""
	}
}

// ExpandHome replaces a leading "~" with the home folder (Home), as a
// shell would: the one expansion of ~ in both faces.
func ExpandHome(s, home string) string {
	if home == "" {
		return s
	}
	if s == "~" {
		return home
	}
	if rest, ok := strings.CutPrefix(s, "~/"); ok {
		return home + "/" + rest
	}
	return s
}

// checkStyle accepts a known style name or a path to a style file.
func checkStyle(v any, home string) (any, string) {
	s, ok := v.(string)
	switch {
	case ok && isStyle(s):
		return s, ""
	case ok && (strings.HasSuffix(s, ".json") || strings.ContainsRune(s, '/')):
		p := ExpandHome(s, home)
		if _, err := os.Stat(p); err != nil {
			return nil, "a glamour style file that exists"
		}
		return p, ""
	}
	return nil, strings.Join(styleNames, ", ") + " or a glamour style file (.json)"
}

// checkEnum accepts one of values.
func checkEnum(values []string) func(any, string) (any, string) {
	return func(v any, _ string) (any, string) {
		if s, ok := v.(string); ok && slices.Contains(values, s) {
			return s, ""
		}
		return nil, "one of " + strings.Join(values, ", ")
	}
}

// checkBool accepts true or false.
func checkBool(v any, _ string) (any, string) {
	if b, ok := v.(bool); ok {
		return b, ""
	}
	return nil, "true or false"
}

// checkInt accepts an integer in [lo, hi].
func checkInt(lo, hi int) func(any, string) (any, string) {
	return func(v any, _ string) (any, string) {
		if n, ok := v.(int64); ok && n >= int64(lo) && n <= int64(hi) {
			return int(n), ""
		}
		return nil, fmt.Sprintf("an integer from %d to %d", lo, hi)
	}
}
