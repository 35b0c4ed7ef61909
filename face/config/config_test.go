package config_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/crmem/crmem/face/config"
)

// env is a fake environment with HOME and CRMEM_CONFIG under dir.
func env(dir string, extra map[string]string) func(string) string {
	return func(k string) string {
		switch k {
		case "HOME":
			return dir
		case "CRMEM_CONFIG":
			if v, ok := extra[k]; ok {
				return v
			}
			return filepath.Join(dir, "config.toml")
		}
		return extra[k]
	}
}

// load writes file (unless empty) and loads the configuration.
func load(t *testing.T, file string, extra map[string]string, flags *config.Flags) (*config.Config, error) {
	t.Helper()
	dir := t.TempDir()
	if file != "" {
		if err := os.WriteFile(filepath.Join(dir, "config.toml"), []byte(file), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	var fl config.Flags
	if flags != nil {
		fl = *flags
	}
	return config.Load(config.Options{Getenv: env(dir, extra), Flags: fl})
}

// TestLoad_Layers checks each layer overriding the one below: default,
// file, environment, flag — value and reported source.
func TestLoad_Layers(t *testing.T) {
	file := "db = \"~/f.db\"\nstyle = \"light\"\nsort = \"name\"\nmouse = false\n\n[search]\nmax_expansions = 7\n"
	tests := []struct {
		name       string
		file       string
		env        map[string]string
		flags      *config.Flags
		get        func(*config.Config) any
		setting    string
		want       any
		wantSource string // "default", "file:N", "$VAR" or "--flag"
	}{
		{"db default", "", nil, nil, func(c *config.Config) any { return c.DB }, "db", "", "default"},
		{"db from file", file, nil, nil, func(c *config.Config) any { return filepath.Base(c.DB) }, "db", "f.db", "file:1"},
		{"db from env", file, map[string]string{"CRMEM_DB": "/e.db"}, nil, func(c *config.Config) any { return c.DB }, "db", "/e.db", "$CRMEM_DB"},
		{"db from flag", file, map[string]string{"CRMEM_DB": "/e.db"}, &config.Flags{DB: ptr("/g.db")}, func(c *config.Config) any { return c.DB }, "db", "/g.db", "--db"},
		{"style default", "", nil, nil, func(c *config.Config) any { return c.Style }, "style", "auto", "default"},
		{"style from file", file, nil, nil, func(c *config.Config) any { return c.Style }, "style", "light", "file:2"},
		{"style from env", file, map[string]string{"CRMEM_STYLE": "dark"}, nil, func(c *config.Config) any { return c.Style }, "style", "dark", "$CRMEM_STYLE"},
		{"style from flag", file, map[string]string{"CRMEM_STYLE": "dark"}, &config.Flags{Style: ptr("notty")}, func(c *config.Config) any { return c.Style }, "style", "notty", "--style"},
		{"sort from file", file, nil, nil, func(c *config.Config) any { return c.Sort }, "sort", "name", "file:3"},
		{"mouse from file", file, nil, nil, func(c *config.Config) any { return c.Mouse }, "mouse", false, "file:4"},
		{"mouse from flag", "", nil, &config.Flags{NoMouse: ptr(true)}, func(c *config.Config) any { return c.Mouse }, "mouse", false, "--no-mouse"},
		{"expansions from table", file, nil, nil, func(c *config.Config) any { return c.MaxExpansions }, "search.max_expansions", 7, "file:7"},
		{"name matches default", file, nil, nil, func(c *config.Config) any { return c.NameMatches }, "search.name_matches", 20, "default"},
		{"dotted key", "search.name_matches = 3\n", nil, nil, func(c *config.Config) any { return c.NameMatches }, "search.name_matches", 3, "file:1"},
		{"inline table", "search = { name_matches = 4 }\n", nil, nil, func(c *config.Config) any { return c.NameMatches }, "search.name_matches", 4, "file:1"},
		{"sessions from flag", "", nil, &config.Flags{Sessions: ptr("/s")}, func(c *config.Config) any { return c.Sessions }, "sessions", "/s", "--sessions"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := load(t, tt.file, tt.env, tt.flags)
			if err != nil {
				t.Fatal(err)
			}
			if got := tt.get(c); got != tt.want {
				t.Errorf("value %v, want %v", got, tt.want)
			}
			src := c.Origin(tt.setting)
			got := src.String()
			if src.Kind == config.FromFile {
				got = "file:" + strings.TrimPrefix(got, c.File+":")
			}
			if got != tt.wantSource {
				t.Errorf("source %q, want %q", got, tt.wantSource)
			}
		})
	}
}

// TestLoad_HomeExpanded: "~" in a path is the home folder.
func TestLoad_HomeExpanded(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "config.toml"), []byte(`db = "~/x/memory.db"`), 0o600)
	c, err := config.Load(config.Options{Getenv: env(dir, nil)})
	if err != nil {
		t.Fatal(err)
	}
	if c.DB != filepath.Join(dir, "x", "memory.db") {
		t.Errorf("db %q", c.DB)
	}
}

// TestLoad_Errors: every error names the file and line and what is allowed.
func TestLoad_Errors(t *testing.T) {
	tests := []struct {
		name  string
		file  string
		env   map[string]string
		flags *config.Flags
		line  int
		want  string
	}{
		{"unknown setting", "db = \"/x\"\ncolour = 1\n", nil, nil, 2, `unknown setting "colour" (known: db, sessions, style, sort, mouse, recall_limit, search.max_expansions, search.name_matches and the [keys] table)`},
		{"unknown setting in table", "[search]\nmax = 1\n", nil, nil, 2, `unknown setting "search.max"`},
		{"wrong type", "sort = 3\n", nil, nil, 1, `sort must be one of newest, oldest, name, size, not 3`},
		{"wrong type bool", "\nmouse = \"yes\"\n", nil, nil, 2, `mouse must be true or false, not "yes"`},
		{"bad value", "sort = \"random\"\n", nil, nil, 1, `sort must be one of newest, oldest, name, size, not "random"`},
		{"out of range", "recall_limit = 0\n", nil, nil, 1, `recall_limit must be an integer from 1 to 1000, not 0`},
		{"float for int", "[search]\nname_matches = 2.5\n", nil, nil, 2, `search.name_matches must be an integer from 1 to 1000, not a float`},
		{"bad style", "style = \"neon\"\n", nil, nil, 1, `style must be auto, dark, light, notty, ascii, dracula, pink, tokyo-night or a glamour style file (.json), not "neon"`},
		{"missing style file", "\nstyle = \"/nonexistent-crmem-style/x.json\"\n", nil, nil, 2, `style must be a glamour style file that exists, not "/nonexistent-crmem-style/x.json"`},
		{"search not a table", "search = 1\n", nil, nil, 1, `search must be a table ([search]), not an integer`},
		{"syntax", "db = \"/x\"\nsort = \n", nil, nil, 2, `not valid TOML`},
		{"duplicate key", "sort = \"name\"\nsort = \"size\"\n", nil, nil, 2, `not valid TOML`},
		{"byte-order mark", "\uFEFFsort = \"name\"\n", nil, nil, 1, `not valid TOML: the file starts with a byte-order mark (U+FEFF); save it as UTF-8 without one`},
		{"unknown binding", "[keys]\nquitt = \"x\"\n", nil, nil, 2, `unknown key binding "quitt" in [keys] (known: up, down,`},
		{"binding wrong type", "[keys]\nquit = 3\n", nil, nil, 2, `keys.quit must be a key ("ctrl+s"), a list of keys (["q", "ctrl+c"]) or false, not 3`},
		{"binding true", "[keys]\nquit = true\n", nil, nil, 2, `keys.quit must be a key`},
		{"binding list of ints", "[keys]\n\nquit = [\"q\", 1]\n", nil, nil, 3, `keys.quit must be a key ("ctrl+s"), a list of keys (["q", "ctrl+c"]) or false; the list holds an integer`},
		{"binding lists too many keys", "[keys]\nquit = [" + strings.Repeat(`"q", `, 16) + "\"q\"]\n", nil, nil, 2, `keys.quit lists 17 keys; a binding takes at most 16`},
		{"too many keys", manyKeys(1001), nil, nil, 1001, `more than 1,000 keys (a config file sets at most 1,000)`},
		{"style file a device", "style = \"" + os.DevNull + "\"\n", nil, nil, 1, `style file ` + os.DevNull + `: not a regular file`},
		{"bad key name", "[keys]\nquit = \"ctrl+qq\"\n", nil, nil, 2, `keys.quit: unknown key "ctrl+qq"`},
		{"key bound twice in one pane", "[keys]\nsort = \"o\"\n", nil, nil, 2, `key "o" is bound to both sort and orphans in the list (one action per key in each pane)`},
		{"two remaps collide", "[keys]\nzoom = \"Z\"\ncopy_name = \"Z\"\n", nil, nil, 3, `key "Z" is bound to both copy_name and zoom in the list`},
		{"bad env", "", map[string]string{"CRMEM_STYLE": "neon"}, nil, 0, `$CRMEM_STYLE must be auto, dark`},
		{"bad flag", "", nil, &config.Flags{Style: ptr("neon")}, 0, `--style must be auto, dark`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := load(t, tt.file, tt.env, tt.flags)
			var ce *config.Error
			if !errors.As(err, &ce) {
				t.Fatalf("error %v, want a *config.Error", err)
			}
			if ce.Line != tt.line {
				t.Errorf("line %d, want %d (%v)", ce.Line, tt.line, err)
			}
			if !strings.Contains(ce.Msg, tt.want) {
				t.Errorf("message %q, want it to contain %q", ce.Msg, tt.want)
			}
			if tt.line > 0 && !strings.HasPrefix(err.Error(), fmt.Sprintf("%s:%d: ", ce.File, tt.line)) {
				t.Errorf("error %q does not start with file:line", err)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("error spans lines: %q", err)
			}
		})
	}
}

// TestLoad_KeyRemap: a string, a list and false, reaching the bindings and
// their help labels.
func TestLoad_KeyRemap(t *testing.T) {
	c, err := load(t, "[keys]\nquit = \"Q\"\nsort = [\"S\", \"ctrl+o\"]\nmouse = false\nup = [\"up\", \"k\"]\n", nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	k := c.Keys
	press := func(code rune, text string, mod tea.KeyMod) tea.KeyPressMsg {
		return tea.KeyPressMsg{Code: code, Text: text, Mod: mod}
	}
	if !key.Matches(press('Q', "Q", 0), k.Quit) || key.Matches(press('q', "q", 0), k.Quit) {
		t.Errorf("quit keys %v", k.Quit.Keys())
	}
	if k.Quit.Help().Key != "Q" {
		t.Errorf("quit label %q", k.Quit.Help().Key)
	}
	if !key.Matches(press('o', "", tea.ModCtrl), k.Sort) || k.Sort.Help().Key != "S/ctrl+o" {
		t.Errorf("sort keys %v label %q", k.Sort.Keys(), k.Sort.Help().Key)
	}
	if k.Mouse.Enabled() || slices.ContainsFunc(k.AppKeys(), func(b key.Binding) bool { return b.Help().Desc == "mouse on/off" && b.Enabled() }) {
		t.Errorf("mouse still bound: %v", k.Mouse.Keys())
	}
	if k.Up.Help().Key != "↑/k" {
		t.Errorf("up restated with its defaults keeps the default label, got %q", k.Up.Help().Key)
	}
	var quitSrc string
	for _, s := range c.Settings() {
		if s.Name == "keys.quit" {
			quitSrc = s.Source.String()
			if s.Value != `["Q"]` {
				t.Errorf("keys.quit shown as %s", s.Value)
			}
		}
		if s.Name == "keys.mouse" && s.Value != "false" {
			t.Errorf("keys.mouse shown as %s", s.Value)
		}
	}
	if quitSrc != c.File+":2" {
		t.Errorf("keys.quit source %q", quitSrc)
	}
}

// TestDefaultFile_LoadsAsDefaults: the --default file is valid, sets every
// setting and binding, and changes nothing.
func TestDefaultFile_LoadsAsDefaults(t *testing.T) {
	def, err := load(t, "", nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	c, err := load(t, config.DefaultFile(), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	ds, cs := def.Settings(), c.Settings()
	if len(ds) != len(cs) || len(cs) < 50 {
		t.Fatalf("%d settings vs %d", len(ds), len(cs))
	}
	for i := range cs {
		if cs[i].Name != ds[i].Name || cs[i].Value != ds[i].Value && cs[i].Name != "db" {
			t.Errorf("%s = %s from the default file, %s by default", cs[i].Name, cs[i].Value, ds[i].Value)
		}
		if cs[i].Source.Kind != config.FromFile {
			t.Errorf("%s not set by the default file", cs[i].Name)
		}
	}
}

// TestPath: $CRMEM_CONFIG, then $XDG_CONFIG_HOME, then ~/.config.
func TestPath(t *testing.T) {
	tests := []struct {
		env  map[string]string
		want string
	}{
		{map[string]string{"CRMEM_CONFIG": "/a/c.toml", "XDG_CONFIG_HOME": "/x", "HOME": "/h"}, "/a/c.toml"},
		{map[string]string{"XDG_CONFIG_HOME": "/x", "HOME": "/h"}, "/x/crmem/config.toml"},
		{map[string]string{"HOME": "/h"}, "/h/.config/crmem/config.toml"},
		{map[string]string{"CRMEM_CONFIG": "~/c.toml", "HOME": "/h"}, "/h/c.toml"},
	}
	for _, tt := range tests {
		if got := config.Path(func(k string) string { return tt.env[k] }); got != tt.want {
			t.Errorf("%v: %q, want %q", tt.env, got, tt.want)
		}
	}
}

// TestReadmeExample: the documentation's configuration section (in
// README.md or a page under docs/) holds a complete file that loads and
// sets every setting and binding.
func TestReadmeExample(t *testing.T) {
	pages, err := filepath.Glob(filepath.Join("..", "..", "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	var section string
	found := 0
	for _, p := range append([]string{filepath.Join("..", "..", "README.md")}, pages...) {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if _, s, ok := strings.Cut("\n"+string(data), "\n## Configuration\n"); ok {
			section, _, _ = strings.Cut(s, "\n## ")
			found++
		}
	}
	if found != 1 {
		t.Fatalf("%d pages of README.md and docs/ have a ## Configuration section, want 1", found)
	}
	_, example, ok := strings.Cut(section, "```toml\n")
	if !ok {
		t.Fatal("no toml block in ## Configuration")
	}
	example, _, _ = strings.Cut(example, "```")
	c, err := load(t, example, nil, nil)
	if err != nil {
		t.Fatalf("the documentation's example: %v", err)
	}
	for _, s := range c.Settings() {
		if s.Source.Kind != config.FromFile {
			t.Errorf("the documentation's example does not set %s", s.Name)
		}
	}
}

// ptr returns a pointer to v, for a flag in config.Flags.
func ptr[T any](v T) *T { return &v }

// TestMemory_ResolvesOnce: the memory file is the db setting when any
// layer names one, else crabtalk's, found in $CRABTALK_HOME (else
// ~/.crabtalk): memory.db, else store.crmem, else memory.db.
func TestMemory_ResolvesOnce(t *testing.T) {
	home := t.TempDir()
	crab := filepath.Join(home, "crab")
	if err := os.MkdirAll(crab, 0o700); err != nil {
		t.Fatal(err)
	}
	env := func(vars map[string]string) func(string) string {
		return func(k string) string { return vars[k] }
	}
	cases := []struct {
		name        string
		vars        map[string]string
		files       []string // created in crab before resolving
		want        string
		wantDefault bool
	}{
		{"named by the environment", map[string]string{"HOME": home, "CRMEM_DB": "/x/m.db"}, nil, "/x/m.db", false},
		{"crabtalk home, nothing there", map[string]string{"HOME": home, "CRABTALK_HOME": crab}, nil, filepath.Join(crab, config.MemoryFileName), true},
		{"crabtalk home holds the store only", map[string]string{"HOME": home, "CRABTALK_HOME": crab}, []string{config.StoreFileName}, filepath.Join(crab, config.StoreFileName), true},
		{"memory.db wins over the store", map[string]string{"HOME": home, "CRABTALK_HOME": crab}, []string{config.StoreFileName, config.MemoryFileName}, filepath.Join(crab, config.MemoryFileName), true},
		{"~/.crabtalk", map[string]string{"HOME": home}, nil, filepath.Join(home, ".crabtalk", config.MemoryFileName), true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for _, f := range c.files {
				if err := os.WriteFile(filepath.Join(crab, f), nil, 0o600); err != nil {
					t.Fatal(err)
				}
			}
			cfg, err := config.Load(config.Options{Getenv: env(c.vars)})
			if err != nil {
				t.Fatal(err)
			}
			got, isDefault, err := cfg.Memory()
			if err != nil || got != c.want || isDefault != c.wantDefault {
				t.Errorf("Memory() = %q, %v, %v; want %q, %v", got, isDefault, err, c.want, c.wantDefault)
			}
		})
	}
}

// TestDaemonSocket_HonoursCrabtalkHome: the daemon listens in crabtalk's
// home folder, $CRABTALK_HOME when set (as the store's path, SPEC §10),
// else ~/.crabtalk.
func TestDaemonSocket_HonoursCrabtalkHome(t *testing.T) {
	home := t.TempDir()
	for _, tc := range []struct{ env, want string }{
		{"", filepath.Join(home, ".crabtalk", "run", "crabtalk.sock")},
		{filepath.Join(home, "ct"), filepath.Join(home, "ct", "run", "crabtalk.sock")},
	} {
		vars := map[string]string{"HOME": home, "CRABTALK_HOME": tc.env}
		if got := config.DaemonSocket(func(k string) string { return vars[k] }); got != tc.want {
			t.Errorf("CRABTALK_HOME=%q: socket %s, want %s", tc.env, got, tc.want)
		}
	}
}

// TestLoad_KeyMapOnlyWhenRemapped: without a [keys] table the key map is
// not built (every command loads the configuration, few need keys), yet
// KeyMap and Settings give the defaults; with one, Keys holds the remap.
func TestLoad_KeyMapOnlyWhenRemapped(t *testing.T) {
	for _, tc := range []struct {
		name, file string
		configured bool
		quit       string
	}{
		{"no file", "", false, "q"},
		{"file without keys", "sort = \"name\"\n", false, "q"},
		{"file with keys", "[keys]\nquit = \"Q\"\n", true, "Q"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := load(t, tc.file, nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			if c.Keys.Configured() != tc.configured {
				t.Errorf("Keys built: %v, want %v", c.Keys.Configured(), tc.configured)
			}
			if got := c.KeyMap().Quit.Help().Key; !strings.HasPrefix(got, tc.quit) {
				t.Errorf("KeyMap's quit %q, want %q", got, tc.quit)
			}
			for _, s := range c.Settings() {
				if s.Name == "keys.quit" && !strings.Contains(s.Value, `"`+tc.quit+`"`) {
					t.Errorf("settings list keys.quit = %s, want %q in it", s.Value, tc.quit)
				}
			}
		})
	}
}
