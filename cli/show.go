package cli

import (
	"bufio"
	"fmt"
	"strings"
	"time"

	"github.com/spf13/cobra"
)

// showCommand prints one entry.
func (a *app) showCommand() *cobra.Command {
	var js jsonOutput
	c := &cobra.Command{
		Use:   "show NAME [--json|--pretty]",
		Short: "Print one entry: a header and its content",
		Long: `Print one entry, found by name or else by alias (the lowest-id entry with
that alias). --json prints {"id","name","kind","created_at","aliases","content"} on one
line; --pretty indents it.`,
		Example: `  crmem show deploy-steps
  crmem show ship --json | jq -r .content`,
		Args:              args(1, 1),
		ValidArgsFunction: a.completeNames(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return withoutGC(func() error { return a.showEntry(args[0], js) })
		},
	}
	js.register(c, "print the entry")
	return c
}

// showEntry prints the entry that name resolves to.
func (a *app) showEntry(name string, js jsonOutput) error {
	c, err := a.readContents()
	if err != nil {
		return err
	}
	e, ok := c.File.Lookup(name)
	if !ok {
		return fileError{c.Path, fmt.Errorf("no such entry %q", name)}
	}
	p := presenterOf(c.Features)
	if js.enabled() {
		return a.output(func(w *bufio.Writer) error { return js.write(w, p.json(e)) })
	}
	return a.output(func(w *bufio.Writer) error { return writeCard(w, p.card(e, time.Now()), e.Content) })
}

// writeCard prints an entry's header table t, a rule, and its content
// sanitized and ending in a newline: the body of show for a memory file
// and for crabtalk's store alike.
func writeCard(w *bufio.Writer, t *table, content string) error {
	if err := t.write(w); err != nil {
		return err
	}
	body := sanitize(content)
	if body != "" && !strings.HasSuffix(body, "\n") {
		body += "\n"
	}
	_, err := fmt.Fprintf(w, "%s\n%s", strings.Repeat("─", 40), body)
	return err
}
