package cli

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strings"

	"github.com/spf13/cobra"

	"github.com/crmem/crmem/face/editor"
	"github.com/crmem/crmem/store"
)

// editCommand runs $EDITOR on one entry, as the TUI's e key does.
func editCommand(o *opener, s streams) *cobra.Command {
	var noTerminal bool
	c := &cobra.Command{
		Use:   "edit NAME [--no-terminal]",
		Short: "Edit one entry's content and aliases in $EDITOR",
		Long: `Write the entry to a private temp file in the dump format (a meta block with
its aliases, then the content), run $VISUAL, else $EDITOR, else vi on it, and
save what changed. The variable may hold arguments ("code -w", "nvim -u NONE").

If the entry changed on disk while the editor was open, you choose on the
terminal: keep mine, keep theirs, or save mine as a new note. Without a
terminal, or when the editor fails or the file no longer reads back, nothing
is saved, the exit status is 1 and the temp file holding your text is named.

A terminal editor needs the terminal as its standard input: when standard
input is not a terminal (a pipe, /dev/null), edit refuses before starting
the editor. --no-terminal runs it anyway, for an editor with a window of
its own ("code -w", "gvim -f"); scripts change entries with write, update
and alias instead.`,
		Example: `  crmem edit deploy-steps
  EDITOR="code -w" crmem edit ship --no-terminal`,
		Args:              args(1, 1),
		ValidArgsFunction: o.completeNames(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			interactive := isTerminal(s.stdin)
			if !interactive && !noTerminal {
				return errors.New("edit: the editor needs a terminal and standard input is not one (--no-terminal for an editor with its own window; scripts use write, update, alias)")
			}
			return edit(o, s, args[0], prompter{bufio.NewReader(s.stdin), s.stderr, interactive})
		},
	}
	c.Flags().BoolVar(&noTerminal, "no-terminal", false, "run the editor even when standard input is not a terminal (an editor with its own window)")
	return c
}

// prompter asks the user on the terminal how to resolve a conflict.
type prompter struct {
	in          *bufio.Reader
	out         io.Writer
	interactive bool // stdin is a terminal; otherwise conflicts fail
}

// edit runs one edit end to end.
func edit(o *opener, s streams, name string, p prompter) error {
	path, err := o.dbPath()
	if err != nil {
		return err
	}
	// No search here: the index is never built, so the editor opens at once.
	db, err := o.openForWrite(path)
	if err != nil {
		return fileError{path, err}
	}
	if !db.Exists() {
		return o.memoryFileError(path, &fs.PathError{Op: "open", Path: path, Err: fs.ErrNotExist})
	}
	e, ok := db.Memory().Lookup(name)
	if !ok {
		return fileError{path, fmt.Errorf("no such entry %q", name)}
	}
	es, err := editor.Edit(e, editor.Options{Getenv: o.getenv})
	if err != nil {
		return fileError{path, err}
	}
	r := es.Finish(runEditor(s, es))
	switch r.Outcome {
	case editor.Unchanged:
		fmt.Fprintln(s.stdout, sanitizeLine(r.Message()))
		return nil
	case editor.Changed:
		return saveEdit(o, s, db, es, r, p)
	}
	return fileError{path, safeError(r.Message())}
}

// runEditor runs the editor on the terminal's streams.
func runEditor(s streams, es *editor.Session) error {
	cmd := es.Cmd()
	cmd.Stdin, cmd.Stdout, cmd.Stderr = s.stdin, s.stdout, s.stderr
	return cmd.Run()
}

// maxConflictRounds bounds how often the file may change under the user
// between answering and saving before crmem gives up (the text is kept).
const maxConflictRounds = 5

// saveEdit applies the edit; on a conflict it asks the user what to do.
func saveEdit(o *opener, s streams, db *store.DB, es *editor.Session, r editor.Result, p prompter) error {
	path := db.Path()
	ops, what := r.Ops, "saved "+r.Name
	for range maxConflictRounds {
		_, err := db.Apply(ops...)
		if err == nil {
			o.sayProof(db)
			return finishSave(s, es, what)
		}
		if !es.IsConflict(err) {
			return fileError{path, safeError(r.KeptMessage(err.Error()))}
		}
		choice, err := p.ask(es, r, es.Happened(db.Memory()))
		if err != nil {
			return fileError{path, err}
		}
		if choice == editor.KeepTheirs {
			fmt.Fprintln(s.stdout, sanitizeLine(r.KeptMessage("kept theirs")))
			return nil
		}
		var op store.Op
		if op, what, err = resolve(db, es, r, choice); err != nil {
			return fileError{path, safeError(r.KeptMessage(err.Error()))}
		}
		ops = []store.Op{op}
	}
	return fileError{path, safeError(r.KeptMessage("the entry keeps changing on disk"))}
}

// resolve turns a choice into an operation on the fresh file.
func resolve(db *store.DB, es *editor.Session, r editor.Result, c editor.Choice) (store.Op, string, error) {
	if _, err := db.Reload(); err != nil {
		return nil, "", err
	}
	op, err := es.Resolve(r, c, db.Memory())
	if err != nil {
		return nil, "", err
	}
	if add, ok := op.(store.Add); ok {
		return op, fmt.Sprintf("saved your text as the new note %s", add.Name), nil
	}
	return op, "saved " + r.Name + " (your version)", nil
}

// finishSave removes the temp file once the text is safely saved.
func finishSave(s streams, es *editor.Session, what string) error {
	fmt.Fprintln(s.stdout, sanitizeLine(what))
	if err := es.Cleanup(); err != nil {
		fmt.Fprintf(s.stderr, "crmem: warning: %v\n", err)
	}
	return nil
}

// ask asks on the terminal how to resolve a conflict (what happened to the
// entry meanwhile); without a terminal (or at end of input) it fails,
// keeping the text.
func (p prompter) ask(s *editor.Session, r editor.Result, what editor.Meanwhile) (editor.Choice, error) {
	why := fmt.Sprintf("%s %s while you were editing", r.Name, what)
	if s.New {
		why = fmt.Sprintf("the name %s was taken meanwhile", r.Name)
	}
	if !p.interactive {
		return 0, safeError(r.KeptMessage(why))
	}
	keys := map[string]editor.Choice{}
	fmt.Fprintf(p.out, "%s.\n", sanitizeLine(why))
	for _, c := range s.Choices() {
		k := c.Key()
		keys[k] = c
		fmt.Fprintf(p.out, "  %s  %s\n", k, c)
	}
	for {
		fmt.Fprintf(p.out, "choose [%s]: ", strings.Join(choiceKeys(s), "/"))
		line, err := p.in.ReadString('\n')
		if c, ok := keys[strings.ToLower(strings.TrimSpace(line))]; ok {
			return c, nil
		}
		if err != nil { // end of input: nothing chosen
			return 0, safeError(r.KeptMessage(why))
		}
	}
}

// safeError is an error whose text, which names entries, is safe to print
// on a terminal.
func safeError(msg string) error { return errors.New(sanitizeLine(msg)) }

func choiceKeys(s *editor.Session) []string {
	var out []string
	for _, c := range s.Choices() {
		out = append(out, c.Key())
	}
	return out
}
