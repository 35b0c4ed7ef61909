package tui

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/crmem/crmem/internal/sanitize"
	"github.com/crmem/crmem/keymap"
)

// dialog is a prompt, confirmation or choice that owns the keyboard until it
// closes. It is drawn in place of the help line.
type dialog interface {
	// key handles a key press; done reports that the dialog closed, req,
	// if not nil, is what its answer asks for (data, carried out by the
	// part that opened the dialog), and note what the status line says of
	// it ("cancelled").
	key(keys *keymap.KeyMap, k tea.KeyPressMsg) (req request, done bool, note string)
	// paste inserts pasted text (prompts only).
	paste(text string)
	// view is the rendering in place of the help line, at the screen's
	// width.
	view(c *common) string
	// mode is the key map's mode while the dialog is open.
	mode() keymap.Mode
}

// promptDialog asks for one line of text: a name, aliases, an age.
type promptDialog struct {
	title    string
	in       lineInput
	validate func(string) error // nil: anything goes
	submit   promptRequest      // what enter asks for, with the line typed
	err      string             // the last validation failure, shown after the input
	// exact: the prompt holds a name or aliases exactly (newExactPrompt);
	// orig is that text and edited whether a key or a paste changed it.
	exact  bool
	orig   string
	edited bool
}

// newPrompt builds a prompt prefilled with value.
func newPrompt(title, value string, validate func(string) error, submit promptRequest) *promptDialog {
	p := &promptDialog{title: title, validate: validate, submit: submit}
	p.in = lineInput{Prompt: title + ": ", Limit: 1024}
	p.in.Insert(value)
	p.in.Focus()
	return p
}

// newExactPrompt builds a prompt holding value exactly: its invisible and
// control characters drawn as markers and kept unless edited. Enter on
// it untouched changes nothing: it was prefilled with a cleaned form of
// the name, and enter renamed c1-⟨U+009D⟩-x to c1- (issue 42 item 2).
func newExactPrompt(title, value string, validate func(string) error, submit promptRequest) *promptDialog {
	p := newPrompt(title, "", validate, submit)
	p.in.SetExact(value)
	p.exact, p.orig = true, value
	return p
}

func (p *promptDialog) key(keys *keymap.KeyMap, k tea.KeyPressMsg) (request, bool, string) {
	switch {
	case key.Matches(k, keys.Cancel):
		return nil, true, "cancelled"
	case key.Matches(k, keys.Accept) && p.exact && !p.edited:
		return nil, true, "no changes"
	case key.Matches(k, keys.Accept):
		v := p.in.Value()
		if !p.exact || strings.TrimSpace(p.orig) == p.orig { // spaces the text had are kept
			v = strings.TrimSpace(v)
		}
		if p.validate != nil {
			if err := p.validate(v); err != nil {
				p.err = err.Error()
				return nil, false, ""
			}
		}
		return p.submit.withValue(v), true, ""
	}
	was := p.in.Value()
	if p.in.Key(k) {
		p.err = ""
		p.edited = p.edited || p.in.Value() != was
	}
	return nil, false, ""
}

func (p *promptDialog) paste(text string) {
	was := p.in.Value()
	p.in.Insert(text)
	p.edited = p.edited || p.in.Value() != was
}

func (p *promptDialog) mode() keymap.Mode { return keymap.ModePrompt }

// view is the prompt on one line: title, the line typed and its keys
// (or the last error). When they do not fit one line with room to type
// in, the title takes lines of its own (at most two, wrapped at spaces,
// its middle giving way beyond; one on a screen under four rows, where
// the first of two went), the line typed one, the keys one: below ~60
// columns the keys were cut off, and the title with them at 20.
func (p *promptDialog) view(c *common) string {
	st, width := c.styles, c.width
	p.in.PromptStyle, p.in.TextStyle, p.in.DimStyle = st.message, st.status, st.dim
	keys := fitHints(width, keyHint(c.keys.Accept, "ok"), keyHint(c.keys.Cancel, "cancel"))
	hint := st.dim.Render("  " + keys)
	if p.err != "" {
		hint = "  " + st.warning.Render("⚠ "+sanitize.Line(p.err))
	}
	if drawnWidth(p.in.Prompt)+minTyping+drawnWidth(hint) <= width {
		p.in.SetWidth(max(width-drawnWidth(hint), 10))
		return p.in.View() + hint
	}
	title := p.title + ":"
	most := 2         // the title's lines
	if c.height < 4 { // the title, the line typed and the keys fill the screen
		most = 1
	}
	if drawnWidth(title) > most*width {
		title = middle(title, most*width)
	}
	lines := wrapWords(title, width)
	if len(lines) > most {
		lines = hardwrap(title, width)
	}
	for i, l := range lines {
		lines[i] = st.message.Render(l)
	}
	in := p.in
	in.Prompt = "› "
	in.SetWidth(width)
	lines = append(lines, in.View())
	if p.err != "" {
		return strings.Join(append(lines, st.warning.Render("⚠ "+sanitize.Line(p.err))), "\n")
	}
	return strings.Join(append(lines, st.dim.Render(keys)), "\n")
}

// minTyping is the fewest cells a prompt leaves to type in on its line.
const minTyping = 10

// fitHints joins key hints with " · ", or closer when that does not fit
// the width ("enter ok  esc cancel" at 20 columns).
func fitHints(width int, hs ...string) string {
	for _, sep := range []string{" · ", "  "} {
		if s := hints(sep, hs...); drawnWidth(s) <= width {
			return s
		}
	}
	return hints(" ", hs...)
}

// confirmDialog asks yes or no before something destructive. Only the yes
// keys (y) confirm: never enter, and never the key that opened it.
type confirmDialog struct {
	text  string  // the question
	short string  // the question when text does not fit the dialog's lines; "": text's middle gives way
	warn  string  // what the answer costs (sessions losing their resume point); kept visible first
	yes   request // what y confirms
}

func (c *confirmDialog) key(keys *keymap.KeyMap, k tea.KeyPressMsg) (request, bool, string) {
	switch {
	case key.Matches(k, keys.Yes):
		return c.yes, true, ""
	case key.Matches(k, keys.No), key.Matches(k, keys.Cancel):
		return nil, true, "cancelled"
	}
	return nil, false, ""
}

func (c *confirmDialog) paste(string) {}

func (c *confirmDialog) mode() keymap.Mode { return keymap.ModeQuestion }

// view is the question and its warning, wrapped over up to three lines
// when they do not fit one, with [y/n] at the end of the last.
// When they need more room than the lines give, the question's middle
// (the names) gives way, never the warning: at 60 columns "⚠ 737 of them
// not listed" lost its count.
func (c *confirmDialog) view(cm *common) string {
	st := cm.styles
	answers := st.message.Render("  [" + hints("/", keyName(cm.keys.Yes), keyName(cm.keys.No)) + "]")
	text, warn := sanitize.Line(c.text), sanitize.Line(c.warn)
	room := maxDialogLines*cm.width - drawnWidth(answers)
	if c.short != "" && drawnWidth(text)+drawnWidth(warn) > room {
		text = sanitize.Line(c.short)
	}
	if tw, ww := drawnWidth(text), drawnWidth(warn); tw+ww > room {
		text = middle(text, max(room-ww, min(tw, 20)))
	}
	return withAnswers(st.warning, text+warn, answers, cm.width)
}

// maxDialogLines bounds how many lines a dialog takes from the screen.
const maxDialogLines = 3

// withAnswers wraps text to width (at most maxDialogLines lines with the
// answers) and puts answers at the end of the last line, or on a line of
// their own when they do not fit beside it. Text that needs more lines
// loses its middle, never the answers, the start or the end of the
// question; it breaks at spaces only (never inside a name at its hyphen,
// never leaving a lone "," or "-"), and when that would take a line too
// many, anywhere.
func withAnswers(style lipgloss.Style, text, answers string, width int) string {
	aw := drawnWidth(answers)
	if drawnWidth(text)+aw <= width {
		return style.Render(text) + answers
	}
	lines := answeredLines(text, aw, width)
	for i, l := range lines {
		lines[i] = style.Render(l)
	}
	if last := lines[len(lines)-1]; drawnWidth(last)+aw <= width {
		lines[len(lines)-1] = last + answers
	} else {
		lines = append(lines, strings.TrimLeft(answers, " "))
	}
	if n := len(lines); n > maxDialogLines { // still too many: keep the start and the end
		lines = append(lines[:1], lines[n-maxDialogLines+1:]...)
	}
	return strings.Join(lines, "\n")
}

// answeredLines wraps text to width in lines that leave room for answers
// aw cells wide at the end of the last, or on a line of their own, within
// maxDialogLines: the text's middle gives way ("…") as much as it must.
// Lines broken short (a wide character that does not fit a line's last
// cell, a break at a space) took a line too many, and it was dropped
// whole, with no "…" for it.
func answeredLines(text string, aw, width int) []string {
	room := maxDialogLines*width - aw
	for {
		t := text
		if drawnWidth(t) > room {
			t = middle(text, room)
		}
		lines := wrapWords(t, width)
		if fits := len(lines) < maxDialogLines || len(lines) == maxDialogLines && drawnWidth(lines[len(lines)-1])+aw <= width; !fits {
			lines = hardwrap(t, width)
		}
		n := len(lines)
		if drawnWidth(lines[n-1])+aw > width {
			n++ // the answers on a line of their own
		}
		if n <= maxDialogLines || room <= width {
			return lines
		}
		room -= max(width/4, 1)
	}
}

// choice is one answer of a choiceDialog.
type choice struct {
	b     *key.Binding // the keys that pick it: a binding of the model's key map
	label string
	short string  // the label on narrow screens
	pick  request // what the answer asks for
}

// choiceDialog offers a few answers, each on its own key; esc picks the
// cancel answer (the safe one).
type choiceDialog struct {
	text    string
	choices []choice
	cancel  request // what esc asks for: the safe answer
	// body, if set, is drawn in place of the panes while the dialog is
	// open (an edit conflict's theirs against yours) at w×h.
	body *conflictDiff
}

func (c *choiceDialog) key(keys *keymap.KeyMap, k tea.KeyPressMsg) (request, bool, string) {
	if key.Matches(k, keys.Cancel) {
		return c.cancel, true, ""
	}
	for _, ch := range c.choices {
		if key.Matches(k, *ch.b) {
			return ch.pick, true, ""
		}
	}
	return nil, false, ""
}

func (c *choiceDialog) paste(string) {}

func (c *choiceDialog) mode() keymap.Mode { return keymap.ModeChoice }

// view shows the question and every answer; on a narrow screen the
// answers get their short labels, and the question wraps above them.
// When even the short answers do not fit one line, they take as many as
// they need, each answer whole, and the question keeps two lines above
// them: at 20 columns "[n] as new note" was cut off.
func (c *choiceDialog) view(cm *common) string {
	st := cm.styles
	w := cm.width
	answers := strings.Join(c.answers(st, false), "")
	if drawnWidth(answers) > w {
		answers = strings.Join(c.answers(st, true), "")
	}
	if drawnWidth(answers) <= w {
		return withAnswers(st.warning, sanitize.Line(c.text), answers, w)
	}
	var ans []string
	for _, a := range c.answers(st, true) {
		a = strings.TrimLeft(a, " ")
		if n := len(ans); n > 0 && drawnWidth(ans[n-1])+2+drawnWidth(a) <= w {
			ans[n-1] += "  " + a
			continue
		}
		ans = append(ans, a)
	}
	room := max(maxDialogLines-len(ans), 2)
	text := sanitize.Line(c.text)
	if drawnWidth(text) > room*w {
		text = middle(text, room*w)
	}
	lines := wrapWords(text, w)
	if len(lines) > room {
		lines = hardwrap(text, w)
	}
	for i, l := range lines {
		lines[i] = st.warning.Render(l)
	}
	return strings.Join(append(lines, ans...), "\n")
}

// answers renders "  [k] label" for every choice.
func (c *choiceDialog) answers(st *styles, short bool) []string {
	out := make([]string, 0, len(c.choices))
	for _, ch := range c.choices {
		label := ch.label
		if short && ch.short != "" {
			label = ch.short
		}
		out = append(out, "  "+st.message.Render("["+keyName(*ch.b)+"]")+" "+label)
	}
	return out
}

// dialogsHelp is the `?` help's column of the keys that answer prompts,
// questions and choices (the editing part's, the date and why prompts).
func dialogsHelp(k *keymap.KeyMap) [][]key.Binding {
	return [][]key.Binding{k.DialogKeys()}
}
