package cli

import (
	"bufio"
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/crmem/crmem/export"
	"github.com/crmem/crmem/internal/humanize"
	"github.com/crmem/crmem/store/crabdb"
)

// storeJSONEntry is a store entry's JSON shape: SPEC §6's without "id"
// (store entries have none), created_at the stored RFC 3339 string with its
// sub-second part (left out when the store has none).
type storeJSONEntry struct {
	Name      string   `json:"name"`
	Kind      string   `json:"kind"`
	CreatedAt string   `json:"created_at,omitempty"`
	Aliases   []string `json:"aliases"`
	Content   string   `json:"content"`
}

// storeJSON converts a store entry to its JSON shape.
func storeJSON(e crabdb.Entry) storeJSONEntry {
	aliases := e.Aliases
	if aliases == nil {
		aliases = []string{}
	}
	return storeJSONEntry{Name: e.Name, Kind: e.Kind, CreatedAt: e.CreatedAt, Aliases: aliases, Content: e.Content}
}

// storeKindFilter keeps the entries of the --kind flag's kind.
func storeKindFilter(cmd *cobra.Command, entries []crabdb.Entry) ([]crabdb.Entry, error) {
	s, _ := cmd.Flags().GetString("kind")
	k, err := kindFlag(cmd, s)
	if err != nil || k == nil {
		return entries, err
	}
	var out []crabdb.Entry
	for _, e := range entries {
		if e.Kind == k.String() {
			out = append(out, e)
		}
	}
	return out, nil
}

// lsStore lists a store's entries in key order.
func (a *app) lsStore(cmd *cobra.Command, v *storeView) error {
	entries, err := storeKindFilter(cmd, v.entries)
	if err != nil {
		return err
	}
	if js := jsonFlags(cmd); js.enabled() {
		out := make([]storeJSONEntry, len(entries))
		for i, e := range entries {
			out[i] = storeJSON(e)
		}
		return a.output(func(w *bufio.Writer) error { return writeArray(w, js, out) })
	}
	if len(entries) == 0 {
		_, err := fmt.Fprintln(a.stdout, "no entries")
		return err
	}
	now := time.Now()
	t := &table{right: map[int]bool{4: true}}
	t.add("KIND", "NAME", "CREATED", "AGE", "SIZE", "ALIASES")
	for _, e := range entries {
		created, age := storeDate(e, now)
		t.add(sanitizeLine(e.Kind), sanitizeLine(e.Name), created, age, humanize.Size(len(e.Content)), aliasList(e.Aliases, 60))
	}
	return a.output(func(w *bufio.Writer) error { return t.write(w) })
}

// storeDate shows a store entry's creation as a local date and an age.
func storeDate(e crabdb.Entry, now time.Time) (date, age string) {
	s, ok := e.Created()
	if !ok {
		if e.CreatedAt == "" {
			return "-", "-"
		}
		return sanitizeLine(e.CreatedAt), "?"
	}
	return formatDate(s), humanize.Age(now, s)
}

// showStore prints one store entry.
func (a *app) showStore(cmd *cobra.Command, v *storeView, name string) error {
	e, ok := v.lookup(name)
	if !ok {
		return fileError{v.path, fmt.Errorf("no such entry %q", name)}
	}
	if js := jsonFlags(cmd); js.enabled() {
		return a.output(func(w *bufio.Writer) error { return js.write(w, storeJSON(e)) })
	}
	return a.output(func(w *bufio.Writer) error {
		t := &table{}
		t.add("name", nameText(e.Name))
		t.add("kind", sanitizeLine(e.Kind))
		date, _ := storeDate(e, time.Now())
		if s, ok := e.Created(); ok {
			date = fmt.Sprintf("%s (%s) %s", date, humanize.Ago(time.Now(), s), sanitizeLine(e.CreatedAt))
		}
		t.add("created", date)
		if len(e.Aliases) > 0 {
			t.add("aliases", aliasList(e.Aliases, 1<<20))
		}
		t.add("size", humanize.Plural(len(e.Content), "byte")+", "+humanize.Plural(documentTokens(e.Content, e.Aliases), "token"))
		t.add("key", sanitizeLine(e.Key))
		return writeCard(w, t, e.Content)
	})
}

// exportStore prints a store's entries as JSON lines, in key order.
func (a *app) exportStore(v *storeView) error {
	return a.output(func(w *bufio.Writer) error {
		for _, e := range v.entries {
			b, err := marshal(storeJSON(e))
			if err != nil {
				return err
			}
			w.Write(b)
			w.WriteByte('\n')
		}
		return nil
	})
}

// dumpStore writes a store's memory as the mdbook tree of SPEC §5.
func (a *app) dumpStore(v *storeView, dir string) error {
	entries, notices := toV1Entries(v.entries)
	for _, n := range notices {
		fmt.Fprintf(a.stderr, "crmem: %s\n", sanitizeLine(n))
	}
	if err := export.Dump(dir, entries); err != nil {
		return err
	}
	_, err := fmt.Fprintf(a.stdout, "dumped %s to %s\n", exportCount(entries), quotePath(dir))
	return err
}

// jsonFlags reads a subcommand's --json and --pretty flags (its own
// variables belong to its v1 code path).
func jsonFlags(cmd *cobra.Command) jsonOutput {
	var o jsonOutput
	o.json, _ = cmd.Flags().GetBool("json")
	o.pretty, _ = cmd.Flags().GetBool("pretty")
	return o
}
