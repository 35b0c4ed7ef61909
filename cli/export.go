package cli

import (
	"github.com/spf13/cobra"
)

// exportCommand prints the memory as JSON lines.
func exportCommand(o *opener, s streams) *cobra.Command {
	var redact bool
	c := &cobra.Command{
		Use:   "export [--redact]",
		Short: "Print every entry as JSON lines (a lossless backup)",
		Long: `Print one JSON object per line, in ascending id order:

  {"id":3,"name":"deploy-steps","kind":"note","created_at":1767265200,"aliases":["ship"],"content":"…"}

("aliases" is [] when there are none). "crmem import FILE" reads it back with
ids, creation times, kinds, aliases and content unchanged. --redact masks the
secrets lint finds (ghp_…x9Q2) in names, aliases and content: for a bug
report, not a backup.`,
		Example: `  crmem export > memory.jsonl
  crmem export | jq -r 'select(.kind == "archive") | .name'
  crmem export --db old.db | crmem import - --merge
  crmem export --redact > for-the-bug-report.jsonl`,
		Args: args(0, 0),
		RunE: func(_ *cobra.Command, _ []string) error {
			c, err := o.readContents()
			if err != nil {
				return err
			}
			entries := c.File.Entries
			if redact {
				entries = redactEntries(entries)
			}
			return presenterOf(c.Features).writeJSONL(s.stdout, entries)
		},
	}
	registerRedact(c, &redact)
	return c
}
