package tui

import "github.com/crmem/crmem/tui/part"

// fitName fits a list name into w cells keeping what tells it apart from
// its neighbours' names (part.FitName).
func fitName(name, prev, next string, w int) string { return part.FitName(name, prev, next, w) }

// fitApart refits a name whose fitted text read the same as other rows'
// (part.FitApart).
func fitApart(name string, others []string, w int) string { return part.FitApart(name, others, w) }
