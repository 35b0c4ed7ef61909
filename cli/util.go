package cli

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"runtime/debug"
	"strings"
	"unicode/utf8"

	"github.com/charmbracelet/x/term"
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
// lower layers add, so the path is named exactly once.
func reason(path string, err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) && pe.Path == path {
		if errors.Is(pe.Err, fs.ErrNotExist) {
			return "no such file"
		}
		return pe.Err.Error()
	}
	msg := err.Error()
	if i := strings.LastIndex(msg, path+": "); i >= 0 {
		msg = msg[i+len(path)+2:]
	}
	return msg
}

// readMemoryFile reads the memory file for a read-only subcommand. A missing
// file is an error here ("no such file"): there is nothing to read.
func (a *app) readMemoryFile() (string, []byte, error) {
	path, err := a.dbPath()
	if err != nil {
		return "", nil, err
	}
	data, err := store.ReadFile(path) // a regular file only: a FIFO or device fails at once
	if err != nil {
		return path, nil, a.memoryFileError(path, err)
	}
	return path, data, nil
}

// withoutGC runs fn with the garbage collector off, for a command that reads
// the memory once and leaves almost no garbage (search, show): all it
// allocates (the file, its entries) stays live until it exits, so a
// collection would only mark it; at 3k entries the one cycle that ran was a
// tenth of the process's CPU. The previous setting is restored after fn,
// so a caller that runs commands in process (tests) collects again.
func withoutGC(fn func() error) error {
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	return fn()
}

// decodeFile reads and decodes the memory file without indexing it.
func (a *app) decodeFile() (string, *store.File, error) {
	path, data, err := a.readMemoryFile()
	if err != nil {
		return path, nil, err
	}
	f, err := store.Decode(data)
	if err != nil {
		return path, nil, fileError{path, err}
	}
	return path, f, nil
}

// openIndexed reads and decodes the memory file for a read-only subcommand
// that needs the whole bm25 index (search --explain, bench): it is built on
// every core while the id map is, and is ready when it returns (the name
// and alias maps wait until a name is resolved). A plain search, ls and
// show work on the decoded file (store.File) and build neither.
func (a *app) openIndexed() (string, *store.Memory, error) {
	path, f, err := a.decodeFile()
	if err != nil {
		return path, nil, err
	}
	return path, store.NewMemoryWith(f, store.IndexNow), nil
}

// apply opens the memory file (missing: empty) and applies ops through
// store.DB.Apply: atomic, locked, and re-applied on a fresh read if someone
// else wrote the file meanwhile. describe turns a store error into a message
// that names what failed (it may return nil to keep the store's text).
func (a *app) apply(describe describer, ops ...store.Op) (string, []store.Change, error) {
	return a.applyWith(describe, func(*store.Memory) []store.Op { return ops })
}

// applyWith is apply with the operations built from the memory as read;
// no operations write nothing (nor take the lock). The bm25 index is never
// built: a write does not search.
func (a *app) applyWith(describe describer, prepare func(*store.Memory) []store.Op) (string, []store.Change, error) {
	path, err := a.dbPath()
	if err != nil {
		return "", nil, err
	}
	db, err := a.openForWrite(path)
	if err != nil {
		return path, nil, fileError{path, err}
	}
	ops := prepare(db.Memory())
	if len(ops) == 0 {
		return path, nil, nil
	}
	changes, err := db.Apply(ops...)
	if err != nil {
		if d := describe(db.Memory(), err); d != nil {
			err = d
		}
		return path, nil, fileError{path, err}
	}
	return path, changes, nil
}

// openForWrite opens the memory file for a write without its bm25 index:
// building it would cost more than the write (a load re-indexes nothing).
func (a *app) openForWrite(path string) (*store.DB, error) {
	if a.openHook != nil {
		return a.openHook(path)
	}
	opts := store.Options{Index: store.IndexOnDemand}
	if isTerminal(a.stderr) {
		// Writers queue behind one another; a person at a terminal is told
		// why nothing happens yet.
		opts.OnLockWait = func() {
			fmt.Fprintf(a.stderr, "crmem: waiting for another crmem write to %s to finish…\n", quotePath(path))
		}
	}
	return store.OpenWith(path, opts)
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

// validNewName checks a name that crmem is about to create (add, rename).
func validNewName(name string) error {
	if !utf8.ValidString(name) {
		return fmt.Errorf("name %q is not valid UTF-8", name)
	}
	return store.ValidName(name)
}

// validText checks that a string going into the file is valid UTF-8 (the
// format rejects anything else on read).
func validText(what, s string) error {
	if !utf8.ValidString(s) {
		return fmt.Errorf("%s is not valid UTF-8", what)
	}
	return nil
}

// validAliases checks every alias going into the file.
func validAliases(aliases []string) error {
	for _, al := range aliases {
		if err := validText(fmt.Sprintf("alias %q", al), al); err != nil {
			return err
		}
		if al == "" {
			return errors.New("an alias cannot be empty")
		}
	}
	return nil
}

// content returns the CONTENT argument, or standard input when it is absent
// or "-". Standard input is taken byte for byte.
func (a *app) content(args []string, at int) (string, error) {
	if len(args) > at && args[at] != "-" {
		if err := validText("content", args[at]); err != nil {
			return "", err
		}
		return args[at], nil
	}
	if isTerminal(a.stdin) {
		fmt.Fprintln(a.stderr, "crmem: reading content from standard input (end with ctrl+d)")
	}
	b, err := io.ReadAll(a.stdin)
	if err != nil {
		return "", fmt.Errorf("read standard input: %w", err)
	}
	if !utf8.Valid(b) {
		return "", errors.New("content on standard input is not valid UTF-8")
	}
	return string(b), nil
}

// isTerminal reports whether r is an interactive terminal (not merely a
// character device such as /dev/null).
func isTerminal(r any) bool {
	f, ok := r.(*os.File)
	return ok && term.IsTerminal(f.Fd())
}

// kindFlag parses an optional --kind value of cmd; "" means every kind.
func kindFlag(cmd *cobra.Command, s string) (*store.Kind, error) {
	if s == "" {
		return nil, nil
	}
	k, err := store.ParseKind(s)
	if err != nil {
		return nil, usage(cmd, "--kind: %v", err)
	}
	return &k, nil
}

// args returns a positional-argument check that reports a usage error with
// the command's synopsis as a hint.
func args(min, max int) cobra.PositionalArgs {
	return func(cmd *cobra.Command, a []string) error {
		if len(a) >= min && (max < 0 || len(a) <= max) {
			return nil
		}
		what := "too many arguments"
		if len(a) < min {
			what = "missing arguments"
		}
		return usage(cmd, "%s; usage: %s", what, cmd.UseLine())
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

// dedupe drops repeated strings, keeping the first occurrence.
func dedupe(ss []string) []string {
	seen := make(map[string]bool, len(ss))
	out := make([]string, 0, len(ss))
	for _, s := range ss {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

// quoteAll quotes each string, Go-style.
func quoteAll(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = fmt.Sprintf("%q", s)
	}
	return out
}
