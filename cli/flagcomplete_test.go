package cli

import (
	"slices"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/crmem/crmem/export"
	"github.com/crmem/crmem/store"
	"github.com/crmem/crmem/tui"
)

// TestComplete_EnumFlags pins shell completion of enum-valued flags through
// cobra's hidden __complete command, as the shell scripts call it.
func TestComplete_EnumFlags(t *testing.T) {
	cases := []struct {
		args []string
		want []string
		dir  string // the directive line
	}{
		{[]string{"ls", "--kind", ""}, []string{"note", "archive", "topic"}, ":4"},
		{[]string{"ls", "--kind", "a"}, []string{"archive"}, ":4"},
		{[]string{"ls", "--kind=t"}, []string{"topic"}, ":4"},
		{[]string{"search", "deploy", "--kind", "n"}, []string{"note"}, ":4"},
		{[]string{"add", "x", "--kind", ""}, []string{"note", "archive", "topic"}, ":4"},
		{[]string{"--style", "d"}, []string{"dark", "dracula"}, ":4"},
		{[]string{"--style", ""}, styleNames(), ":4"},
		{[]string{"import", "x", "--from", ""}, importFormats(), ":4"},
		{[]string{"import", "x", "--from", "dr"}, []string{"drover"}, ":4"},
		{[]string{"ls", "--kind", "zzz"}, nil, ":4"},
		{[]string{"check", "--sessions", ""}, nil, ":16"}, // folders only
	}
	for _, c := range cases {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			r := crmem(t, "", append([]string{"__complete"}, c.args...)...)
			if r.code != 0 {
				t.Fatalf("exit %d: %s", r.code, r.stderr)
			}
			lines := strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n")
			got, directive := lines[:len(lines)-1], lines[len(lines)-1]
			if !slices.Equal(got, c.want) && !(len(got) == 0 && len(c.want) == 0) {
				t.Errorf("completions %q, want %q", got, c.want)
			}
			if directive != c.dir {
				t.Errorf("directive %s, want %s", directive, c.dir)
			}
		})
	}
}

// TestComplete_ValuesAccepted keeps the completed values in step with what
// the flags accept.
func TestComplete_ValuesAccepted(t *testing.T) {
	for _, s := range styleNames() {
		if err := tui.CheckStyle(s); err != nil {
			t.Errorf("completed style %q is refused: %v", s, err)
		}
	}
	for _, f := range importFormats() {
		if _, err := export.ParseFormat(f); err != nil {
			t.Errorf("completed format %q is refused: %v", f, err)
		}
	}
	if err := tui.CheckStyle("neon"); err == nil {
		t.Error(`CheckStyle accepts "neon": the test cannot tell a refused style`)
	}
}

// TestComplete_EveryEnumFlagRegistered: every flag named in enumFlags
// exists somewhere in the tree and completes there.
func TestComplete_EveryEnumFlagRegistered(t *testing.T) {
	a := newApp(nil, nil, nil, func(string) string { return "" })
	root := a.rootCommand()
	found := map[string]int{}
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		for name := range enumFlags() {
			if c.Flags().Lookup(name) == nil {
				continue
			}
			f, ok := c.GetFlagCompletionFunc(name)
			if !ok {
				t.Errorf("%s --%s has no completion", c.CommandPath(), name)
				continue
			}
			if got, _ := f(c, nil, ""); len(got) == 0 {
				t.Errorf("%s --%s completes nothing", c.CommandPath(), name)
			}
			found[name]++
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
	for name := range enumFlags() {
		if found[name] == 0 {
			t.Errorf("no command has --%s", name)
		}
	}
	if found["kind"] < 3 {
		t.Errorf("--kind completes on %d commands, want ls, search and add", found["kind"])
	}
}

// TestComplete_ValuesMatchErrors: the values a flag's error message offers
// ("want a, b or c") are exactly the values it completes, so a value added
// to a parser without its completion (or the reverse) fails here.
func TestComplete_ValuesMatchErrors(t *testing.T) {
	_, kindErr := store.ParseKind("zz")
	_, fromErr := export.ParseFormat("zz")
	cases := []struct {
		flag string
		err  error
		want []string
	}{
		{"--kind", kindErr, kindNames()},
		{"--style", tui.CheckStyle("zz"), styleNames()},
		{"--from", fromErr, importFormats()},
	}
	for _, c := range cases {
		if c.err == nil {
			t.Errorf("%s: zz accepted", c.flag)
			continue
		}
		if got := wantedValues(c.err.Error()); !slices.Equal(got, c.want) {
			t.Errorf("%s: the error offers %q, completion %q", c.flag, got, c.want)
		}
	}
}

// wantedValues parses "… (want a, b or c)" into [a b c]; items that are
// descriptions rather than values ("a glamour style file") are left out.
func wantedValues(msg string) []string {
	_, list, ok := strings.Cut(msg, "(want ")
	if !ok {
		return nil
	}
	list = strings.TrimSuffix(list, ")")
	if i := strings.LastIndex(list, " or "); i >= 0 {
		list = list[:i] + ", " + list[i+len(" or "):]
	}
	var out []string
	for _, v := range strings.Split(list, ", ") {
		if !strings.Contains(v, " ") {
			out = append(out, v)
		}
	}
	return out
}
