package cli

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// The man pages are written here in roff, from the command tree: a page
// for crmem and one for each subcommand that --help lists. (cobra's doc
// package did this through a markdown renderer whose package init every
// crmem command paid for, issue "start in milliseconds".)

// writeManPages writes the pages of root's tree into dir and returns
// their paths. date is the pages' date.
func writeManPages(root *cobra.Command, dir string, date time.Time) ([]string, error) {
	var paths []string
	var walk func(c *cobra.Command) error
	walk = func(c *cobra.Command) error {
		if c != root && (!c.IsAvailableCommand() || c.IsAdditionalHelpTopicCommand()) {
			return nil
		}
		p := filepath.Join(dir, manName(c)+".1")
		if err := os.WriteFile(p, manPage(c, date), 0o644); err != nil {
			return err
		}
		paths = append(paths, p)
		for _, sub := range c.Commands() {
			if err := walk(sub); err != nil {
				return err
			}
		}
		return nil
	}
	return paths, walk(root)
}

// manName is c's page name: its command path with dashes (crmem-ls).
func manName(c *cobra.Command) string { return strings.ReplaceAll(c.CommandPath(), " ", "-") }

// manDate is the date the pages carry: $SOURCE_DATE_EPOCH (seconds, for
// reproducible builds) when set, else now.
func manDate(getenv func(string) string, now time.Time) (time.Time, error) {
	s := getenv("SOURCE_DATE_EPOCH")
	if s == "" {
		return now, nil
	}
	sec, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return time.Time{}, fmt.Errorf("$SOURCE_DATE_EPOCH %q is not a number of seconds", s)
	}
	return time.Unix(sec, 0).UTC(), nil
}

// manPage is c's page.
func manPage(c *cobra.Command, date time.Time) []byte {
	var b bytes.Buffer
	name := manName(c)
	// .TH resets hyphenation and adjustment, so .nh (JSON keys such as
	// created_at must not be broken with a hyphen) and .ad l (a long JSON
	// line cannot be stretched to both margins) come after it. The man
	// macros turn hyphenation back on from the register HY (groff's .EE
	// after an example does), so HY is 0 too: no word of any section is
	// broken ("mem‐ory.db" in ENVIRONMENT was).
	fmt.Fprintf(&b, ".TH \"%s\" \"1\" \"%s\" \"crmem\" \"crmem manual\"\n.nh\n.nr HY 0\n.ad l\n", strings.ToUpper(name), date.Format("Jan 2006"))
	fmt.Fprintf(&b, ".SH NAME\n%s \\- %s\n", name, roffText(c.Short))
	fmt.Fprintf(&b, ".SH SYNOPSIS\n\\fB%s\\fR\n", roffText(c.UseLine()))
	desc := c.Long
	if desc == "" {
		desc = c.Short
	}
	fmt.Fprintf(&b, ".SH DESCRIPTION\n%s\n", roffParagraphs(desc))
	manFlags(&b, "OPTIONS", c.NonInheritedFlags())
	manFlags(&b, "OPTIONS INHERITED FROM PARENT COMMANDS", c.InheritedFlags())
	if c.Example != "" {
		fmt.Fprintf(&b, ".SH EXAMPLE\n.EX\n%s\n.EE\n", roffText(strings.TrimRight(c.Example, "\n")))
	}
	b.Write(manSectionsRoff(c == c.Root()))
	var also []string
	if c.HasParent() {
		also = append(also, manName(c.Parent()))
	}
	for _, sub := range c.Commands() {
		if sub.IsAvailableCommand() && !sub.IsAdditionalHelpTopicCommand() {
			also = append(also, manName(sub))
		}
	}
	if len(also) > 0 {
		for i, a := range also {
			also[i] = "\\fB" + a + "\\fR(1)"
		}
		fmt.Fprintf(&b, ".SH SEE ALSO\n%s\n", strings.Join(also, ", "))
	}
	return asciiRoff(b.Bytes())
}

// asciiFallbacks are what a terminal without the character shows for the
// non-ASCII characters crmem's help uses, where groff and man-db have no
// fallback of their own (… was dropped in the C locale, so crmem-export.1
// showed "content":"").
var asciiFallbacks = map[rune]string{
	'…': "...", '·': ".", '—': "--", '–': "-", '×': "x", '•': "*", '●': "*",
	'→': "->", '←': "<-", '↑': "^", '↓': "v", '≤': "<=", '≥': ">=",
	'«': "<<", '»': ">>", '‘': "'", '’': "'", '“': `\(dq`, '”': `\(dq`,
}

// asciiRoff is page (roff, its first line .TH) in ASCII: every other
// character as the escape \[uXXXX], which groff and mandoc render as that
// character where the terminal has it, and after .TH a fallback (.fchar,
// used only where the output device lacks the character: the C locale)
// for each one asciiFallbacks knows. Raw UTF-8 was read as Latin-1 or
// dropped in the C locale.
func asciiRoff(page []byte) []byte {
	used := map[rune]bool{}
	for _, r := range string(page) {
		if r >= utf8.RuneSelf {
			used[r] = true
		}
	}
	var fchars []string
	for r := range used {
		if f, ok := asciiFallbacks[r]; ok {
			fchars = append(fchars, fmt.Sprintf(".fchar \\[u%04X] %s\n", r, f))
		}
	}
	slices.Sort(fchars) // the same page every run
	th, rest, _ := strings.Cut(roffRunes(string(page)), "\n")
	var out bytes.Buffer
	out.WriteString(th)
	out.WriteByte('\n')
	for _, f := range fchars {
		out.WriteString(f)
	}
	out.WriteString(rest)
	return out.Bytes()
}

// roffRunes is s with every character beyond ASCII as the roff escape
// \[uXXXX].
func roffRunes(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r < utf8.RuneSelf {
			b.WriteRune(r)
			continue
		}
		fmt.Fprintf(&b, `\[u%04X]`, r)
	}
	return b.String()
}

// manFlags writes a section listing fs's visible flags ("" when none).
func manFlags(b *bytes.Buffer, title string, fs *pflag.FlagSet) {
	var rows [][2]string
	fs.VisitAll(func(f *pflag.Flag) {
		if f.Hidden {
			return
		}
		name := "\\fB\\-\\-" + roffText(f.Name) + "\\fR"
		if f.Shorthand != "" {
			name = "\\fB\\-" + roffText(f.Shorthand) + "\\fR, " + name
		}
		if f.Value.Type() != "bool" {
			name += " \\fI" + roffText(f.Value.Type()) + "\\fR"
		}
		usage := f.Usage
		if d := f.DefValue; d != "" && d != "false" && d != "0" && d != "[]" {
			usage += " (default " + d + ")"
		}
		rows = append(rows, [2]string{name, roffText(usage)})
	})
	if len(rows) == 0 {
		return
	}
	fmt.Fprintf(b, ".SH %s\n", title)
	for _, r := range rows {
		fmt.Fprintf(b, ".TP\n%s\n%s\n", r[0], r[1])
	}
}

// roffText escapes s for roff: backslashes, and lines that would start
// with a request (. or ').
func roffText(s string) string {
	s = strings.ReplaceAll(s, `\`, `\e`)
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, ".") || strings.HasPrefix(l, "'") {
			lines[i] = `\&` + l
		}
	}
	return strings.Join(lines, "\n")
}

// roffParagraphs is s as roff paragraphs: a blank line starts a new one
// (.PP), an indented line is kept as it is (.nf … .fi) so that tables and
// examples in a description keep their columns.
func roffParagraphs(s string) string {
	var b strings.Builder
	inBlock := false
	for _, l := range strings.Split(strings.TrimSpace(s), "\n") {
		indented := strings.HasPrefix(l, " ") || strings.HasPrefix(l, "\t")
		switch {
		case strings.TrimSpace(l) == "":
			if inBlock {
				b.WriteString(".fi\n")
				inBlock = false
			}
			b.WriteString(".PP\n")
			continue
		case indented && !inBlock:
			b.WriteString(".nf\n")
			inBlock = true
		case !indented && inBlock:
			b.WriteString(".fi\n")
			inBlock = false
		}
		b.WriteString(roffText(l) + "\n")
	}
	if inBlock {
		b.WriteString(".fi\n")
	}
	return strings.TrimSuffix(b.String(), "\n")
}
