package dialog

import (
	"fmt"

	"github.com/crmem/crmem/store"
	"github.com/crmem/crmem/tui/part"
)

// FreeName accepts a name for a new entry or a rename: a valid name that
// no entry of the memory holds as it is when enter is pressed (the
// context's memory, never a copy taken when the prompt opened); Same,
// the entry's current name, is always accepted.
type FreeName struct{ Same string }

// Check refuses an invalid name and one an entry holds.
func (f FreeName) Check(c *part.Context, v string) error {
	if v == f.Same && f.Same != "" {
		return nil
	}
	if err := store.ValidName(v); err != nil {
		return err
	}
	if c.Memory == nil {
		return nil
	}
	if w := c.Memory.Features().Writer; w != nil {
		if e, ok := w.Memory().Lookup(v); ok && e.Name == v {
			return fmt.Errorf("%q is taken", v)
		}
	}
	return nil
}
