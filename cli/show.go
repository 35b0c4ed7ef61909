package cli

import (
	"bufio"
	"fmt"
	"strings"
	"time"

	"github.com/spf13/cobra"
)

// showCommand prints one entry.
func showCommand(o *opener, s streams) *cobra.Command {
	var js jsonOutput
	var redact bool
	c := &cobra.Command{
		Use:   "show NAME [--redact] [--json|--pretty]",
		Short: "Print one entry: a header and its content",
		Long: `Print one entry, found by name or else by alias (the lowest-id entry with
that alias). --json prints {"id","name","kind","created_at","aliases","content"} on one
line; --pretty indents it. --redact masks the secrets lint finds (ghp_…x9Q2).`,
		Example: `  crmem show deploy-steps
  crmem show ship --json | jq -r .content
  crmem show deploy-steps --redact`,
		Args:              args(1, 1),
		ValidArgsFunction: o.completeNames(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return withoutGC(func() error { return printEntry(o, s, args[0], js, redact) })
		},
	}
	js.register(c, "print the entry")
	registerRedact(c, &redact)
	return c
}

// printEntry prints the entry that name resolves to.
// With redact, its secrets are masked.
func printEntry(o *opener, s streams, name string, js jsonOutput, redact bool) error {
	c, err := o.readContents()
	if err != nil {
		return err
	}
	e, ok := c.File.Lookup(name)
	if !ok {
		return fileError{c.Path, fmt.Errorf("no such entry %q", name)}
	}
	p := presenterOf(c.Features)
	if redact {
		e = redactEntry(e)
	}
	if js.enabled() {
		return s.output(func(w *bufio.Writer) error { return js.write(w, p.json(e)) })
	}
	return s.output(func(w *bufio.Writer) error { return writeCard(w, p.card(e, time.Now()), e.Content) })
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
