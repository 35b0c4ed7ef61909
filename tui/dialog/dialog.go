// Package dialog is the prompts, questions and choices of the screen: a
// dialog owns the keyboard until it closes and is drawn in place of the
// help line. It reads the part.Context the root lends it for one call
// and holds no function of the root: what its answer asks for is a value
// its opener gave it (Request), carried back as is, and what a prompt
// accepts is data too (Check), checked against the context lent with the
// key that submits.
package dialog

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/crmem/crmem/internal/sanitize"
	"github.com/crmem/crmem/keymap"
	"github.com/crmem/crmem/tui/part"
)

// Request is what an answer asks its opener for: a value the opener gave
// the dialog (a rename of an entry, a removal), handed back untouched for
// the opener to carry out in its one switch.
type Request any

// Valued is a prompt's request, completed by the line typed.
type Valued interface {
	WithValue(v string) Request
}

// Check is what a prompt accepts, as data: Check says why v is refused,
// reading only the context lent with the key that submits it (the
// memory as it is then).
type Check interface {
	Check(c *part.Context, v string) error
}

// Dialog is a prompt, confirmation or choice that owns the keyboard until
// it closes.
type Dialog interface {
	// Key handles a key press; done reports that the dialog closed, req,
	// if not nil, is what its answer asks for (the opener's value), and
	// note what the status line says of it ("cancelled").
	Key(c *part.Context, k tea.KeyPressMsg) (req Request, done bool, note string)
	// Paste inserts pasted text (prompts only).
	Paste(text string)
	// View is the rendering in place of the help line, at the screen's
	// width.
	View(c *part.Context) string
	// SetKeys enables the keys live while the dialog is open, and no
	// other (keymap.KeyMap.Only).
	SetKeys(k *keymap.KeyMap)
}

// Prompt asks for one line of text: a name, aliases, an age.
type Prompt struct {
	Title  string
	In     part.Input
	Check  Check  // nil: anything goes
	Submit Valued // what enter asks for, with the line typed
	err    string // the last check's failure, shown after the input
	// exact: the prompt holds a name or aliases exactly (NewExact); orig
	// is that text and edited whether a key or a paste changed it.
	exact  bool
	orig   string
	edited bool
}

// NewPrompt builds a prompt prefilled with value.
func NewPrompt(title, value string, check Check, submit Valued) *Prompt {
	p := &Prompt{Title: title, Check: check, Submit: submit}
	p.In = part.Input{Prompt: title + ": ", Limit: 1024}
	p.In.Insert(value)
	p.In.Focus()
	return p
}

// NewExact builds a prompt holding value exactly: its invisible and
// control characters drawn as markers and kept unless edited. Enter on
// it untouched changes nothing: it was prefilled with a cleaned form of
// the name, and enter renamed c1-⟨U+009D⟩-x to c1- (issue 42 item 2).
func NewExact(title, value string, check Check, submit Valued) *Prompt {
	p := NewPrompt(title, "", check, submit)
	p.In.SetExact(value)
	p.exact, p.orig = true, value
	return p
}

// NewSuggested builds a prompt whose value is a suggestion (a folder
// proposed): a path typed or pasted replaces it rather than being
// appended to it.
func NewSuggested(title, value string, check Check, submit Valued) *Prompt {
	p := NewPrompt(title, value, check, submit)
	p.In.Suggested = true
	return p
}

// Key handles a key press in the prompt.
func (p *Prompt) Key(c *part.Context, k tea.KeyPressMsg) (Request, bool, string) {
	keys := c.Keys
	switch {
	case key.Matches(k, keys.Cancel):
		return nil, true, "cancelled"
	case key.Matches(k, keys.Accept) && p.exact && !p.edited:
		return nil, true, "no changes"
	case key.Matches(k, keys.Accept):
		v := p.In.Value()
		if !p.exact || strings.TrimSpace(p.orig) == p.orig { // spaces the text had are kept
			v = strings.TrimSpace(v)
		}
		if p.Check != nil {
			if err := p.Check.Check(c, v); err != nil {
				p.err = err.Error()
				return nil, false, ""
			}
		}
		return p.Submit.WithValue(v), true, ""
	}
	was := p.In.Value()
	if p.In.Key(k) {
		p.err = ""
		p.edited = p.edited || p.In.Value() != was
	}
	return nil, false, ""
}

// Paste inserts text at the cursor; text pasted replaces a suggested
// value, as text typed does (part.Input.Key).
func (p *Prompt) Paste(text string) {
	was := p.In.Value()
	p.In.DropSuggestion()
	p.In.Insert(text)
	p.edited = p.edited || p.In.Value() != was
}

// SetKeys enables a prompt's keys: accept, cancel and the completion of
// a name; the printable keys are text.
func (p *Prompt) SetKeys(k *keymap.KeyMap) { k.Only(true, k.PromptKeys()...) }

// View is the prompt on one line: title, the line typed and its keys
// (or the last error). When they do not fit one line with room to type
// in, the title takes lines of its own (at most two, wrapped at spaces,
// its middle giving way beyond; one on a screen under four rows, where
// the first of two went), the line typed one, the keys one: below ~60
// columns the keys were cut off, and the title with them at 20.
func (p *Prompt) View(c *part.Context) string {
	st, width := c.Styles, c.Width
	p.In.PromptStyle, p.In.TextStyle, p.In.DimStyle = st.Message, st.Status, st.Dim
	keys := FitHints(width, part.KeyHint(c.Keys.Accept, "ok"), part.KeyHint(c.Keys.Cancel, "cancel"))
	hint := st.Dim.Render("  " + keys)
	if p.err != "" {
		hint = "  " + st.Warning.Render("⚠ "+sanitize.Line(p.err))
	}
	if part.DrawnWidth(p.In.Prompt)+minTyping+part.DrawnWidth(hint) <= width {
		p.In.SetWidth(max(width-part.DrawnWidth(hint), 10))
		return p.In.View() + hint
	}
	title := p.Title + ":"
	most := 2         // the title's lines
	if c.Height < 4 { // the title, the line typed and the keys fill the screen
		most = 1
	}
	if part.DrawnWidth(title) > most*width {
		title = part.Middle(title, most*width)
	}
	lines := part.WrapWords(title, width)
	if len(lines) > most {
		lines = part.Hardwrap(title, width)
	}
	for i, l := range lines {
		lines[i] = st.Message.Render(l)
	}
	in := p.In
	in.Prompt = "› "
	in.SetWidth(width)
	lines = append(lines, in.View())
	if p.err != "" {
		return strings.Join(append(lines, st.Warning.Render("⚠ "+sanitize.Line(p.err))), "\n")
	}
	return strings.Join(append(lines, st.Dim.Render(keys)), "\n")
}

// minTyping is the fewest cells a prompt leaves to type in on its line.
const minTyping = 10

// FitHints joins key hints with " · ", or closer when that does not fit
// the width ("enter ok  esc cancel" at 20 columns).
func FitHints(width int, hs ...string) string {
	for _, sep := range []string{" · ", "  "} {
		if s := part.Hints(sep, hs...); part.DrawnWidth(s) <= width {
			return s
		}
	}
	return part.Hints(" ", hs...)
}

// Confirm asks yes or no before something destructive. Only the yes keys
// (y) confirm: never enter, and never the key that opened it.
type Confirm struct {
	Text  string  // the question
	Short string  // the question when Text does not fit the dialog's lines; "": Text's middle gives way
	Warn  string  // what the answer costs (sessions losing their resume point); kept visible first
	Yes   Request // what y confirms
}

// Key handles a key press in the question.
func (q *Confirm) Key(c *part.Context, k tea.KeyPressMsg) (Request, bool, string) {
	switch {
	case key.Matches(k, c.Keys.Yes):
		return q.Yes, true, ""
	case key.Matches(k, c.Keys.No), key.Matches(k, c.Keys.Cancel):
		return nil, true, "cancelled"
	}
	return nil, false, ""
}

// Paste does nothing: a question takes no text.
func (q *Confirm) Paste(string) {}

// SetKeys enables a question's keys: yes, no and cancel.
func (q *Confirm) SetKeys(k *keymap.KeyMap) { k.Only(false, k.QuestionKeys()...) }

// View is the question and its warning, wrapped over up to three lines
// when they do not fit one, with [y/n] at the end of the last.
// When they need more room than the lines give, the question's middle
// (the names) gives way, never the warning: at 60 columns "⚠ 737 of them
// not listed" lost its count.
func (q *Confirm) View(c *part.Context) string {
	st := c.Styles
	answers := st.Message.Render("  [" + part.Hints("/", part.KeyName(c.Keys.Yes), part.KeyName(c.Keys.No)) + "]")
	text, warn := sanitize.Line(q.Text), sanitize.Line(q.Warn)
	room := MaxLines*c.Width - part.DrawnWidth(answers)
	if q.Short != "" && part.DrawnWidth(text)+part.DrawnWidth(warn) > room {
		text = sanitize.Line(q.Short)
	}
	if tw, ww := part.DrawnWidth(text), part.DrawnWidth(warn); tw+ww > room {
		text = part.Middle(text, max(room-ww, min(tw, 20)))
	}
	return withAnswers(st.Warning, text+warn, answers, c.Width)
}

// MaxLines bounds how many lines a dialog takes from the screen.
const MaxLines = 3

// withAnswers wraps text to width (at most MaxLines lines with the
// answers) and puts answers at the end of the last line, or on a line of
// their own when they do not fit beside it. Text that needs more lines
// loses its middle, never the answers, the start or the end of the
// question; it breaks at spaces only (never inside a name at its hyphen,
// never leaving a lone "," or "-"), and when that would take a line too
// many, anywhere.
func withAnswers(style lipgloss.Style, text, answers string, width int) string {
	aw := part.DrawnWidth(answers)
	if part.DrawnWidth(text)+aw <= width {
		return style.Render(text) + answers
	}
	lines := answeredLines(text, aw, width)
	for i, l := range lines {
		lines[i] = style.Render(l)
	}
	if last := lines[len(lines)-1]; part.DrawnWidth(last)+aw <= width {
		lines[len(lines)-1] = last + answers
	} else {
		lines = append(lines, strings.TrimLeft(answers, " "))
	}
	if n := len(lines); n > MaxLines { // still too many: keep the start and the end
		lines = append(lines[:1], lines[n-MaxLines+1:]...)
	}
	return strings.Join(lines, "\n")
}

// answeredLines wraps text to width in lines that leave room for answers
// aw cells wide at the end of the last, or on a line of their own, within
// MaxLines: the text's middle gives way ("…") as much as it must.
// Lines broken short (a wide character that does not fit a line's last
// cell, a break at a space) took a line too many, and it was dropped
// whole, with no "…" for it.
func answeredLines(text string, aw, width int) []string {
	room := MaxLines*width - aw
	for {
		t := text
		if part.DrawnWidth(t) > room {
			t = part.Middle(text, room)
		}
		lines := part.WrapWords(t, width)
		if fits := len(lines) < MaxLines || len(lines) == MaxLines && part.DrawnWidth(lines[len(lines)-1])+aw <= width; !fits {
			lines = part.Hardwrap(t, width)
		}
		n := len(lines)
		if part.DrawnWidth(lines[n-1])+aw > width {
			n++ // the answers on a line of their own
		}
		if n <= MaxLines || room <= width {
			return lines
		}
		room -= max(width/4, 1)
	}
}

// Option is one answer of a Choice.
type Option struct {
	Key   *key.Binding // the keys that pick it: a binding of the root's key map, enabled with the choice's mode
	Label string
	Short string  // the label on narrow screens
	Pick  Request // what the answer asks for
}

// Body is what a choice draws in place of the panes while it is open.
type Body interface {
	View(c *part.Context, w, h int) string
}

// Choice offers a few answers, each on its own key; esc picks the cancel
// answer (the safe one).
type Choice struct {
	Text    string
	Options []Option
	Cancel  Request // what esc asks for: the safe answer
	// Body, if set, is drawn in place of the panes while the dialog is
	// open (an edit conflict's theirs against yours) at w×h.
	Body Body
}

// Key handles a key press in the choice.
func (ch *Choice) Key(c *part.Context, k tea.KeyPressMsg) (Request, bool, string) {
	if key.Matches(k, c.Keys.Cancel) {
		return ch.Cancel, true, ""
	}
	for _, o := range ch.Options {
		if key.Matches(k, *o.Key) {
			return o.Pick, true, ""
		}
	}
	return nil, false, ""
}

// Paste does nothing: a choice takes no text.
func (ch *Choice) Paste(string) {}

// SetKeys enables the keys of the choice's answers, and cancel.
func (ch *Choice) SetKeys(k *keymap.KeyMap) {
	on := make([]*key.Binding, len(ch.Options))
	for i, o := range ch.Options {
		on[i] = o.Key
	}
	k.Only(false, on...)
}

// View shows the question and every answer; on a narrow screen the
// answers get their short labels, and the question wraps above them.
// When even the short answers do not fit one line, they take as many as
// they need, each answer whole, and the question keeps two lines above
// them: at 20 columns "[n] as new note" was cut off.
func (ch *Choice) View(c *part.Context) string {
	st := c.Styles
	w := c.Width
	answers := strings.Join(ch.answers(st, false), "")
	if part.DrawnWidth(answers) > w {
		answers = strings.Join(ch.answers(st, true), "")
	}
	if part.DrawnWidth(answers) <= w {
		return withAnswers(st.Warning, sanitize.Line(ch.Text), answers, w)
	}
	var ans []string
	for _, a := range ch.answers(st, true) {
		a = strings.TrimLeft(a, " ")
		if n := len(ans); n > 0 && part.DrawnWidth(ans[n-1])+2+part.DrawnWidth(a) <= w {
			ans[n-1] += "  " + a
			continue
		}
		ans = append(ans, a)
	}
	room := max(MaxLines-len(ans), 2)
	text := sanitize.Line(ch.Text)
	if part.DrawnWidth(text) > room*w {
		text = part.Middle(text, room*w)
	}
	lines := part.WrapWords(text, w)
	if len(lines) > room {
		lines = part.Hardwrap(text, w)
	}
	for i, l := range lines {
		lines[i] = st.Warning.Render(l)
	}
	return strings.Join(append(lines, ans...), "\n")
}

// answers renders "  [k] label" for every option.
func (ch *Choice) answers(st *part.Styles, short bool) []string {
	out := make([]string, 0, len(ch.Options))
	for _, o := range ch.Options {
		label := o.Label
		if short && o.Short != "" {
			label = o.Short
		}
		out = append(out, "  "+st.Message.Render("["+part.KeyName(*o.Key)+"]")+" "+label)
	}
	return out
}

// Help is the `?` help's column of the keys that answer prompts,
// questions and choices.
func Help(k *keymap.KeyMap) [][]key.Binding {
	return [][]key.Binding{k.DialogKeys()}
}
