package cli

import (
	"errors"
	"fmt"
	"io/fs"
	"strings"

	"github.com/spf13/cobra"

	"github.com/crmem/crmem/store"
)

// fileError is a failure that concerns one file; it prints as
// "<path>: <reason>", the form every crmem error line takes.
type fileError struct {
	path string
	err  error
}

// Error names the path Go-quoted when it holds a character that would not
// read as itself (SPEC §6), so two paths never print alike.
func (e fileError) Error() string { return quotePath(e.path) + ": " + reason(e.path, e.err) }

func (e fileError) Unwrap() error { return e.err }

// reason is err's message without the operation and path prefixes that
// lower layers add (store.Cause), so the path is named exactly once.
func reason(path string, err error) string {
	c := store.Cause(path, err)
	if c != err && errors.Is(c, fs.ErrNotExist) {
		return "no such file"
	}
	return c.Error()
}

// describer turns a failed operation's error into a message naming what
// failed, given the memory it was applied to; nil keeps the store's text.
type describer func(m *store.Memory, err error) error

// notFound names the entry when err is store.ErrNotFound.
func notFound(name string) describer {
	return func(_ *store.Memory, err error) error {
		if errors.Is(err, store.ErrNotFound) {
			return fmt.Errorf("no such entry %q", name)
		}
		return nil
	}
}

// nameTaken names the name when err is store.ErrNameTaken.
func nameTaken(name string) describer {
	return func(_ *store.Memory, err error) error {
		if errors.Is(err, store.ErrNameTaken) {
			return fmt.Errorf("name %q is already taken", name)
		}
		return nil
	}
}

// keepStoreText keeps the store's error text as it is.
func keepStoreText(*store.Memory, error) error { return nil }

// firstOf returns the first message any of the describers gives.
func firstOf(ds ...describer) describer {
	return func(m *store.Memory, err error) error {
		for _, d := range ds {
			if msg := d(m, err); msg != nil {
				return msg
			}
		}
		return nil
	}
}

// usage builds a usage error (exit status 2): "SUB: MESSAGE (see 'crmem
// SUB --help')", one line.
func usage(cmd *cobra.Command, format string, v ...any) error {
	msg := fmt.Sprintf(format, v...)
	if cmd.HasParent() {
		sub := strings.TrimPrefix(cmd.CommandPath(), cmd.Root().Name()+" ")
		msg = sub + ": " + msg
	}
	return usageError{fmt.Errorf("%s (see '%s --help')", msg, cmd.CommandPath())}
}
