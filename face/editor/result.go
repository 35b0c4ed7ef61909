package editor

import (
	"errors"
	"fmt"
	"os/exec"

	"github.com/crmem/crmem/store"
)

// Outcome says how an edit ended.
type Outcome int

// The outcomes of Finish.
const (
	Unchanged    Outcome = iota // nothing to save; the temp file is gone
	Changed                     // Op saves the text
	EditorFailed                // the editor could not run or exited non-zero; text kept
	Unreadable                  // the file no longer parses (or vanished); text kept
)

// Result is what Finish found in the temp file.
type Result struct {
	Outcome Outcome
	Name    string     // the entry's name
	Path    string     // the temp file, kept unless nothing was edited ("" then)
	Op      store.Op   // Changed: the first of Ops
	Ops     []store.Op // Changed: what saves it, in one write: an Update (with Expect), an Add, or a Remove and Restore when Created changed
	Content string     // Changed: the new content
	Aliases []string   // Changed: the new alias list
	Quick   bool       // Unchanged and the editor returned within QuickReturn
	Err     error      // EditorFailed, Unreadable: why
}

// Message is the one-line report for a status line or a terminal.
func (r Result) Message() string {
	switch r.Outcome {
	case Unchanged:
		if r.Quick {
			return fmt.Sprintf("no changes to %s — the editor returned at once; a GUI editor needs its wait flag (e.g. EDITOR=\"code -w\")", r.Name)
		}
		return "no changes to " + r.Name
	case Changed:
		return "edited " + r.Name
	case EditorFailed:
		if r.Path == "" {
			return fmt.Sprintf("cannot run the editor (%v); set $VISUAL or $EDITOR", r.Err)
		}
		return fmt.Sprintf("editor failed (%s); your text is kept in %s", editorError(r.Err), r.Path)
	default:
		return fmt.Sprintf("cannot read the edited file back (%v); your text is kept in %s", r.Err, r.Path)
	}
}

// editorError shortens an editor failure for a status line.
func editorError(err error) string {
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ee.ProcessState.String()
	}
	return err.Error()
}

// KeptMessage reports that the user's text was not saved and where it is.
func (r Result) KeptMessage(why string) string {
	return fmt.Sprintf("%s; your text is kept in %s", why, r.Path)
}
