package cli

import (
	"github.com/crmem/crmem/internal/editdist"
	"strings"
	"testing"
)

// TestTypos_SuggestTheClosestCommand: a mistyped subcommand, alone or
// followed by arguments, is a usage error naming the closest command, and
// a bare word that is no file and no command is refused rather than opened
// as a new, empty memory.
func TestTypos_SuggestTheClosestCommand(t *testing.T) {
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"serch"}, `unknown command "serch", did you mean "search"?`},
		{[]string{"serch", "foo"}, `unknown command "serch", did you mean "search"?`},
		{[]string{"hepl"}, `unknown command "hepl", did you mean "help"?`},
		{[]string{"shwo", "deploy-steps"}, `unknown command "shwo", did you mean "show"?`},
		{[]string{"lsit"}, `unknown command "lsit", did you mean "lint"?`}, // ls, lint and edit are 2 away: same first letter, then the nearer length wins
		{[]string{"eidt"}, `unknown command "eidt", did you mean "edit"?`},
		{[]string{"SERCH"}, `unknown command "SERCH", did you mean "search"?`},
		{[]string{"xyz"}, `unknown command "xyz"; to open a memory file of that name, give its path: crmem ./xyz`},
		{[]string{"ad", "x"}, `unknown command "ad", did you mean "add"?`},
		{[]string{"ab", "cd"}, `unknown command "ab"`},
	}
	for _, c := range cases {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			r := inProcess(c.args...)
			if r.code != 2 || r.stderr != "crmem: "+c.want+" (see 'crmem --help')\n" {
				t.Errorf("exit %d, stderr %q; want 2 and %q", r.code, r.stderr, c.want)
			}
		})
	}
}

// TestClosestCommand_Distance pins the distance and the cut-off.
func TestClosestCommand_Distance(t *testing.T) {
	root := newApp(nil, nil, nil, func(string) string { return "" }).rootCommand()
	cases := map[string]string{
		"ls": "ls", "sl": "ls", "lss": "ls", "exprot": "export", "verison": "version",
		"ab": "", "ad": "add", "xy": "", "zzzzzz": "", "cd": "", "rn": "rm",
	}
	for word, want := range cases {
		if got := closestCommand(root, word); got != want {
			t.Errorf("closestCommand(%q) = %q, want %q", word, got, want)
		}
	}
	for _, c := range []struct {
		a, b string
		d    int
	}{{"", "abc", 3}, {"abc", "abc", 0}, {"ab", "ba", 1}, {"serch", "search", 1}, {"serch", "bench", 2}, {"kitten", "sitting", 3}} {
		if got := editdist.OSA([]byte(c.a), []byte(c.b)); got != c.d {
			t.Errorf("OSA(%q, %q) = %d, want %d", c.a, c.b, got, c.d)
		}
	}
}
