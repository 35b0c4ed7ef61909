package editor

import (
	"errors"
	"fmt"
	"strings"

	"github.com/crmem/crmem/store"
)

// Choice is the user's answer to a conflict: the entry changed on disk (or a
// new note's name was taken) while the editor was open.
type Choice int

// The ways out of a conflict.
const (
	KeepMine   Choice = iota // save my text over theirs
	KeepTheirs               // drop my change (the temp file stays)
	SaveAsNew                // save my text as a new note beside theirs
)

// Key is the letter that picks the choice at a prompt.
func (c Choice) Key() string {
	switch c {
	case KeepMine:
		return "m"
	case KeepTheirs:
		return "t"
	}
	return "n"
}

// String names the choice as the prompts show it.
func (c Choice) String() string {
	switch c {
	case KeepMine:
		return "keep mine"
	case KeepTheirs:
		return "keep theirs"
	case SaveAsNew:
		return "save mine as a new note"
	}
	return fmt.Sprintf("choice(%d)", int(c))
}

// IsConflict reports whether err from DB.Apply of a Changed result is a
// conflict the user must resolve: ErrConflict for an edit, ErrNameTaken for
// a new note whose name someone else took meanwhile.
func (s *Session) IsConflict(err error) bool {
	if s.New {
		return errors.Is(err, store.ErrNameTaken)
	}
	return errors.Is(err, store.ErrConflict) || errors.Is(err, store.ErrNotFound)
}

// Choices lists the choices that make sense for this session: a new note
// cannot overwrite the other note that took its name.
func (s *Session) Choices() []Choice {
	if s.New {
		return []Choice{SaveAsNew, KeepTheirs}
	}
	return []Choice{KeepMine, KeepTheirs, SaveAsNew}
}

// Fresh is the memory as it is now, where a conflict is resolved
// (*store.Memory is one).
type Fresh interface {
	Lookup(name string) (store.Entry, bool) // by the lookup rule
	Get(id uint64) (store.Entry, bool)
}

// Meanwhile is what happened to the edited entry while the editor was
// open, as found in fresh.
type Meanwhile struct {
	Kind   MeanwhileKind
	Theirs store.Entry // their version (all but TheyRemoved)
}

// MeanwhileKind names what another writer did to the edited entry.
type MeanwhileKind int

// What another writer may have done to the entry being edited.
const (
	TheyChanged  MeanwhileKind = iota // its content or aliases changed (same id, same name)
	TheyRenamed                       // same id, another name (perhaps changed too)
	TheyRemoved                       // gone, and its name is free
	TheyReplaced                      // removed, and another entry now has its name
	NameTaken                         // a new note's name was taken meanwhile
)

// Happened finds what happened to the edited entry in fresh.
func (s *Session) Happened(fresh Fresh) Meanwhile {
	if s.New {
		e, _ := fresh.Lookup(s.Original.Name)
		return Meanwhile{Kind: NameTaken, Theirs: e}
	}
	if cur, ok := fresh.Get(s.Original.ID); ok {
		if cur.Name != s.Original.Name {
			return Meanwhile{Kind: TheyRenamed, Theirs: cur}
		}
		return Meanwhile{Kind: TheyChanged, Theirs: cur}
	}
	if cur, ok := fresh.Lookup(s.Original.Name); ok && cur.Name == s.Original.Name {
		return Meanwhile{Kind: TheyReplaced, Theirs: cur}
	}
	return Meanwhile{Kind: TheyRemoved}
}

// String says what happened, after the entry's name: "changed on disk",
// "was renamed to NAME", "was removed", …
func (w Meanwhile) String() string {
	switch w.Kind {
	case TheyRenamed:
		return "was renamed to " + w.Theirs.Name
	case TheyRemoved:
		return "was removed"
	case TheyReplaced:
		return "was removed and a new entry took its name"
	case NameTaken:
		return "was taken by another entry"
	}
	return "changed on disk"
}

// Resolve returns the operation carrying out choice for a Changed result
// whose save conflicted; nil for KeepTheirs. fresh is the memory as it is
// now. Keep mine updates the entry with the edited id without a
// precondition, under whatever name it has now; when the other side removed
// it, it is put back with its id and created_at, or, when another entry took
// its name meanwhile, mine replaces that entry's text.
func (s *Session) Resolve(r Result, c Choice, fresh Fresh) (store.Op, error) {
	switch c {
	case KeepTheirs:
		return nil, nil
	case SaveAsNew:
		name, err := FreeName(s.Original.Name, func(n string) bool { _, ok := fresh.Lookup(n); return ok })
		if err != nil {
			return nil, err
		}
		return store.Add{Name: name, Content: r.Content, Aliases: r.Aliases, Kind: store.Note}, nil
	case KeepMine:
		if s.New {
			return nil, errors.New("a new note cannot replace another entry; save it under a new name")
		}
		return s.keepMine(r, fresh), nil
	}
	return nil, fmt.Errorf("unknown choice %d", int(c))
}

func (s *Session) keepMine(r Result, fresh Fresh) store.Op {
	switch w := s.Happened(fresh); w.Kind {
	case TheyChanged, TheyRenamed, TheyReplaced:
		return store.Update{Name: w.Theirs.Name, Content: r.Content, Aliases: r.Aliases}
	}
	e := s.Original
	e.Content, e.Aliases = r.Content, r.Aliases
	return store.Restore{Entry: e}
}

// maxTries bounds the search for a free name.
const maxTries = 1000

// FreeName returns the first of NAME-mine, NAME-mine-2, NAME-mine-3, … that
// is a valid new name (store.ValidName) and not taken. A name that is not
// file-safe itself has its unsafe characters replaced first.
func FreeName(name string, taken func(string) bool) (string, error) {
	base := name + "-mine"
	if store.ValidName(base) != nil {
		base = safeName(name) + "-mine"
	}
	for i := 1; i <= maxTries; i++ {
		cand := base
		if i > 1 {
			cand = fmt.Sprintf("%s-%d", base, i)
		}
		if store.ValidName(cand) == nil && !taken(cand) {
			return cand, nil
		}
	}
	return "", fmt.Errorf("no free name like %q", base)
}

// safeName replaces what SPEC §2 forbids in new names.
func safeName(name string) string {
	s := strings.Map(func(r rune) rune {
		if r == '/' || r == '\\' || r < 0x20 || r == 0x7f {
			return '-'
		}
		return r
	}, name)
	for strings.Contains(s, "..") {
		s = strings.ReplaceAll(s, "..", ".")
	}
	s = strings.TrimLeft(s, ".")
	if s == "" {
		return "note"
	}
	return s
}
