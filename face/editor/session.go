// Package editor runs one edit of a memory entry in the user's $EDITOR,
// independently of any UI: it writes the entry to a private temp file in the
// dump format, builds the editor command, reads the file back and turns the
// result into a store operation, and offers the ways out of a conflict. It
// never loses the user's text: the temp file is removed only once nothing in
// it is unsaved.
package editor

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/crmem/crmem/internal/safefile"
	"github.com/crmem/crmem/store"
)

// QuickReturn is how soon an editor may return with no change before the
// result hints that it probably forked (a GUI editor without its wait flag).
const QuickReturn = time.Second

// Options configure a Session. Zero values use the process environment.
type Options struct {
	Getenv  func(string) string // default os.Getenv
	TempDir string              // parent of the private folder; default $TMPDIR (through Getenv), else os.TempDir()
	Now     func() time.Time    // default time.Now
}

// Session is one edit of one entry (or of a new note).
type Session struct {
	Original store.Entry // the entry as it was when the edit began
	New      bool        // a new note: saving adds rather than updates

	dir, path string
	lock      *os.File // the folder's lock, held while the edit lives (stale.go)
	written   []byte
	argv      []string
	now       func() time.Time
	started   time.Time
}

// Edit prepares an edit of e: a 0700 folder holding a 0600 NAME.md file with
// e in the dump format, and the editor command.
func Edit(e store.Entry, opts Options) (*Session, error) {
	return start(e, false, opts)
}

// NewNote prepares the editor on an empty note called name.
func NewNote(name string, opts Options) (*Session, error) {
	return start(store.Entry{Name: name, Kind: store.Note}, true, opts)
}

func start(e store.Entry, isNew bool, opts Options) (*Session, error) {
	opts = opts.withDefaults()
	argv, err := Command(opts.Getenv)
	if err != nil {
		return nil, err
	}
	if isNew && e.CreatedAt == 0 {
		e.CreatedAt = uint64(opts.Now().Unix())
	}
	RemoveStale(opts) // folders of edits a killed crmem left, holding an entry's text
	s := &Session{Original: e, New: isNew, argv: argv, now: opts.Now, written: formatEntry(e)}
	if err := s.writeTemp(opts.TempDir); err != nil {
		return nil, err
	}
	return s, nil
}

func (o Options) withDefaults() Options {
	if o.Getenv == nil {
		o.Getenv = os.Getenv
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.TempDir == "" {
		o.TempDir = o.Getenv("TMPDIR") // "" leaves it to os.TempDir
	}
	return o
}

// writeTemp creates the private folder and file. os.MkdirTemp makes the
// folder 0700 (chmod'ed again, whatever the umask); the file is created
// 0600 and exclusively. The folder is locked while the session lives and
// holds the sum of what was written, so that a later crmem can tell a
// folder a killed one left from one in use or holding the user's text
// (RemoveStale).
func (s *Session) writeTemp(parent string) error {
	dir, err := os.MkdirTemp(parent, tempPattern)
	if err != nil {
		return fmt.Errorf("create temp folder: %w", err)
	}
	s.dir, s.path = dir, filepath.Join(dir, fileName(s.Original.Name))
	err = os.Chmod(dir, 0o700)
	if err == nil {
		s.lock, err = lockDir(dir)
	}
	if err == nil {
		err = writeSum(dir, s.written)
	}
	if err == nil {
		var f *os.File
		f, err = os.OpenFile(s.path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if err == nil {
			_, err = f.Write(s.written)
			if cerr := f.Close(); err == nil {
				err = cerr
			}
		}
	}
	if err != nil {
		s.unlock()
		os.RemoveAll(dir)
		return fmt.Errorf("write temp file: %w", err)
	}
	return nil
}

// unlock releases the folder's lock.
func (s *Session) unlock() {
	if s.lock != nil {
		s.lock.Close()
		s.lock = nil
	}
}

// fileName is NAME.md with anything unsafe in a file name replaced, so the
// editor shows which entry it is and highlights markdown.
func fileName(name string) string {
	safe := strings.Map(func(r rune) rune {
		if r == '/' || r == '\\' || r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) {
			return '_'
		}
		return r
	}, name)
	safe = strings.Trim(safe, ". ")
	if len(safe) > 100 {
		safe = strings.ToValidUTF8(safe[:100], "")
	}
	if safe == "" {
		safe = "entry"
	}
	return safe + ".md"
}

// Path is the temp file the editor edits.
func (s *Session) Path() string { return s.path }

// Argv is the full editor command line, ending with the temp file.
func (s *Session) Argv() []string { return append(slices.Clone(s.argv), s.path) }

// Cmd returns the editor process (streams unset: tea.ExecProcess or the
// caller attaches the terminal) and starts the clock for the quick-return
// hint.
func (s *Session) Cmd() *exec.Cmd {
	argv := s.Argv()
	s.started = s.now()
	return exec.Command(argv[0], argv[1:]...)
}

// Cleanup removes the temp folder. Call it only once the text is saved or
// known to be unchanged.
func (s *Session) Cleanup() error {
	defer s.unlock()
	if err := os.RemoveAll(s.dir); err != nil {
		return fmt.Errorf("remove temp folder: %w", err)
	}
	return nil
}

// Finish reads the file back after the editor exited with runErr. An
// unchanged file is removed at once; in every other case the file stays
// until the caller saves successfully and calls Cleanup.
func (s *Session) Finish(runErr error) Result {
	r := Result{Name: s.Original.Name, Path: s.path}
	if runErr != nil {
		r.Outcome, r.Err = EditorFailed, runErr
		if !ran(runErr) {
			r.Path = "" // nothing was edited: nothing to keep
			if err := s.Cleanup(); err != nil {
				r.Err = errors.Join(runErr, err)
			}
		}
		return r
	}
	data, err := safefile.ReadFile(s.path, safefile.Options{Limit: max(store.EntryReadMax, 2*int64(len(s.written))), What: "edited entry file"})
	if err != nil {
		r.Outcome, r.Err = Unreadable, err
		return r
	}
	if bytes.Equal(data, s.written) {
		return s.unchanged(r)
	}
	content, aliases, created, err := parseEntry(s.Original.Name, data)
	if err != nil {
		r.Outcome, r.Err = Unreadable, err
		return r
	}
	if s.same(content, aliases, created) {
		return s.unchanged(r)
	}
	r.Outcome, r.Content, r.Aliases = Changed, content, aliases
	r.Ops = s.saveOps(content, aliases, created)
	r.Op = r.Ops[0]
	return r
}

// ran reports whether the editor process started (and then failed), as
// opposed to not being found or not being executable.
func ran(runErr error) bool {
	var ee *exec.ExitError
	return errors.As(runErr, &ee)
}

// unchanged cleans up and notes a suspiciously quick return of an editor
// known to fork (a quick :q in vi is just a quick :q).
func (s *Session) unchanged(r Result) Result {
	r.Outcome = Unchanged
	r.Quick = !s.started.IsZero() && s.now().Sub(s.started) < QuickReturn && forksWithoutWait(s.argv)
	if err := s.Cleanup(); err != nil {
		r.Err = err
	}
	r.Path = ""
	return r
}

// same reports whether the parsed text equals the original as the dump
// format would give it back (which trims the content).
func (s *Session) same(content string, aliases []string, created uint64) bool {
	orig, origAliases, origCreated, err := parseEntry(s.Original.Name, s.written)
	if err != nil {
		orig, origAliases, origCreated = s.Original.Content, s.Original.Aliases, created
	}
	return content == orig && slices.Equal(aliases, origAliases) && !s.createdChanged(created, origCreated)
}

// createdChanged reports whether the user changed the Created time (the
// dump format writes a time beyond year 9999 as the epoch: reading that
// back is no change).
func (s *Session) createdChanged(created, written uint64) bool {
	return !s.New && created != written
}

// saveOps are the operations that save a changed text: an Update guarded
// by the original for an edit; for an edit that also changed Created, the
// original removed and put back with its id and the new time (one atomic
// write, undone as one); an Add for a new note.
func (s *Session) saveOps(content string, aliases []string, created uint64) []store.Op {
	if s.New {
		return []store.Op{store.Add{Name: s.Original.Name, Content: content, Aliases: aliases, Kind: store.Note}}
	}
	orig := s.Original
	_, _, written, err := parseEntry(orig.Name, s.written)
	if err == nil && s.createdChanged(created, written) {
		e := orig
		e.Content, e.Aliases, e.CreatedAt = content, aliases, created
		return []store.Op{store.Remove{Name: orig.Name, Expect: &orig}, store.Restore{Entry: e}}
	}
	return []store.Op{store.Update{Name: orig.Name, Content: content, Aliases: aliases, Expect: &orig}}
}
