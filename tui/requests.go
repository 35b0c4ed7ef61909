package tui

import "github.com/crmem/crmem/tui/dialog"

// reqWhy is what the why prompt asks for, carried as a value (the
// dialog is given it and returns it as its answer, completed by the name
// typed), and the root carries it out (whyDo): explain where the entry
// called name stands in query's recall. The editing part's dialogs carry
// its own requests (tui/editing).
type reqWhy struct{ query, name string }

// WithValue completes the request by the name typed (dialog.Valued).
func (r reqWhy) WithValue(v string) dialog.Request { r.name = v; return r }
