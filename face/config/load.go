package config

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"runtime"
	"slices"
	"strings"

	toml "github.com/pelletier/go-toml/v2"
	"github.com/pelletier/go-toml/v2/unstable"

	"github.com/crmem/crmem/internal/humanize"
	"github.com/crmem/crmem/internal/safefile"
)

// Options are the layers above the defaults: the environment and the flags
// the user set.
type Options struct {
	// Getenv reads the environment (CRMEM_CONFIG, XDG_CONFIG_HOME, HOME,
	// CRMEM_DB, CRMEM_STYLE).
	Getenv func(string) string
	// Flags holds the flags given on the command line.
	Flags Flags
}

// Flags are the command-line flags that set configuration values; nil
// means the flag was not given.
type Flags struct {
	DB, Sessions, Style *string // --db, --sessions, --style
	NoMouse             *bool   // --no-mouse
}

// given returns the value of the flag spelled name ("--db") and whether
// it was given.
func (f Flags) given(name string) (any, bool) {
	switch name {
	case "--db":
		return value(f.DB)
	case "--sessions":
		return value(f.Sessions)
	case "--style":
		return value(f.Style)
	case "--no-mouse":
		return value(f.NoMouse)
	}
	return nil, false
}

// value is *p and true, or nil and false for a nil p.
func value[T any](p *T) (any, bool) {
	if p == nil {
		return nil, false
	}
	return *p, true
}

// Path is the config file's path: $CRMEM_CONFIG, else
// $XDG_CONFIG_HOME/crmem/config.toml, else ~/.config/crmem/config.toml.
// It is "" when that needs a home folder and none is known ($HOME unset):
// there is then no config file, rather than one under the working folder
// (".config/crmem/config.toml"), which could name any memory to write.
func Path(getenv func(string) string) string {
	h := Home(getenv)
	if p := getenv("CRMEM_CONFIG"); p != "" {
		if h == "" && (p == "~" || strings.HasPrefix(p, "~/")) {
			return ""
		}
		return ExpandHome(p, h)
	}
	if x := getenv("XDG_CONFIG_HOME"); x != "" {
		return filepath.Join(x, "crmem", "config.toml")
	}
	if h == "" {
		return ""
	}
	return filepath.Join(h, ".config", "crmem", "config.toml")
}

// NoHome says why there is no config file or default memory when Path or
// CrabtalkHome find no home folder.
const NoHome = "$HOME is not set"

// Home is the home folder: $HOME (%USERPROFILE% on Windows), read through
// getenv only: not os.UserHomeDir, which reads the process's own
// environment behind the caller's back (and on Unix only $HOME anyway).
// "" when unset. Both faces expand ~ and show paths under it with it.
func Home(getenv func(string) string) string {
	if h := getenv("HOME"); h != "" {
		return h
	}
	if runtime.GOOS == "windows" {
		return getenv("USERPROFILE")
	}
	return ""
}

// Load builds the effective configuration: defaults, the file (missing:
// defaults), the environment, the flags. A bad value in any layer, or a key
// bound to two actions of one pane, is an *Error.
func Load(o Options) (*Config, error) {
	h := Home(o.Getenv)
	c := &Config{File: Path(o.Getenv), origins: map[string]Source{}, getenv: o.Getenv}
	for _, s := range settings {
		v, _ := s.check(s.def, h)
		s.set(c, v)
		c.origins[s.name] = Source{}
	}
	if err := c.loadFile(h); err != nil {
		return nil, err
	}
	if err := c.loadEnv(o.Getenv, h); err != nil {
		return nil, err
	}
	if err := c.loadFlags(o.Flags, h); err != nil {
		return nil, err
	}
	if err := c.checkStyleFile(); err != nil {
		return nil, err
	}
	return c, nil
}

// loadFile applies the config file, if there is one.
func (c *Config) loadFile(h string) error {
	if c.File == "" {
		return nil // no home folder: no config file (Path)
	}
	data, err := readCapped(c.File, ConfigFileMax, "config file")
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	var big *safefile.TooLargeError
	if errors.As(err, &big) {
		return &Error{File: c.File, Msg: big.Error()}
	}
	if err != nil {
		return &Error{File: c.File, Msg: fmt.Sprintf("cannot read: %v", unwrapPath(err))}
	}
	c.Found = true
	if bytes.HasPrefix(data, []byte("\uFEFF")) {
		// the TOML decoder names its first byte, "U+00EF 'ï'", which no
		// one can find in the file
		return &Error{File: c.File, Line: 1, Msg: "not valid TOML: the file starts with a byte-order mark (U+FEFF); save it as UTF-8 without one"}
	}
	lines, linesErr := keyLines(data)
	var many *errTooManyKeys
	if errors.As(linesErr, &many) {
		return &Error{File: c.File, Line: many.line, Msg: many.Error()}
	}
	var doc map[string]any
	if err := toml.Unmarshal(data, &doc); err != nil {
		return c.syntaxError(err)
	}
	if linesErr != nil {
		return c.syntaxError(linesErr)
	}
	f := fileLayer{c: c, home: h, lines: lines}
	return f.apply(doc)
}

// checkStyleFile reads the style file, if the effective style is one, as
// the TUI will (ReadStyleFile), so a style that cannot be used is an error
// at the line, variable or flag that set it, before anything else happens.
func (c *Config) checkStyleFile() error {
	if c.Style == "" || isStyle(c.Style) {
		return nil
	}
	_, err := ReadStyleFile(c.Style)
	if err == nil {
		return nil
	}
	switch src := c.origins["style"]; src.Kind {
	case FromFile:
		return &Error{File: src.File, Line: src.Line, Msg: err.Error()}
	case FromFlag:
		return &Error{Msg: src.Name + ": " + err.Error(), Flag: true}
	default:
		return &Error{Msg: src.String() + ": " + err.Error()}
	}
}

// unwrapPath drops the path from an *fs.PathError (the message names it).
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// syntaxError turns the TOML library's error into an *Error with its line.
func (c *Config) syntaxError(err error) error {
	var de *toml.DecodeError
	if errors.As(err, &de) {
		line, _ := de.Position()
		return &Error{File: c.File, Line: line, Msg: "not valid TOML: " + strings.TrimPrefix(de.Error(), "toml: ")}
	}
	return &Error{File: c.File, Msg: "not valid TOML: " + err.Error()}
}

// errTooManyKeys is keyLines' error for a file that writes more keys than
// any config needs; the TOML decoder checks each key against the others of
// its table, so thousands of keys would take seconds to minutes.
type errTooManyKeys struct{ line int }

// Error is "more than 1,000 keys (a config file sets at most 1,000)".
func (e *errTooManyKeys) Error() string {
	return fmt.Sprintf("more than %s keys (a config file sets at most %s)",
		humanize.Count(maxFileKeys), humanize.Count(maxFileKeys))
}

// keyLines maps every dotted key of the document ("search.max_expansions",
// "keys.quit", and tables themselves) to the line it is written on. A
// document of more than maxFileKeys expressions is an *errTooManyKeys at the
// line of the first one too many.
func keyLines(data []byte) (map[string]int, error) {
	lines := map[string]int{}
	starts := lineStarts(data)
	var p unstable.Parser
	p.Reset(data)
	var table []string
	for n := 0; p.NextExpression(); n++ {
		e := p.Expression()
		if n == maxFileKeys {
			return lines, &errTooManyKeys{line: lineOf(starts, e.Key())}
		}
		switch e.Kind {
		case unstable.Table, unstable.ArrayTable:
			table = keyParts(e.Key())
			name := strings.Join(table, ".")
			if _, ok := lines[name]; !ok {
				lines[name] = lineOf(starts, e.Key())
			}
		case unstable.KeyValue:
			recordKeyValue(starts, e, table, lines)
		}
	}
	return lines, p.Error()
}

// recordKeyValue records a key (and the keys of an inline table value).
func recordKeyValue(starts []int, e *unstable.Node, prefix []string, lines map[string]int) {
	path := append(slices.Clone(prefix), keyParts(e.Key())...)
	lines[strings.Join(path, ".")] = lineOf(starts, e.Key())
	if v := e.Value(); v.Kind == unstable.InlineTable {
		for it := v.Children(); it.Next(); {
			if kv := it.Node(); kv.Kind == unstable.KeyValue {
				recordKeyValue(starts, kv, path, lines)
			}
		}
	}
}

// keyParts are the parts of a dotted key.
func keyParts(it unstable.Iterator) []string {
	var parts []string
	for it.Next() {
		parts = append(parts, string(it.Node().Data))
	}
	return parts
}

// lineStarts are the offsets at which the lines of data start, so a key's
// line is a binary search; the parser's Shape counts newlines from the
// start of the file for every key, which made a config of many keys
// quadratic (30,000 lines took 37 s).
func lineStarts(data []byte) []int {
	starts := []int{0}
	for i, b := range data {
		if b == '\n' {
			starts = append(starts, i+1)
		}
	}
	return starts
}

// lineOf is the line (from 1) of a key's first part.
func lineOf(starts []int, it unstable.Iterator) int {
	if !it.Next() {
		return 0
	}
	off := int(it.Node().Raw.Offset)
	n, found := slices.BinarySearch(starts, off)
	if found {
		return n + 1
	}
	return n
}

// fileLayer applies a decoded file, knowing each key's line.
type fileLayer struct {
	c     *Config
	home  string
	lines map[string]int
}

// errorAt is an *Error at the line of the key called name.
func (f fileLayer) errorAt(name, format string, args ...any) error {
	return &Error{File: f.c.File, Line: f.lines[name], Msg: fmt.Sprintf(format, args...)}
}

// apply checks and applies every key of the document.
func (f fileLayer) apply(doc map[string]any) error {
	for _, name := range f.sortedKeys(doc, "") {
		v := doc[name]
		switch name {
		case "keys":
			if err := f.applyKeys(v); err != nil {
				return err
			}
		case "search":
			if err := f.applyTable(name, v); err != nil {
				return err
			}
		default:
			if err := f.applySetting(name, v); err != nil {
				return err
			}
		}
	}
	return f.checkConflicts()
}

// sortedKeys orders a table's keys by their line, so the first error in
// the file is the one reported.
func (f fileLayer) sortedKeys(t map[string]any, prefix string) []string {
	keys := make([]string, 0, len(t))
	for k := range t {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b string) int { return f.lines[prefix+a] - f.lines[prefix+b] })
	return keys
}

// applyTable applies a table of settings ([search]).
func (f fileLayer) applyTable(name string, v any) error {
	t, ok := v.(map[string]any)
	if !ok {
		return f.errorAt(name, "%s must be a table ([%s]), not %s", name, name, typeName(v))
	}
	for _, k := range f.sortedKeys(t, name+".") {
		if err := f.applySetting(name+"."+k, t[k]); err != nil {
			return err
		}
	}
	return nil
}

// applySetting checks one plain setting and applies it.
func (f fileLayer) applySetting(name string, v any) error {
	s, ok := settingNamed(name)
	if !ok {
		return f.errorAt(name, "unknown setting %q (known: %s)", name, settingNames())
	}
	val, want := s.check(v, f.home)
	if want != "" {
		return f.errorAt(name, "%s must be %s, not %s", name, want, describe(v))
	}
	s.set(f.c, val)
	f.c.origins[name] = Source{Kind: FromFile, File: f.c.File, Line: f.lines[name]}
	return nil
}

// describe shows a bad value in a message: strings and numbers as written,
// other types by their type.
func describe(v any) string {
	switch v := v.(type) {
	case string:
		return quote(v)
	case int64, bool:
		return fmt.Sprint(v)
	}
	return typeName(v)
}

// loadEnv applies $CRMEM_DB and $CRMEM_STYLE.
func (c *Config) loadEnv(getenv func(string) string, h string) error {
	for _, s := range settings {
		if s.env == "" {
			continue
		}
		raw := getenv(s.env)
		if raw == "" {
			continue
		}
		v, want := s.check(raw, h)
		if want != "" {
			return &Error{Msg: fmt.Sprintf("$%s must be %s, not %s", s.env, want, quote(raw))}
		}
		s.set(c, v)
		c.origins[s.name] = Source{Kind: FromEnv, Name: s.env}
	}
	return nil
}

// loadFlags applies the flags given on the command line. --no-mouse sets
// mouse to false.
func (c *Config) loadFlags(flags Flags, h string) error {
	for _, s := range settings {
		raw, ok := flags.given(s.flag)
		if s.flag == "" || !ok {
			continue
		}
		if s.flag == "--no-mouse" {
			raw = !raw.(bool)
		}
		v, want := s.check(raw, h)
		if want != "" {
			return &Error{Msg: fmt.Sprintf("%s must be %s, not %s", s.flag, want, describe(raw)), Flag: true}
		}
		s.set(c, v)
		c.origins[s.name] = Source{Kind: FromFlag, Name: s.flag}
	}
	return nil
}
