//go:build !linux

package safefile

import "io/fs"

// EachEntry calls fn with the name and type (fs.ModeType bits: 0 for a
// regular file) of each of the folder's entries, as Entries lists them;
// name is valid only until fn returns.
func (d *Dir) EachEntry(fn func(name []byte, typ fs.FileMode)) error {
	ents, err := d.Entries()
	if err != nil {
		return err
	}
	for _, e := range ents {
		fn([]byte(e.Name()), e.Type())
	}
	return nil
}
