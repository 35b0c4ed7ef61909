package crabdb

import (
	"errors"
	"fmt"
)

// ErrFormat is matched (errors.Is) by every reason a store cannot be read.
var ErrFormat = errors.New("bad crabdb store")

// Error is why a store cannot be read, with crabdb's wording where crabdb
// has one ("not a CRMEM file", "unknown record op 2", …) and the byte offset
// it concerns (-1 when it concerns the file as a whole).
type Error struct {
	Reason string
	Offset int64
}

// Error prints "crabdb: REASON" or "crabdb: REASON at offset N".
func (e *Error) Error() string {
	if e.Offset < 0 {
		return "crabdb: " + e.Reason
	}
	return fmt.Sprintf("crabdb: %s at offset %d", e.Reason, e.Offset)
}

// Is makes errors.Is(err, ErrFormat) true.
func (e *Error) Is(target error) bool { return target == ErrFormat }

// fail builds an Error about the file as a whole.
func fail(format string, v ...any) *Error {
	return &Error{Reason: fmt.Sprintf(format, v...), Offset: -1}
}

// failAt builds an Error about the bytes at off.
func failAt(off int64, format string, v ...any) *Error {
	return &Error{Reason: fmt.Sprintf(format, v...), Offset: off}
}
