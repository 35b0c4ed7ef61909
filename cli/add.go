package cli

import (
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/crmem/crmem/store"
)

// addCommand creates an entry.
func addCommand(o *opener, s streams) *cobra.Command {
	var kind string
	var aliases []string
	c := &cobra.Command{
		Use:   "add NAME [CONTENT|-] [--kind note|archive|topic] [--alias A]...",
		Short: "Add an entry (content from the argument or standard input)",
		Long: `Add an entry named NAME. Its content is CONTENT, or standard input when CONTENT
is "-" or absent (taken byte for byte). --kind defaults to note; --alias may be
repeated. The name must be unused and safe as a file name (no "/", "\", "..",
control characters, leading "." or trailing "." or space). The file and its
folder are created if missing.`,
		Example: `  crmem add deploy-steps "1. tag 2. push 3. watch the canary" --alias ship --alias release
  git log -1 --format=%B | crmem add last-commit
  crmem add weekly-summary --kind topic < summary.md`,
		Args: args(1, 2),
		RunE: func(cmd *cobra.Command, args []string) error {
			k := store.Note
			if kind != "" {
				pk, err := kindFlag(cmd, kind)
				if err != nil {
					return err
				}
				k = *pk
			}
			name := args[0]
			if err := validNewName(name); err != nil {
				return err
			}
			if err := validAliases(aliases); err != nil {
				return err
			}
			content, err := s.content(args, 1)
			if err != nil {
				return err
			}
			op := store.Add{Name: name, Content: content, Aliases: aliases, Kind: k}
			_, changes, err := o.apply(nameTaken(name), op)
			if err != nil {
				return err
			}
			return report(s.stdout, o.hideIDs, "added", changes, "")
		},
	}
	c.Flags().StringVar(&kind, "kind", "", "note, archive or topic (default note)")
	c.Flags().StringArrayVar(&aliases, "alias", nil, "an alias (repeat for several)")
	return c
}

// report prints to w one line per changed entry: "<verb> NAME (id N,
// kind)" ("<verb> NAME (kind)" when hideIDs: crabtalk's store, whose ids
// are internal; opener.hideIDs after the write),
// or the line same when nothing changed (the entry already was as asked:
// nothing was written, and a silent success would leave the user guessing).
func report(w io.Writer, hideIDs bool, verb string, changes []store.Change, same string) error {
	if len(changes) == 0 && same != "" {
		if _, err := fmt.Fprintln(w, same); err != nil {
			return fmt.Errorf("write output: %w", err)
		}
		return nil
	}
	for _, ch := range changes {
		e := ch.After
		if e == nil {
			e = ch.Before
		}
		if e == nil {
			continue
		}
		line := fmt.Sprintf("%s %s (id %d, %s)\n", verb, nameText(e.Name), e.ID, e.Kind)
		if hideIDs { // crabtalk's store: ids are internal, never shown
			line = fmt.Sprintf("%s %s (%s)\n", verb, nameText(e.Name), e.Kind)
		}
		if _, err := fmt.Fprint(w, line); err != nil {
			return fmt.Errorf("write output: %w", err)
		}
	}
	return nil
}

// unchanged is report's line for a write that found the entry name already
// as asked.
func unchanged(name, what string) string {
	return fmt.Sprintf("unchanged: %s already has %s (nothing written)", nameText(name), what)
}
