package cli

import (
	"io"

	"github.com/crmem/crmem/store"
	"github.com/spf13/cobra"
)

// What only the tests call, kept here rather than in the command line.

// documentTokens counts the tokens of an entry's document as recall indexes
// it: store.Entry.Tokens, for a caller holding the parts (crabtalk's store).
func documentTokens(content string, aliases []string) int {
	e := store.Entry{Content: content, Aliases: aliases}
	return e.Tokens()
}

// storeRole is how c treats the memory file ("" if it was given none).
func storeRole(c *cobra.Command) storeCommand { return storeCommand(c.Annotations[storeRoleKey]) }

// run executes the command line and returns the exit status: 0 on success,
// 1 on failure, 2 on a usage error. Every failure is one "crmem: " line on
// stderr; a panic anywhere below is turned into such a line too.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer, getenv func(string) string) int {
	a := newApp(stdin, stdout, stderr, getenv)
	return a.execute(args)
}
