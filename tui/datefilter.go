package tui

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/crmem/crmem/internal/humanize"
	"github.com/crmem/crmem/store"
)

// dateRange keeps entries created in [from, to) (unix seconds). The zero
// value keeps everything.
type dateRange struct {
	text     string // as the user typed it, for the header; "" when off
	from, to uint64
}

// on reports whether the filter restricts the list.
func (r dateRange) on() bool { return r.text != "" }

// keep reports whether an entry created at t passes.
func (r dateRange) keep(t uint64) bool { return !r.on() || t >= r.from && t < r.to }

// errDateFilter lists the forms the date filter understands.
var errDateFilter = errors.New("write <30d (newer than), >90d (older than), 2026-03 (a month), 2026-03-01 (a day) or 2026-03-01..2026-04-15")

// parseDateFilter reads the date filter's prompt: "<30d" (created within
// the last 30 days), ">90d" (more than 90 days ago), "2026-03" (that month),
// "2026-03-01" (that day), "A..B" (from the start of A to the end of B,
// each a month or a day; either may be left out). Spans use the units of
// humanize (m h d w mo y); dates are in loc. An empty text clears it.
func parseDateFilter(text string, now time.Time, loc *time.Location) (dateRange, error) {
	s := strings.TrimSpace(text)
	r := dateRange{text: s, to: math.MaxUint64}
	switch {
	case s == "":
		return dateRange{}, nil
	case s[0] == '<' || s[0] == '>':
		d, err := humanize.ParseSpan(s[1:])
		if tooLong := (*humanize.SpanTooLongError)(nil); errors.As(err, &tooLong) {
			return dateRange{}, err // says the largest span
		}
		if err != nil {
			return dateRange{}, fmt.Errorf("%q: %w", s, humanize.ErrSpan)
		}
		edge := unixAtLeast0(now.Add(-d))
		if s[0] == '<' {
			r.from = edge
		} else {
			r.to = edge
		}
		return r, nil
	}
	a, b, isRange := strings.Cut(s, "..")
	if !isRange {
		b = a
	}
	var err error
	if a = strings.TrimSpace(a); a != "" {
		if r.from, _, err = calendarSpan(a, loc); err != nil {
			return dateRange{}, err
		}
	}
	if b = strings.TrimSpace(b); b != "" {
		if _, r.to, err = calendarSpan(b, loc); err != nil {
			return dateRange{}, err
		}
	}
	if a == "" && b == "" || r.from >= r.to {
		return dateRange{}, fmt.Errorf("%q: the range is empty; %w", s, errDateFilter)
	}
	return r, nil
}

// calendarSpan reads "2026-03" or "2026-03-01" as [start, end) in loc.
func calendarSpan(s string, loc *time.Location) (uint64, uint64, error) {
	if t, err := time.ParseInLocation("2006-01-02", s, loc); err == nil {
		return unixAtLeast0(t), unixAtLeast0(t.AddDate(0, 0, 1)), nil
	}
	if t, err := time.ParseInLocation("2006-01", s, loc); err == nil {
		return unixAtLeast0(t), unixAtLeast0(t.AddDate(0, 1, 0)), nil
	}
	return 0, 0, fmt.Errorf("%q: %w", s, errDateFilter)
}

// unixAtLeast0 is t in unix seconds, 0 before 1970.
func unixAtLeast0(t time.Time) uint64 {
	if t.Unix() < 0 {
		return 0
	}
	return uint64(t.Unix())
}

// dateState is the date filter and its prompt.
type dateState struct {
	r         dateRange
	prompting bool
	input     lineInput
	err       string // the last bad input's message, shown in the prompt
}

// keep is the list's entry filter for the date range; nil when off.
func (d *dateState) keep() func(store.Entry) bool {
	if !d.r.on() {
		return nil
	}
	r := d.r
	return func(e store.Entry) bool { return r.keep(e.CreatedAt) }
}

// open starts typing a date filter on an empty line (enter on it clears
// the filter); the placeholder names the filter in force.
func (d *dateState) open(c *common) {
	keys := &c.keys
	hint := "<30d  >90d  2026-03  2026-03-01..2026-04-15" + paren(hints(": ", keyName(keys.Accept), "all dates"))
	if d.r.on() {
		hint = hints(" · ", "now "+d.r.text, hints(" on empty: ", keyName(keys.Accept), "all dates"), hints(": ", keyName(keys.Cancel), "keep it"))
	}
	in := lineInput{Prompt: "created: ", Placeholder: hint, Limit: 64}
	in.PromptStyle, in.DimStyle = c.styles.prompt, c.styles.dim
	in.SetWidth(max(c.width-2, 10))
	in.Focus()
	d.input, d.prompting, d.err = in, true, ""
}

// key edits the prompt: enter closes it with the range typed (empty
// clears), unless it cannot be read (err, shown in the prompt); esc
// cancels. The root applies the range (apply).
func (d *dateState) key(c *common, k tea.KeyPressMsg) (r dateRange, apply bool, err error) {
	switch {
	case key.Matches(k, c.keys.Cancel):
		d.prompting = false
		return dateRange{}, false, nil
	case key.Matches(k, c.keys.Accept):
		r, err := parseDateFilter(d.input.Value(), c.now(), c.loc)
		if err != nil {
			d.err = err.Error()
			return dateRange{}, false, err
		}
		d.prompting = false
		return r, true, nil
	}
	if d.input.Key(k) {
		d.err = ""
	}
	return dateRange{}, false, nil
}

// dateKey gives a key to the date prompt and applies what it answers.
func (m *Model) dateKey(k tea.KeyPressMsg) tea.Cmd {
	r, apply, err := m.dates.key(&m.c, k)
	switch {
	case err != nil:
		return m.setMessage(err.Error()) // whole, on its own line if need be
	case apply:
		return m.setDateFilter(r)
	}
	return nil
}

// setDateFilter applies a range to the list, with the kind filter and the
// search.
func (m *Model) setDateFilter(r dateRange) tea.Cmd {
	m.dates.r = r
	id, had := m.list.SelectedID(m.c.snap)
	m.list.Home()
	m.list.Relayout(m.c.snap, m.rowsSpec(), id, had, m.bodyHeight())
	msg := "date filter off"
	if r.on() {
		msg = fmt.Sprintf("created %s: %s listed", r.text, humanize.Count(m.listedCount()))
	}
	return tea.Batch(m.showSelected(), m.setMessage(msg))
}

// view is the prompt line, with the last error. The examples and keys
// shown on an empty line go below it, wrapped, when they do not fit
// beside it within width: cut at the edge they lost the key that clears
// the filter.
func (d *dateState) view(st *styles, width int) string {
	v := d.input.View()
	if d.input.Value() == "" {
		if drawnWidth(v)+1+drawnWidth(d.input.Placeholder) <= width {
			v += " " + st.dim.Render(d.input.Placeholder)
		} else {
			for _, l := range wrapWords(d.input.Placeholder, width) {
				v += "\n" + st.dim.Render(l)
			}
		}
	}
	if d.err != "" {
		v += "  " + st.warning.Render(d.err)
	}
	return v
}
