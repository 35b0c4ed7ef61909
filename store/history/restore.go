package history

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/crmem/crmem/store"
)

// Restoring a version: the operations that bring it back, and why one of
// another entry's cannot be.

// ErrCurrent is RestoreOps' answer for a version memory holds already.
var ErrCurrent = errors.New("that version is what memory holds now (nothing to restore)")

// RestoreOps are the operations that bring version v of h back under the
// name h.Name, through the one write path: current is the entry of that
// name now (nil when there is none). An entry that exists gets v's content
// and aliases (its kind, id and created_at kept, as every edit keeps
// them); one that does not is added with v's kind, content, aliases and
// created_at (to the second: a store's sub-second part is not kept). A
// deletion cannot be restored; the version before it can.
func RestoreOps(h History, v Version, current *store.Entry) ([]store.Op, error) {
	if err := OtherEntry(h, v); err != nil {
		return nil, err
	}
	switch v.Action {
	case Delete:
		return nil, fmt.Errorf("version #%d is a deletion: restore a version before it", v.N)
	case RenameOut:
		return nil, fmt.Errorf("version #%d is the rename of %q to %q: restore a version before it", v.N, v.Name, v.To)
	}
	aliases := v.Aliases
	if aliases == nil {
		aliases = []string{}
	}
	if current != nil {
		if current.Content == v.Content && slices.Equal(current.Aliases, aliases) {
			return nil, ErrCurrent
		}
		exp := *current
		return []store.Op{store.Update{Name: current.Name, Content: v.Content, Aliases: aliases, Expect: &exp}}, nil
	}
	kind := store.Note
	if k, err := store.ParseKind(v.Kind); err == nil {
		kind = k
	}
	var created uint64
	if t, err := time.Parse(time.RFC3339Nano, v.CreatedAt); err == nil && t.Unix() > 0 {
		created = uint64(t.Unix())
	}
	// The text as stored too: crabtalk's store keeps its fraction of a
	// second (a v1 file keeps seconds only).
	return []store.Op{store.Add{Name: h.Name, Content: v.Content, Aliases: aliases, Kind: kind, CreatedAt: created, CreatedAtText: v.CreatedAt}}, nil
}

// OtherEntry says why version v of h cannot be restored when it belongs to
// an earlier entry that had the name (a life before the last): restoring
// it would put another entry's content into this one, the content of an
// entry that went on under another name, or one deleted before this was
// created; or when the name's last entry was renamed away (restored
// under its new name, not copied back under this one). nil for this
// entry's versions.
func OtherEntry(h History, v Version) error {
	if n := len(h.Lives); n > 0 && h.Lives[n-1].Ended == LifeRenamed && v.Life == h.Lives[n-1].N {
		// The entry went on under another name: a version brought back
		// here would be a copy of it.
		l := h.Lives[n-1]
		return fmt.Errorf("version #%d is of the entry renamed to %q at #%d: restore it under that name (its history holds this version)", v.N, l.To, l.Last)
	}
	if len(h.Lives) < 2 || v.Life == h.Lives[len(h.Lives)-1].N {
		return nil
	}
	var l Life
	for _, x := range h.Lives {
		if x.N == v.Life {
			l = x
		}
	}
	this := h.Lives[len(h.Lives)-1]
	why := "an earlier entry named " + strconv.Quote(h.Name)
	switch l.Ended {
	case LifeRenamed:
		why += fmt.Sprintf(", renamed to %q at #%d (its story goes on under that name)", l.To, l.Last)
	case LifeDeleted:
		why += fmt.Sprintf(", deleted at #%d", l.Last)
	case LifeReplaced:
		why += ", removed or renamed away before this one was created"
	}
	span := fmt.Sprintf("#%d", this.First)
	if this.Last != this.First {
		span += fmt.Sprintf("–#%d", this.Last)
	}
	return fmt.Errorf("version #%d is of %s: restore takes only this entry's versions (%s)", v.N, why, span)
}
