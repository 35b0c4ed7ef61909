package cli

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/crmem/crmem/store"
)

// rmCommand removes entries, all or none.
func rmCommand(o *opener, s streams) *cobra.Command {
	return &cobra.Command{
		Use:   "rm NAME...|-",
		Short: "Remove entries (all of them, or none if one is missing)",
		Long: `Remove the entries named (each found by name, else by alias) with their
aliases, in one atomic write: if any NAME matches no entry, nothing is removed.
"crmem rm -" reads the names from standard input instead, one per line
(spaces are part of the name; empty lines are skipped); no names there is
nothing to do: a note on stderr, exit status 0, the file untouched.`,
		Example: `  crmem rm scratch old-idea
  crmem ls --kind archive --json | jq -r '.[] | select(.created_at < 1767225600) | .name' | crmem rm -`,
		Args:              args(1, -1),
		ValidArgsFunction: o.completeNames(-1),
		RunE: func(cmd *cobra.Command, args []string) error {
			names, err := rmNames(s, cmd, args)
			if err != nil || len(names) == 0 {
				return err
			}
			_, changes, err := o.applyWith(missingOf(names), func(m *store.Memory) []store.Op { return removals(m, names) })
			if err != nil {
				return err
			}
			return report(s.stdout, o.hideIDs, "removed", changes, "")
		},
	}
}

// rmNames returns the names to remove: the arguments, or with "-" alone
// the lines of standard input. An empty standard input says so on stderr
// and returns no names.
func rmNames(s streams, cmd *cobra.Command, args []string) ([]string, error) {
	if len(args) != 1 || args[0] != "-" {
		if slices.Contains(args, "-") {
			return nil, usage(cmd, `"-" (names from standard input) must be the only argument`)
		}
		return dedupe(args), nil
	}
	if isTerminal(s.stdin) {
		fmt.Fprintln(s.stderr, "crmem: reading names from standard input, one per line (end with ctrl+d)")
	}
	names, err := readNames(s.stdin)
	if err != nil {
		return nil, err
	}
	if len(names) == 0 {
		fmt.Fprintln(s.stderr, "crmem: rm: no names on standard input; nothing removed")
	}
	return dedupe(names), nil
}

// removals builds one Remove per entry named, so two names of one entry (a
// name and its alias) remove it once. Each removal names the entry by its
// canonical name, resolved again on the file's state when it is written.
func removals(m *store.Memory, names []string) []store.Op {
	seen := map[uint64]bool{}
	var ops []store.Op
	for _, n := range names {
		e, ok := m.Lookup(n)
		switch {
		case !ok:
			ops = append(ops, store.Remove{Name: n}) // fails: nothing is removed
		case !seen[e.ID]:
			seen[e.ID] = true
			ops = append(ops, store.Remove{Name: e.Name, Expect: &e})
		}
	}
	return ops
}

// missingOf names the entries that do not exist when removal failed
// because one was missing.
func missingOf(names []string) describer {
	return func(m *store.Memory, err error) error {
		if !errors.Is(err, store.ErrNotFound) || m == nil {
			return nil
		}
		var missing []string
		for _, n := range names {
			if _, ok := m.Lookup(n); !ok {
				missing = append(missing, fmt.Sprintf("%q", n))
			}
		}
		if len(missing) == 0 {
			return nil
		}
		msg := "no such entry " + strings.Join(missing, ", ")
		if len(names) > 1 {
			msg += "; nothing removed"
		}
		return errors.New(msg)
	}
}
