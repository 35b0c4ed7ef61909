package cli

import (
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// TestFlagErrors_SayWhatTheFlagWants: a value of the wrong type is named
// with what the flag wants, never the parser's strconv text.
func TestFlagErrors_SayWhatTheFlagWants(t *testing.T) {
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"search", "x", "--limit", "abc"}, `search: --limit wants a whole number, not "abc" (see 'crmem search --help')`},
		{[]string{"search", "x", "--limit=1.5"}, `search: --limit wants a whole number, not "1.5"`},
		{[]string{"search", "x", "--limit", "99999999999999999999"}, `search: --limit: 99999999999999999999 is out of range`},
		{[]string{"bench", "--iterations", "many"}, `bench: --iterations wants a whole number, not "many"`},
		{[]string{"ls", "--json=maybe"}, `ls: --json wants true or false, not "maybe"`},
	}
	for _, c := range cases {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			r := inProcess(c.args...)
			if r.code != 2 || !strings.HasPrefix(r.stderr, "crmem: "+c.want) || strings.Contains(r.stderr, "strconv") {
				t.Errorf("exit %d, stderr %q; want 2 and %q", r.code, r.stderr, c.want)
			}
		})
	}
}

// TestFlagWants_EveryValueTypeInTheTree: every flag whose value is not
// free text has words for what it wants, so a flag added later gets the
// same message.
func TestFlagWants_EveryValueTypeInTheTree(t *testing.T) {
	root := newApp(nil, nil, nil, func(string) string { return "" }).rootCommand()
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		c.Flags().VisitAll(func(f *pflag.Flag) {
			switch typ := f.Value.Type(); typ {
			case "string", "stringArray", "stringSlice":
			default:
				if flagWants(typ) == "" {
					t.Errorf("%s --%s: type %s has no description", c.CommandPath(), f.Name, typ)
				}
			}
		})
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
}

// TestHelp_CitesNoSpec: help texts (and so the man pages) never send the
// reader to SPEC sections, which are not part of the repository.
func TestHelp_CitesNoSpec(t *testing.T) {
	root := newApp(nil, nil, nil, func(string) string { return "" }).rootCommand()
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		text := c.Use + c.Short + c.Long + c.Example
		c.Flags().VisitAll(func(f *pflag.Flag) { text += f.Usage })
		if strings.Contains(text, "SPEC") || strings.Contains(text, "§") {
			t.Errorf("%s: help cites the spec", c.CommandPath())
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
}
