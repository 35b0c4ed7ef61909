package tui

import "github.com/crmem/crmem/tui/dialog"

// request is what an answered root dialog asks for, carried as a value:
// the dialog (tui/dialog) is given it and returns it as its answer, and
// the root carries it out (whyDo). No continuation is kept in a closure:
// what a dialog will do can be read off the dialog. The editing part's
// dialogs carry its own (tui/editing).
type request interface{ isRequest() }

// reqWhy explains where the entry called name stands in query's recall.
type reqWhy struct{ query, name string }

func (reqWhy) isRequest() {}

// WithValue completes the why prompt's request by the name typed
// (dialog.Valued).
func (r reqWhy) WithValue(v string) dialog.Request { r.name = v; return r }
