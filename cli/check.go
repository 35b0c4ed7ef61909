package cli

import (
	"bufio"
	"fmt"
	"slices"

	"github.com/spf13/cobra"

	"github.com/crmem/crmem/internal/humanize"
	"github.com/crmem/crmem/store/check"
	"github.com/crmem/crmem/store/open"
)

// checkCommand validates the memory file and reports its anomalies.
func checkCommand(o *opener, s streams) *cobra.Command {
	var js jsonOutput
	c := &cobra.Command{
		Use:   "check [--json|--pretty] [--sessions DIR]",
		Short: "Validate the memory file; counts, sizes, anomalies, dangling archive markers",
		Long: `Read and validate the memory file without changing it. A file the reader
rejects exits 1 with the reason. Otherwise print entry counts per kind, aliases,
content sizes and the oddities the reader tolerates: trailing bytes, duplicate
names or ids, a stale next_id, aliases shared by several entries, aliases equal
to another entry's name, names that are not safe as file names. It also reads
crabtalk's sessions folder (--sessions, default sessions/ next to the memory
file) and reports compact markers naming archives that no longer exist: such a
session resumes with a placeholder instead of its context.`,
		Example: `  crmem check
  crmem check --json --sessions ~/.crabtalk/sessions`,
		Args: args(0, 0),
		RunE: func(cmd *cobra.Command, _ []string) error {
			path, data, err := o.readMemoryFile()
			if err != nil {
				return err
			}
			r, decodeErr := open.Check(path, data, o.sessionsDir(path))
			if o.repaired != "" {
				r.Warnings = append(r.Warnings, o.repaired)
			}
			if r.Caps.Trailing { // read as v1 (a reader that takes trailing bytes): a file named like a store that reads only with bytes after its last entry is refused, as ls refuses it
				if err := open.Unreadable(path); err != nil {
					if !js.enabled() {
						return fileError{path, err} // named like a store: both readers' reasons
					}
					r, decodeErr = refused(r, data, err), err
				}
			}
			if js.enabled() {
				if err := s.reportOutput(true, func(w *bufio.Writer) error { return js.write(w, r) }); err != nil {
					return err
				}
			} else if decodeErr == nil {
				if err := s.reportOutput(false, func(w *bufio.Writer) error { return writeCheck(w, r) }); err != nil {
					return err
				}
			}
			if decodeErr != nil {
				return fileError{path, decodeErr}
			}
			return nil
		},
	}
	js.register(c, "print the report")
	c.Flags().String("sessions", "", "crabtalk sessions folder (default: sessions/ next to the memory file)") // read by the configuration loader (configFlags)
	return c
}

// refused is the report of a file the readers refuse (Valid false, Error
// their reasons), in the shape of r's format, with nothing else read.
func refused(r *check.Report, data []byte, err error) *check.Report {
	out := check.New(r.Path, r.Format, data, r.Caps)
	out.V1Header, out.StoreLayout = r.V1Header, r.StoreLayout
	if out.V1Header != nil {
		out.V1Header = &check.V1Header{}
	}
	out.Error = err.Error()
	return out
}

// writeCheck prints the human report, either format.
func writeCheck(w *bufio.Writer, r *check.Report) error {
	p := func(format string, args ...any) { fmt.Fprintf(w, format, args...) }
	if r.StoreLayout != nil {
		p("%s: valid crabtalk store (crabdb), %s\n", sanitizeLine(r.Path), humanize.Size(r.Bytes))
		if r.IndexLen > 0 {
			p("snapshot   at %d, %s bytes\n", r.IndexAt, humanize.Count(int(r.IndexLen)))
		} else {
			p("snapshot   none (the whole log is replayed)\n")
		}
		p("keys       %s live in all columns\n", humanize.Count(r.LiveKeys))
	} else {
		p("%s: valid CRMEM v1 file, %s\n", sanitizeLine(r.Path), humanize.Size(r.Bytes))
	}
	p("entries    %s (%s)\n", humanize.Count(r.Entries), kindCounts(r.Kinds))
	p("aliases    %s\n", humanize.Count(r.Aliases))
	p("content    %s", humanize.Size(r.ContentBytes))
	if r.Largest != nil {
		p(", largest %s (%s)", humanize.Size(r.Largest.Bytes), reportName(r.Largest.Name))
	}
	p("\n")
	if r.V1Header != nil {
		p("next_id    %d\n", r.NextID)
	}
	if r.StoreLayout != nil {
		if r.Index != nil {
			p("index      %s documents, %s tokens (the store's stored stats)\n", humanize.Count(int(r.Index.Docs)), humanize.Count(int(r.Index.TotalLen)))
		} else {
			p("index      none (recall finds nothing)\n")
		}
		for _, wn := range r.Warnings {
			p("warning    %s\n", sanitizeLine(wn))
		}
	}
	if len(r.Anomalies) == 0 {
		p("anomalies  none\n")
	} else {
		p("anomalies  %s\n", humanize.Count(len(r.Anomalies)))
		writeAnomalies(p, r.Anomalies)
	}
	writeSessions(p, r.Sessions)
	return nil
}

// kindCounts shows the entries per kind: notes and archives, topics when
// the format has them (a v1 report counts every v1 kind), then any other
// kind a store wrote, by name.
func kindCounts(kinds map[string]int) string {
	s := fmt.Sprintf("notes %s, archives %s", humanize.Count(kinds["note"]), humanize.Count(kinds["archive"]))
	others := make([]string, 0, len(kinds))
	for k := range kinds {
		if k != "note" && k != "archive" {
			others = append(others, k)
		}
	}
	slices.Sort(others)
	for _, k := range others {
		switch n := kinds[k]; {
		case k == "topic":
			s += ", topics " + humanize.Count(n)
		case n > 0:
			s += fmt.Sprintf(", %s %s", sanitizeLine(k), humanize.Count(n))
		}
	}
	return s
}

// writeAnomalies prints up to check.ListShown anomalies of each kind and counts
// the rest.
func writeAnomalies(p func(string, ...any), as []check.Anomaly) {
	shown := map[string]int{}
	var kinds []string
	for _, an := range as {
		if shown[an.Kind] == 0 {
			kinds = append(kinds, an.Kind)
		}
		if shown[an.Kind]++; shown[an.Kind] <= check.ListShown {
			p("  %s: %s\n", an.Kind, reportLine(an.Detail))
		}
	}
	for _, k := range kinds {
		if n := shown[k] - check.ListShown; n > 0 {
			p("  … and %s more %s (crmem check --json lists them all)\n", humanize.Count(n), k)
		}
	}
}

// writeSessions prints the sessions part of the human report.
func writeSessions(p func(string, ...any), s *check.Sessions) {
	if s == nil {
		return
	}
	if s.Error != "" {
		p("sessions   %s: cannot read: %s\n", sanitizeLine(s.Dir), sanitizeLine(s.Error))
		return
	}
	if !s.Found {
		p("sessions   %s: none (no such folder)\n", sanitizeLine(s.Dir))
		return
	}
	where := sanitizeLine(s.Dir)
	if s.Dir == check.InStore {
		where = "the store"
	}
	p("sessions   %s in %s, %s compact markers, %s naming missing archives\n", humanize.Count(s.Sessions), where, humanize.Count(s.Markers), humanize.Count(len(s.Missing)))
	if s.Unreadable > 0 {
		p("  %s unreadable (not a regular file, too large, or a link out of the folder): skipped, so markers may be missing\n", humanize.Plural(s.Unreadable, "step"))
	}
	for _, m := range s.Missing {
		resume := ""
		if m.Resume {
			resume = " (its resume point: it resumes with a placeholder)"
		}
		p("  missing archive %s referenced by session %s%s\n", reportQuoted(m.Archive), reportName(m.Session), resume)
	}
}
