package statsview

import (
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/crmem/crmem/internal/humanize"
	"github.com/crmem/crmem/store/stats"
)

// recalled is the recall history's section: nothing when none was read,
// one line when there is none, else the totals, the most recalled
// entries, the never-recalled ones and what reading the sessions skipped.
func recalled(s stats.Stats, width int, st Style) []string {
	r := s.Recalls
	if r == nil {
		return nil
	}
	problems := r.Problems.Line(st.name)
	if r.IsZero() {
		line := apply(st.Title, "recall history") + "  none: "
		switch {
		case r.Problems.NoFolder != "":
			line += "no sessions folder at " + st.name(r.Problems.NoFolder)
		case problems != "":
			line += "no recall in " + humanize.Plural(r.Sessions, "session") + "; " + problems
		default:
			line += "no recall in " + humanize.Plural(r.Sessions, "session")
		}
		return wrap(line, width)
	}
	out := wrap(apply(st.Title, "recall history")+"  "+humanize.Plural(r.Recalls, "recorded recall")+
		" in "+humanize.Plural(r.Sessions, "session")+apply(st.Dim, " · ")+
		humanize.Count(r.Recalled)+" of "+humanize.Plural(r.Recalled+r.Never, "entry")+" recalled", width)
	if problems != "" {
		out = append(out, wrap(apply(st.Dim, "skipped: ")+problems, width)...)
	}
	if len(r.Most) > 0 {
		out = append(out, "", apply(st.Title, "most recalled")+apply(st.Dim, "  (times returned then, as recorded)"))
		w := 0
		for _, u := range r.Most {
			w = max(w, len(humanize.Count(u.Then)))
		}
		for _, u := range r.Most {
			out = append(out, pad(humanize.Count(u.Then), w)+"×  "+st.kind(u.Kind, kindLetter(u.Kind))+" "+st.name(u.Name))
		}
	}
	out = append(out, "", apply(st.Title, "never recalled")+"  "+humanize.Plural(r.Never, "entry")+apply(st.Dim, " no recorded recall returned"))
	out = append(out, neverRows(r, st)...)
	return out
}

// neverRows lists a few never-recalled entries, oldest then biggest, with
// age and size in aligned columns.
func neverRows(r *stats.Recalls, st Style) []string {
	type row struct {
		label string
		u     stats.Recalled
	}
	var rows []row
	group := func(label string, us []stats.Recalled) {
		for i, u := range us {
			if i > 0 {
				label = "" // the group's label on its first row only
			}
			rows = append(rows, row{label, u})
		}
	}
	group("oldest", r.NeverOldest)
	group("biggest", r.NeverBiggest)
	cells := [][]string{}
	for _, rw := range rows {
		age := "undated"
		if rw.u.CreatedAt != 0 {
			age = humanize.Age(r.At, rw.u.CreatedAt)
		}
		cells = append(cells, []string{"  " + rw.label, age, humanize.Size(rw.u.Bytes)})
	}
	if len(cells) == 0 {
		return nil
	}
	lines := columns(cells)
	for i, rw := range rows {
		if rw.label != "" {
			lines[i] = strings.Replace(lines[i], rw.label, apply(st.Dim, rw.label), 1)
		}
		lines[i] += "  " +
			st.kind(rw.u.Kind, kindLetter(rw.u.Kind)) + " " + st.name(rw.u.Name)
	}
	return lines
}

// wrap breaks a long line at spaces to width cells, the following lines
// indented by two; a word longer than that is cut later, as every line is.
func wrap(line string, width int) []string {
	const indent = "  "
	head, tail, ok := strings.Cut(ansi.Wordwrap(line, width, ""), "\n")
	if !ok {
		return []string{head}
	}
	out := []string{head}
	for _, l := range strings.Split(ansi.Wordwrap(strings.ReplaceAll(tail, "\n", " "), max(width-len(indent), 1), ""), "\n") {
		out = append(out, indent+l)
	}
	return out
}
