// Package keymap declares every key binding of crmem's terminal UI once, so
// that the update loop and the generated help read from the same table.
package keymap

import "charm.land/bubbles/v2/key"

// KeyMap holds every binding of the TUI (SPEC §7).
type KeyMap struct {
	// Navigation (list and preview).
	Up, Down, PageUp, PageDown, HalfUp, HalfDown, Top, Bottom key.Binding
	// Paging the preview as less and glow do (space, b); in the list,
	// space marks.
	PreviewPageDown, PreviewPageUp key.Binding
	// Panes and views. Open shows the preview (one pane at a time: instead
	// of the list), Back returns to the list; Recall shows exactly what the
	// agent's recall returns for the query; Why says where any entry
	// stands in that recall and why (the selected one, or one named);
	// Stats shows the picture of the memory (sizes, growth per month,
	// biggest entries).
	Focus, Open, Back, Explain, Why, Recall, Stats, Help key.Binding
	// Moving the selection while typing a query (besides ↑ ↓ pgup pgdn).
	SearchUp, SearchDown key.Binding
	// Search line.
	Search, SearchAccept, SearchCancel key.Binding
	// Filters and order.
	FilterAll, FilterNotes, FilterArchives, FilterTopics, Sort key.Binding
	// Editing (wired by the editing code; disabled until then).
	Edit, New, Rename, Aliases, Delete, Mark, DeleteMarked, Undo key.Binding
	// Archive cleanup: mark every listed entry, mark archives older than an
	// age, list only orphan archives, list only entries no recorded recall
	// of the agent returned (wired by the editing code).
	MarkAll, MarkOlder, Unmark, Orphans, NeverRecalled key.Binding
	// Dump writes the memory out as an mdbook tree (wired by the editing code).
	Dump key.Binding
	// Findings shows the hygiene report (crmem lint) with actions on each
	// finding; Merge merges two duplicates in it, NotDuplicate remembers
	// they are not (wired by the editing code). Reveal shows the secrets
	// the view masks in two duplicates side by side, and masks them again.
	Findings, Merge, NotDuplicate, Reveal key.Binding
	// History shows the selected entry's versions, oldest first, with the
	// diff of each against the one before; Forgotten lists the entries
	// memory no longer holds that the store's log or the sessions know;
	// Restore brings back the version (or forgotten entry) selected in
	// either (wired by the editing code).
	History, Forgotten, Restore key.Binding
	// Following a live agent: jump to the latest change, the reload log.
	LatestChange, ChangeLog key.Binding
	// Reading: copy name or content, the pager, zoom, matches, date filter.
	CopyName, CopyContent, Pager, Zoom, PrevMatch, NextMatch, DateFilter key.Binding
	// Application. Suspend hands the terminal back to the shell (ctrl+z).
	Reload, Mouse, Suspend, Quit key.Binding
	// Dialogs: Accept and Cancel end a prompt (Accept also goes to the
	// entry of the reload log, Cancel also closes the help and the log),
	// Yes and No answer a question.
	Accept, Cancel, Yes, No key.Binding
	// The answers to an edit conflict, and to an undo whose names were
	// taken meanwhile.
	KeepMine, KeepTheirs, SaveAsNew, RestoreRenamed, KeepUndo, DropUndo key.Binding
	// Complete completes an entry name in a prompt that asks for one.
	Complete key.Binding

	base      map[string]binding // the configured keys and labels, by snake_case name
	interrupt key.Binding        // ctrl+c: quits in every mode; not configurable
}

// InterruptKey always quits, in every mode (dialogs, prompts, the help, the
// reload log, the search line): no configuration can lock the user in. It
// may be listed under quit, and under no other binding.
const InterruptKey = "ctrl+c"

// Interrupt is the binding of InterruptKey, for the update loop to match
// before anything else and for the help to list.
func (k KeyMap) Interrupt() key.Binding { return k.interrupt }

// DefaultKeyMap returns the default bindings. The editing bindings are
// declared but disabled; the code that implements them enables them.
func DefaultKeyMap() KeyMap {
	b := func(keys []string, help, desc string) key.Binding {
		return key.NewBinding(key.WithKeys(keys...), key.WithHelp(help, desc))
	}
	k := KeyMap{
		Up:              b([]string{"up", "k"}, "↑/k", "up"),
		Down:            b([]string{"down", "j"}, "↓/j", "down"),
		PageUp:          b([]string{"pgup"}, "pgup", "page up"),
		PageDown:        b([]string{"pgdown"}, "pgdn", "page down"),
		HalfUp:          b([]string{"ctrl+u"}, "ctrl+u", "half page up"),
		HalfDown:        b([]string{"ctrl+d"}, "ctrl+d", "half page down"),
		Top:             b([]string{"g", "home"}, "g/home", "first"),
		Bottom:          b([]string{"G", "end"}, "G/end", "last"),
		PreviewPageDown: b([]string{"space"}, "space", "page down (preview)"),
		PreviewPageUp:   b([]string{"b"}, "b", "page up (preview)"),
		Focus:           b([]string{"tab"}, "tab", "switch pane"),
		Open:            b([]string{"enter", "l", "right"}, "enter/l/→", "open preview"),
		Back:            b([]string{"esc", "h", "left", "backspace"}, "esc/h/←", "back to list"),
		Explain:         b([]string{"x"}, "x", "explain score"),
		Why:             b([]string{"w"}, "w", "why (not) recalled"),
		Recall:          b([]string{"ctrl+r"}, "ctrl+r", "recall view (agent's limit)"),
		Stats:           b([]string{"i"}, "i", "memory stats"),
		SearchUp:        b([]string{"ctrl+p", "ctrl+k"}, "ctrl+p/k", "up"),
		SearchDown:      b([]string{"ctrl+n", "ctrl+j"}, "ctrl+n/j", "down"),
		Help:            b([]string{"?"}, "?", "help"),
		Search:          b([]string{"/"}, "/", "search"),
		SearchAccept:    b([]string{"enter"}, "enter", "keep query"),
		SearchCancel:    b([]string{"esc"}, "esc", "clear search"),
		FilterAll:       b([]string{"1"}, "1", "all kinds"),
		FilterNotes:     b([]string{"2"}, "2", "notes"),
		FilterArchives:  b([]string{"3"}, "3", "archives"),
		FilterTopics:    b([]string{"4"}, "4", "topics"),
		Sort:            b([]string{"s"}, "s", "sort order"),
		Edit:            b([]string{"e"}, "e", "edit"),
		New:             b([]string{"n"}, "n", "new note"),
		Rename:          b([]string{"r"}, "r", "rename"),
		Aliases:         b([]string{"a"}, "a", "aliases"),
		Delete:          b([]string{"d"}, "d", "delete"),
		Mark:            b([]string{"space"}, "space", "mark"),
		DeleteMarked:    b([]string{"D"}, "D", "delete marked"),
		Undo:            b([]string{"u"}, "u", "undo"),
		MarkAll:         b([]string{"*"}, "*", "mark all listed"),
		MarkOlder:       b([]string{"O"}, "O", "mark archives older than…"),
		Unmark:          b([]string{"U"}, "U", "unmark all"),
		Orphans:         b([]string{"o"}, "o", "orphan archives only"),
		NeverRecalled:   b([]string{"N"}, "N", "never recalled only"),
		Dump:            b([]string{"W"}, "W", "dump to a folder…"),
		Findings:        b([]string{"L"}, "L", "findings (lint)"),
		Merge:           b([]string{"m"}, "m", "merge duplicates (findings)"),
		NotDuplicate:    b([]string{"X"}, "X", "not duplicates (findings)"),
		Reveal:          b([]string{"S"}, "S", "show/mask secrets (findings)"),
		History:         b([]string{"H"}, "H", "history of the entry"),
		Forgotten:       b([]string{"F"}, "F", "forgotten entries"),
		Restore:         b([]string{"r"}, "r", "restore a version (history)"),
		Reload:          b([]string{"R"}, "R", "reload"),
		Mouse:           b([]string{"M"}, "M", "mouse on/off"),
		LatestChange:    b([]string{"."}, ".", "latest change"),
		ChangeLog:       b([]string{"c"}, "c", "reload log"),
		CopyName:        b([]string{"y"}, "y", "copy name"),
		CopyContent:     b([]string{"Y"}, "Y", "copy content"),
		Pager:           b([]string{"v"}, "v", "open in $PAGER"),
		Zoom:            b([]string{"z"}, "z", "zoom preview"),
		PrevMatch:       b([]string{"["}, "[", "previous match"),
		NextMatch:       b([]string{"]"}, "]", "next match"),
		DateFilter:      b([]string{"f"}, "f", "date filter"),
		Suspend:         b([]string{"ctrl+z"}, "ctrl+z", "suspend"),
		Quit:            b([]string{"q", "ctrl+c"}, "q", "quit"),
		Accept:          b([]string{"enter"}, "enter", "ok (prompts, reload log)"),
		Cancel:          b([]string{"esc"}, "esc", "cancel, close"),
		Yes:             b([]string{"y", "Y"}, "y", "yes"),
		No:              b([]string{"n", "N"}, "n", "no"),
		KeepMine:        b([]string{"m"}, "m", "keep mine"),
		KeepTheirs:      b([]string{"t"}, "t", "keep theirs"),
		SaveAsNew:       b([]string{"n"}, "n", "save mine as a new note"),
		RestoreRenamed:  b([]string{"r"}, "r", "undo: restore renamed"),
		KeepUndo:        b([]string{"k"}, "k", "undo: keep it in the list"),
		DropUndo:        b([]string{"x"}, "x", "undo: drop it from the list"),
		Complete:        b([]string{"tab"}, "tab", "complete a name (prompts)"),
	}
	k.interrupt = b([]string{InterruptKey}, InterruptKey, "quit (always)")
	k.recordBase()
	for _, e := range k.EditKeys() {
		e.SetEnabled(false)
	}
	return k
}

// EditKeys returns pointers to the editing bindings, so the editing code can
// enable them in one place.
func (k *KeyMap) EditKeys() []*key.Binding {
	return []*key.Binding{&k.Edit, &k.New, &k.Rename, &k.Aliases, &k.Delete, &k.Mark, &k.DeleteMarked, &k.Undo,
		&k.MarkAll, &k.MarkOlder, &k.Unmark, &k.Orphans, &k.NeverRecalled, &k.Dump, &k.Findings, &k.Merge, &k.NotDuplicate,
		&k.History, &k.Forgotten, &k.Restore}
}

// NavigationKeys are the movement bindings shared by the list and preview.
func (k KeyMap) NavigationKeys() []key.Binding {
	return []key.Binding{k.Up, k.Down, k.PageUp, k.PageDown, k.HalfUp, k.HalfDown, k.Top, k.Bottom, k.PreviewPageDown, k.PreviewPageUp}
}

// ViewKeys switch panes, filters and order.
func (k KeyMap) ViewKeys() []key.Binding {
	return []key.Binding{k.Focus, k.Open, k.Back, k.FilterAll, k.FilterNotes, k.FilterArchives, k.FilterTopics, k.DateFilter, k.Sort, k.Explain, k.Why, k.Recall, k.Stats}
}

// ReadingKeys copy, page, zoom and follow the agent's changes.
func (k KeyMap) ReadingKeys() []key.Binding {
	return []key.Binding{k.CopyName, k.CopyContent, k.Pager, k.Zoom, k.PrevMatch, k.NextMatch, k.LatestChange, k.ChangeLog, k.Reveal}
}

// SearchKeys drive the search line.
func (k KeyMap) SearchKeys() []key.Binding {
	return []key.Binding{k.Search, k.SearchAccept, k.SearchCancel, k.SearchUp, k.SearchDown}
}

// EditingKeys change one entry, undo, or dump the memory.
func (k KeyMap) EditingKeys() []key.Binding {
	return []key.Binding{k.Edit, k.New, k.Rename, k.Aliases, k.Delete, k.Undo, k.Dump, k.Findings, k.Merge, k.NotDuplicate,
		k.History, k.Forgotten, k.Restore}
}

// CleanupKeys mark entries and delete the marked ones (archive cleanup).
func (k KeyMap) CleanupKeys() []key.Binding {
	return []key.Binding{k.Mark, k.MarkAll, k.MarkOlder, k.Unmark, k.Orphans, k.NeverRecalled, k.DeleteMarked}
}

// AppKeys are reload, mouse, help and quit, and ctrl+c, which always quits.
func (k KeyMap) AppKeys() []key.Binding {
	return []key.Binding{k.Reload, k.Mouse, k.Suspend, k.Help, k.Quit, k.interrupt}
}

// QuitHint is quit's binding for a short help; with quit unbound it is
// ctrl+c's, which quits all the same (InterruptKey), so the screen never
// hides its one way out (issue 29 item 8: with quit and help unbound the
// short help named no way to quit).
func (k KeyMap) QuitHint() key.Binding {
	if k.Quit.Enabled() {
		return k.Quit
	}
	b := k.interrupt
	b.SetHelp(InterruptKey, "quit")
	return b
}

// DialogKeys answer prompts, questions and choices.
func (k KeyMap) DialogKeys() []key.Binding {
	return []key.Binding{k.Accept, k.Cancel, k.Complete, k.Yes, k.No, k.KeepMine, k.KeepTheirs, k.SaveAsNew, k.RestoreRenamed, k.KeepUndo, k.DropUndo}
}

// dialogKeys points at the dialog bindings, to enable them for reference.
func (k *KeyMap) dialogKeys() []*key.Binding {
	return []*key.Binding{&k.Accept, &k.Cancel, &k.Complete, &k.Yes, &k.No, &k.KeepMine, &k.KeepTheirs, &k.SaveAsNew, &k.RestoreRenamed, &k.KeepUndo, &k.DropUndo}
}

// FullHelp is every binding, one group per column, as the reference
// lists them (docs/screen.md's Keys, the man page's KEYS). The screen's `?` help
// is put together from what each part of the screen says of its own keys
// (tui), in these groups.
func (k KeyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{k.NavigationKeys(), k.ViewKeys(), append(k.SearchKeys(), k.AppKeys()...), k.ReadingKeys(), k.EditingKeys(), k.CleanupKeys(), k.DialogKeys()}
}

// paneKeys are the keys the list and the preview share: moving, the
// panes and views, filters and order, reading and following, the
// application's, and the editing keys when editing is wired (those of
// the findings view and the history excepted).
func (k *KeyMap) paneKeys(editing bool) []*key.Binding {
	on := append(k.ScrollKeys(), &k.Focus, &k.Explain, &k.Why, &k.Recall, &k.Stats, &k.Search,
		&k.FilterAll, &k.FilterNotes, &k.FilterArchives, &k.FilterTopics, &k.DateFilter, &k.Sort,
		&k.LatestChange, &k.ChangeLog, &k.CopyName, &k.CopyContent, &k.Pager, &k.Zoom, &k.PrevMatch, &k.NextMatch,
		&k.Reload, &k.Mouse, &k.Suspend, &k.Help, &k.Quit)
	if !editing {
		return on
	}
	for _, e := range k.EditKeys() {
		switch e {
		case &k.Mark, &k.Merge, &k.NotDuplicate, &k.Restore: // the list's, the findings view's, the history's
		default:
			on = append(on, e)
		}
	}
	return on
}

// ListKeys are the entry list's keys: editing says the editing keys are
// wired (marking with them), query that a query or an explanation is
// shown, which the search line's cancel clears from the list too.
func (k *KeyMap) ListKeys(editing, query bool) []*key.Binding {
	on := append(k.paneKeys(editing), &k.Open)
	if editing {
		on = append(on, &k.Mark)
	}
	if query {
		on = append(on, &k.SearchCancel)
	}
	return on
}

// PreviewKeys are the preview's keys: back to the list, and paging as
// less and glow do (space, b); editing says the editing keys are wired.
func (k *KeyMap) PreviewKeys(editing bool) []*key.Binding {
	return append(k.paneKeys(editing), &k.Back, &k.PreviewPageDown, &k.PreviewPageUp)
}

// SearchLineKeys are the keys live while a query is typed: moving the
// selection, the recall view, keeping or clearing the query, quitting.
// Every other key is a letter of the query.
func (k *KeyMap) SearchLineKeys() []*key.Binding {
	return []*key.Binding{&k.Up, &k.Down, &k.PageUp, &k.PageDown, &k.HalfUp, &k.HalfDown, &k.SearchUp, &k.SearchDown,
		&k.Recall, &k.SearchAccept, &k.SearchCancel, &k.Suspend, &k.Quit}
}

// typedInQuery names the bindings whose printable keys are letters of
// the query while it is typed (Pane with typing).
var typedInQuery = []string{"up", "down", "quit", "suspend", "recall", "search_up", "search_down", "search_accept", "search_cancel"}

// Pane enables the bindings on and no other but suspend: the keys of a
// pane (the list, the preview, the search line), which the pane decides
// beside it, as a part above the panes does with Only; unlike there,
// cancel is not live (esc goes back or clears the query). typing says
// the pane takes text (the search line): the printable keys of the
// bindings that act while typing are letters of the query.
func (k *KeyMap) Pane(typing bool, on ...*key.Binding) {
	for _, b := range k.all() {
		b.SetEnabled(false)
	}
	for _, name := range typedInQuery {
		b, _ := k.Lookup(name)
		k.typed(b, name, typing)
	}
	k.typed(&k.Accept, "accept", false)
	k.typed(&k.Cancel, "cancel", false)
	k.Suspend.SetEnabled(true)
	for _, b := range on {
		b.SetEnabled(true)
	}
}

// SetReferenceMode enables what the full help lists: the list's keys
// (editing says whether the editing keys are wired) and, for reference,
// those of the search line, the preview and the dialogs.
func (k *KeyMap) SetReferenceMode(editing bool) {
	k.Pane(false, k.ListKeys(editing, false)...)
	for _, b := range append(k.dialogKeys(), &k.SearchAccept, &k.SearchCancel, &k.SearchUp, &k.SearchDown,
		&k.Back, &k.PreviewPageDown, &k.PreviewPageUp) {
		b.SetEnabled(true)
	}
	k.Merge.SetEnabled(editing) // the findings view's, listed with the editing keys
	k.NotDuplicate.SetEnabled(editing)
	k.Restore.SetEnabled(editing) // the history view's, listed with the editing keys
	k.Reveal.SetEnabled(true)     // the findings view's, listed with the reading keys
}

// Only enables the bindings on and no other but suspend and cancel, which
// work everywhere: the keys of a part of the screen that owns the
// keyboard (a dialog, the help, the reload log, a panel), which the part
// decides beside it. Every key is as configured, except that when the
// part takes text (typing: a prompt) the printable keys of accept and
// cancel are letters of the text.
func (k *KeyMap) Only(typing bool, on ...*key.Binding) {
	for _, b := range k.all() {
		b.SetEnabled(false)
	}
	for name, b := range map[string]*key.Binding{"up": &k.Up, "down": &k.Down, "quit": &k.Quit, "suspend": &k.Suspend} {
		k.typed(b, name, false) // as configured, whatever the keys before
	}
	k.typed(&k.Accept, "accept", typing)
	k.typed(&k.Cancel, "cancel", typing)
	k.Suspend.SetEnabled(true)
	k.Cancel.SetEnabled(true)
	for _, b := range on {
		b.SetEnabled(true)
	}
}

// QuitClosesHelp labels quit as what closes the help screen (its keys and
// cancel's and help's, as configured), unless quit has only ctrl+c, which
// quits from the help rather than closing it.
func (k *KeyMap) QuitClosesHelp() {
	if k.closeQuitLabel() != "" {
		k.Quit.SetHelp(k.CloseHelpLabel(), "close help")
	}
}

// The sets of keys some parts of the screen have live (with Only), named
// here so that the remap's check (Conflicts) reads the same sets: a key
// bound to two bindings of one set is refused.

// ScrollKeys move a cursor or a window over lines.
func (k *KeyMap) ScrollKeys() []*key.Binding {
	return []*key.Binding{&k.Up, &k.Down, &k.PageUp, &k.PageDown, &k.HalfUp, &k.HalfDown, &k.Top, &k.Bottom}
}

// HelpScreenKeys scroll the help screen and close it (help, and quit).
func (k *KeyMap) HelpScreenKeys() []*key.Binding { return append(k.ScrollKeys(), &k.Help, &k.Quit) }

// LogKeys scroll the reload log, go to an entry of it and close it.
func (k *KeyMap) LogKeys() []*key.Binding {
	return append(k.ScrollKeys(), &k.Accept, &k.Quit, &k.ChangeLog)
}

// PromptKeys end a prompt and complete a name in it.
func (k *KeyMap) PromptKeys() []*key.Binding { return []*key.Binding{&k.Accept, &k.Complete} }

// QuestionKeys answer a yes/no question.
func (k *KeyMap) QuestionKeys() []*key.Binding { return []*key.Binding{&k.Yes, &k.No} }

// ChoiceKeys pick the answers of a choice: an edit conflict's, an undo's
// whose names were taken.
func (k *KeyMap) ChoiceKeys() []*key.Binding {
	return []*key.Binding{&k.KeepMine, &k.KeepTheirs, &k.SaveAsNew, &k.RestoreRenamed, &k.KeepUndo, &k.DropUndo}
}

// HistoryKeys act in an entry's history and the forgotten list: move,
// open, restore, undo, and close them.
func (k *KeyMap) HistoryKeys() []*key.Binding {
	return append(k.ScrollKeys(), &k.Quit, &k.History, &k.Forgotten, &k.Accept, &k.Restore, &k.Undo)
}
