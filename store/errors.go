package store

import (
	"errors"
	"io/fs"

	"github.com/crmem/crmem/internal/safefile"
)

// ErrBadFormat is matched (errors.Is) by every decode failure. The error's
// text is "bad memory file format: <reason>" with the reference
// implementation's reason, e.g. "truncated body".
var ErrBadFormat = errors.New("bad memory file format")

// ErrNotFound is returned when an operation names no entry, by name or alias.
var ErrNotFound = errors.New("no such entry")

// ErrNameTaken is returned when Add, Rename or Restore would give an entry a
// name another entry already has.
var ErrNameTaken = errors.New("name already taken")

// ErrIDTaken is returned when Restore (or Replace) would reuse an id that is
// in use.
var ErrIDTaken = errors.New("id already taken")

// ErrSharedID is returned by an op other than Remove that names an entry
// whose id a later entry in the file also holds (a file from elsewhere).
var ErrSharedID = errors.New("entry shares its id with another entry")

// ErrInvalidName is returned when a name given to Add or Rename is not safe as
// a dump file name (SPEC §2).
var ErrInvalidName = errors.New("invalid name")

// ErrInvalidEntry is returned when an operation would store something the
// file format cannot hold: text that is not valid UTF-8 or a kind above
// Topic. Writing it would produce a file that no reader accepts.
var ErrInvalidEntry = errors.New("invalid entry")

// ErrConflict is returned when an operation's Expect precondition no longer
// holds on the fresh file: someone else changed or removed the entry.
var ErrConflict = errors.New("entry changed on disk")

// ErrNotRegular is returned when the memory path leads (after symlinks) to
// something other than a regular file: a folder, FIFO, socket or device.
var ErrNotRegular = safefile.ErrNotRegular

// ErrTooLong is returned when a string cannot be encoded: the format's
// length prefix is a u32, so 4 GiB or more does not fit.
var ErrTooLong = errors.New("string too long for the file format (4 GiB or more)")

// ErrLocked is returned by DB.Apply when Options.LockTimeout is set and
// another writer held the lock for longer than that (by default writers
// wait their turn).
var ErrLocked = errors.New("memory file is locked by another writer")

// formatError is a decode failure: ErrBadFormat plus the reference's reason.
type formatError struct{ reason string }

func (e *formatError) Error() string { return ErrBadFormat.Error() + ": " + e.reason }

// Is makes errors.Is(err, ErrBadFormat) true.
func (e *formatError) Is(target error) bool { return target == ErrBadFormat }

// The reject reasons, with the reference implementation's text.
var (
	errShortHeader = &formatError{"file shorter than header"}
	errMagic       = &formatError{"invalid magic"}
	errVersion     = &formatError{"unsupported version"}
	errFlags       = &formatError{"unknown flags"}
	errTruncated   = &formatError{"truncated body"}
	errUTF8        = &formatError{"invalid utf8"}
	errKind        = &formatError{"unknown entry kind"}
)

// PathError is a failure that concerns the memory file at Path. It prints
// "<Path>: <Err>"; a caller that shows the path itself (the CLI quoting it,
// the TUI's status line) takes Path and Err with errors.As instead of
// cutting the path out of the text.
type PathError struct {
	Path string
	Err  error
}

// Error returns "<Path>: <Err>".
func (e *PathError) Error() string { return e.Path + ": " + e.Err.Error() }

// Unwrap returns the underlying error, so errors.Is sees ErrBadFormat,
// fs.ErrNotExist and the rest through it.
func (e *PathError) Unwrap() error { return e.Err }

// Cause is err without the layers that name the file at path, for a
// message that names the file once itself (the CLI's "path: reason", the
// TUI's status line): the cause inside a *PathError or an *fs.PathError
// for path, however they nest, taken with errors.As (every layer names a
// file through one of the two, never in its text alone). It is err when
// no layer names path.
func Cause(path string, err error) error {
	for {
		var fe *fs.PathError
		var pe *PathError
		switch {
		case errors.As(err, &fe) && fe.Path == path:
			err = fe.Err
		case errors.As(err, &pe) && pe.Path == path:
			err = pe.Err
		default:
			return err
		}
	}
}
