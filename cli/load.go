package cli

import (
	"fmt"
	"io"
	"time"

	"github.com/spf13/cobra"

	"github.com/crmem/crmem/export"
	"github.com/crmem/crmem/internal/humanize"
	"github.com/crmem/crmem/store"
)

// loadCommand reads an mdbook tree back into the memory.
func loadCommand(o *opener, s streams) *cobra.Command {
	var merge bool
	c := &cobra.Command{
		Use:   "load DIR [--merge]",
		Short: "Replace the memory with a markdown tree written by dump",
		Long: `Read DIR/notes/*.md, DIR/archives/*.md and DIR/topics/*.md (each folder in file
name order; other files, hidden files and SUMMARY.md are ignored). Nothing
outside DIR is read: a symbolic link in the tree, to a file or a folder, and
anything that is not a regular file is skipped and named on standard error. An entry's
name is its file name without ".md"; a file that starts with crmem's metadata
block gives its creation time and aliases, any other file is all content and
is created now.

Without --merge the memory is replaced by the tree in one atomic save, with
ids renumbered from 1; an entry the tree holds unedited is put back exactly
as it was (content untrimmed, created_at to the fraction of a second on
crabtalk's store, where it is not written again), and a tree that holds the
memory as it is writes nothing. With --merge, entries of the tree replace the entries
with the same name (keeping their ids and creation times) or are added, and
entries that are not in the tree are kept.

Everything is checked first: an invalid file name, the same name twice or a
file that is not UTF-8 fails the load, naming every problem, and the memory is
left untouched.`,
		Example: `  crmem dump /tmp/brain && $EDITOR /tmp/brain/notes/deploy-steps.md && crmem load --merge /tmp/brain
  crmem load ~/memory-book --db ./restored.db`,
		Args: args(1, 1),
		RunE: func(_ *cobra.Command, args []string) error {
			entries, notices, err := export.Load(args[0], time.Now())
			notify(s.stderr, notices)
			if err != nil {
				return err
			}
			if merge {
				return mergeLoaded(o, s, entries, "merged "+quotePath(args[0]))
			}
			return loadEntries(o, s, entries, quotePath(args[0]))
		},
	}
	c.Flags().BoolVar(&merge, "merge", false, "replace same-named entries and add new ones, keeping the rest")
	return c
}

// notify prints notices (files skipped or renamed) on standard error.
func notify(w io.Writer, notices []string) {
	for _, n := range notices {
		fmt.Fprintf(w, "crmem: %s\n", sanitizeLine(n))
	}
}

// replaceEntries swaps the whole memory for entries in one atomic save and
// says what happened. next_id never goes down, so ids of entries that were
// in the memory are not handed out again.
func replaceEntries(o *opener, s streams, entries []store.Entry, verb, from string) error {
	if _, _, err := o.apply(keepStoreText, store.Replace{Entries: entries}); err != nil {
		return err
	}
	_, err := fmt.Fprintf(s.stdout, "%s %s from %s, replacing the memory\n", verb, exportCount(entries), from)
	return err
}

// loadEntries replaces the memory with a tree read from a dump, as
// replaceEntries does, except that an entry the tree holds unedited is put
// back exactly as it is (export.KeepUnchanged): its content untrimmed, and
// on crabtalk's store its created_at to the fraction of a second (such an
// entry is not written again). A tree that holds the memory as it is
// writes nothing.
func loadEntries(o *opener, s streams, entries []store.Entry, from string) error {
	same := false
	_, _, err := o.applyWith(keepStoreText, func(m *store.Memory) []store.Op {
		var kept []store.Entry
		kept, same = export.KeepUnchanged(m.Entries(), entries)
		if same {
			return nil
		}
		return []store.Op{store.Replace{Entries: kept}}
	})
	if err != nil {
		return err
	}
	if same {
		_, err = fmt.Fprintf(s.stdout, "loaded %s from %s: the memory holds them as they are, nothing written\n", exportCount(entries), from)
		return err
	}
	_, err = fmt.Fprintf(s.stdout, "loaded %s from %s, replacing the memory\n", exportCount(entries), from)
	return err
}

// mergeLoaded is mergeEntries for a tree read from a dump: a page not
// edited leaves its entry as it is (export.KeepUnchanged: the dump trims
// content, and the trim is no edit), so it counts as unchanged and is not
// written.
func mergeLoaded(o *opener, s streams, entries []store.Entry, what string) error {
	return merge(o, s, func(m *store.Memory) []store.Entry {
		kept, _ := export.KeepUnchanged(m.Entries(), entries)
		return kept
	}, export.MergeTree, what)
}

// mergeEntries merges entries into the memory by name in one atomic save.
// The plan is made on the file as read; if the file changes before the
// save, store re-applies it on the fresh state (or fails, changing nothing).
func mergeEntries(o *opener, s streams, entries []store.Entry, mode export.MergeMode, what string) error {
	return merge(o, s, func(*store.Memory) []store.Entry { return entries }, mode, what)
}

// merge merges what pick chooses from the memory as read into it by name,
// in one atomic save, and says what it did.
func merge(o *opener, s streams, pick func(*store.Memory) []store.Entry, mode export.MergeMode, what string) error {
	var plan export.Plan
	_, _, err := o.applyWith(keepStoreText, func(m *store.Memory) []store.Op {
		plan = export.MergeOps(m.Entries(), pick(m), mode)
		return plan.Ops
	})
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(s.stdout, "%s: %s replaced, %s added, %s unchanged\n",
		what, humanize.Count(plan.Replaced), humanize.Count(plan.Added), humanize.Count(plan.Unchanged))
	return err
}
