package part

import (
	"time"

	"github.com/crmem/crmem/store"
)

// The requests of the editing part (tui/editing): the writes it makes,
// which the root runs off the loop and hands back (editing.Written), and
// what it asks of the list, the marks and the other parts.
type (
	// Write applies Ops through the memory's writer (store.DB.Apply) off
	// the loop; the root hands the outcome back to the editing part with
	// Label, Undo and For, its own value for what the write was made for.
	// Undo says the write undoes one, not itself pushed on the undo list.
	Write struct {
		Label string
		Ops   []store.Op
		Undo  bool
		For   any
	}
	// Reload reads the memory file again now (after the editor left it
	// unchanged or kept the text: another writer may have written).
	Reload struct{}
	// ShowFindings opens the findings view.
	ShowFindings struct{}
	// ShowForgotten opens the forgotten entries.
	ShowForgotten struct{}
	// FindingsMerged returns the findings view to its list after a merge.
	FindingsMerged struct{}
	// ToggleMark marks or unmarks the selected entry and moves down.
	ToggleMark struct{}
	// MarkListed marks every listed entry, or unmarks them when all are.
	MarkListed struct{}
	// Unmark clears every mark.
	Unmark struct{}
	// MarkOlder marks the archives created more than D ago (typed as Age).
	MarkOlder struct {
		Age string
		D   time.Duration
	}
	// ToggleOrphans lists only the archives no session references, or
	// every entry again.
	ToggleOrphans struct{}
	// ToggleNeverRecalled lists only the entries no recorded recall
	// returned, or every entry again.
	ToggleNeverRecalled struct{}
)

func (Write) isRequest()               {}
func (Reload) isRequest()              {}
func (ShowFindings) isRequest()        {}
func (ShowForgotten) isRequest()       {}
func (FindingsMerged) isRequest()      {}
func (ToggleMark) isRequest()          {}
func (MarkListed) isRequest()          {}
func (Unmark) isRequest()              {}
func (MarkOlder) isRequest()           {}
func (ToggleOrphans) isRequest()       {}
func (ToggleNeverRecalled) isRequest() {}
