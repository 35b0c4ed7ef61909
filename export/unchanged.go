package export

import (
	"slices"
	"strings"

	"github.com/crmem/crmem/store"
)

// KeepUnchanged is a tree loaded from a dump (incoming, as Load read it)
// with every entry that is the dump of an entry of current, unedited,
// replaced by that entry as it is: its content as stored (the dump format
// trims it), under the id incoming gave it. An incoming entry is such a
// dump when it has the entry's name, kind, aliases and created_at (the
// dump keeps seconds), and its content is the entry's or the entry's
// trimmed as the dump format trims it. A load of an unedited dump thus
// puts back exactly what is there, and same reports it: every incoming
// entry was one and current holds no other, so there is nothing to write.
func KeepUnchanged(current, incoming []store.Entry) (out []store.Entry, same bool) {
	byName := make(map[string]*store.Entry, len(current))
	for i := range current {
		byName[current[i].Name] = &current[i]
	}
	out = slices.Clone(incoming)
	kept := 0
	for i, in := range out {
		cur := byName[in.Name]
		if cur == nil || !dumpOf(in, cur) {
			continue
		}
		kept++
		out[i].Content = cur.Content
	}
	return out, kept == len(incoming) && len(incoming) == len(current)
}

// dumpOf reports whether in is what the dump of cur reads back as.
func dumpOf(in store.Entry, cur *store.Entry) bool {
	created := cur.CreatedAt
	if created > maxRFC3339 {
		created = 0 // the dump writes the epoch
	}
	return in.Kind == cur.Kind && in.CreatedAt == created && slices.Equal(in.Aliases, cur.Aliases) &&
		(in.Content == cur.Content || in.Content == strings.TrimSpace(cur.Content))
}
