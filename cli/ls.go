package cli

import (
	"bufio"
	"fmt"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/crmem/crmem/store"
	"github.com/crmem/crmem/store/hygiene"
)

// lsCommand lists entries.
func lsCommand(o *opener, s streams) *cobra.Command {
	var kind string
	var js jsonOutput
	var redact bool
	c := &cobra.Command{
		Use:   "ls [--kind K] [--redact] [--json|--pretty]",
		Short: "List entries (id, kind, name, created, age, size, aliases)",
		Long: `List every entry of the memory file in ascending id order.
--json prints an array of entries {"id","name","kind","created_at","aliases","content"}
on one line; --pretty indents it. --redact masks the secrets lint finds
(ghp_…x9Q2) in names, aliases and content.`,
		Example: `  crmem ls
  crmem ls --kind archive
  crmem ls --json | jq -r '.[].name'`,
		Args: args(0, 0),
		RunE: func(cmd *cobra.Command, _ []string) error {
			k, err := kindFlag(cmd, kind)
			if err != nil {
				return err
			}
			c, err := o.readContents()
			if err != nil {
				return err
			}
			p := presenterOf(c.Features)
			entries := filterKind(c.File.EntriesByID(), k, p)
			if redact {
				entries = redactEntries(entries)
			}
			if js.enabled() {
				return s.output(func(w *bufio.Writer) error { return writeArray(w, js, entriesJSON(entries, p)) })
			}
			if len(entries) == 0 {
				_, err := fmt.Fprintln(s.stdout, "no entries")
				return err
			}
			return s.output(func(w *bufio.Writer) error { return p.lsTable(entries, time.Now()).write(w) })
		},
	}
	c.Flags().StringVar(&kind, "kind", "", "only entries of this kind: note, archive or topic")
	js.register(c, "print the entries")
	registerRedact(c, &redact)
	return c
}

// filterKind keeps the entries of kind k (all when k is nil), as their
// format wrote the kind.
func filterKind(entries []store.Entry, k *store.Kind, p presenter) []store.Entry {
	if k == nil {
		return entries
	}
	out := entries[:0:0]
	for _, e := range entries {
		if p.kind(e) == k.String() {
			out = append(out, e)
		}
	}
	return out
}

// entriesJSON converts entries to their JSON shape.
func entriesJSON(entries []store.Entry, p presenter) []any {
	out := make([]any, len(entries))
	for i, e := range entries {
		out[i] = p.json(e)
	}
	return out
}

// lsName is a name as ls lists it: nameText, and for a name that mixes
// Latin letters with look-alikes from another script which letters those
// are ("dеploy-steps (mixes scripts: е U+0435 CYRILLIC)"), so it never
// reads as the name it imitates (issue 42 item 4). --json is unchanged.
func lsName(name string) string {
	if ls := hygiene.MixedScript(name); len(ls) > 0 {
		return nameText(name) + " (mixes scripts: " + hygiene.DescribeMixed(ls) + ")"
	}
	return nameText(name)
}

// aliasList joins aliases for one table cell, at most w cells wide.
func aliasList(aliases []string, w int) string {
	clean := make([]string, len(aliases))
	for i, al := range aliases {
		clean[i] = nameText(al)
	}
	return truncate(strings.Join(clean, ", "), w)
}
