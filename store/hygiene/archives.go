package hygiene

import (
	"fmt"
	"time"

	"github.com/crmem/crmem/internal/humanize"
	"github.com/crmem/crmem/store"
)

// findArchives reports archives no session's compact marker names
// (orphans; only when Options.Refs is set) and archives created before
// Now - OlderThan (when OlderThan is set), as the TUI's orphan filter and
// "mark older" compute them: a marker names the entry a lookup of its
// archive name finds (the last entry of that name, else the lowest id with
// that alias, SPEC §2), and ages compare the file's unsigned seconds.
func findArchives(entries []store.Entry, o *Options, r *Report) {
	referenced := referencedIDs(entries, o)
	now := o.now()
	cutoff := now.Add(-o.OlderThan).Unix()
	for i := range entries {
		e := &entries[i]
		if e.Kind != store.Archive {
			continue
		}
		orphan := o.Refs != nil && !referenced[e.ID]
		old := o.OlderThan > 0 && cutoff > 0 && e.CreatedAt < uint64(cutoff)
		if !orphan && !old {
			continue
		}
		r.Findings = append(r.Findings, archiveFinding(e, orphan, old, now))
	}
}

// archiveFinding describes one listed archive.
func archiveFinding(e *store.Entry, orphan, old bool, now time.Time) Finding {
	f := Finding{Kind: Archive, Check: "orphan", Entries: sortedRefs(e),
		Archive: &ArchiveDetail{Orphan: orphan, CreatedAt: e.CreatedAt}}
	age := humanize.Ago(now, e.CreatedAt)
	switch {
	case orphan && old:
		f.Reason = fmt.Sprintf("archive %q is referenced by no session and was created %s", e.Name, age)
	case orphan:
		f.Reason = fmt.Sprintf("archive %q is referenced by no session", e.Name)
	default:
		f.Check = "old"
		f.Reason = fmt.Sprintf("archive %q was created %s", e.Name, age)
	}
	return f
}

// referencedIDs resolves every archive name a session's marker names to
// the entry it names.
func referencedIDs(entries []store.Entry, o *Options) map[uint64]bool {
	out := map[uint64]bool{}
	if o.Refs == nil {
		return out
	}
	byName := map[string]uint64{}
	byAlias := map[string]uint64{}
	for i := range entries {
		e := &entries[i]
		byName[e.Name] = e.ID // the last entry of a name wins, as a lookup's
		for _, a := range e.Aliases {
			if id, ok := byAlias[a]; !ok || e.ID < id {
				byAlias[a] = e.ID
			}
		}
	}
	for name := range o.Refs.ReferencedBy {
		if id, ok := byName[name]; ok {
			out[id] = true
		} else if id, ok := byAlias[name]; ok {
			out[id] = true
		}
	}
	return out
}
