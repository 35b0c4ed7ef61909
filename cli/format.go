package cli

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/crmem/crmem/internal/humanize"
)

// streams are the process's standard streams, as a command reads and
// writes them.
type streams struct {
	stdin          io.Reader
	stdout, stderr io.Writer
}

// output runs write on a buffered stdout and flushes it.
func (s streams) output(write func(w *bufio.Writer) error) error {
	out := &outputWriter{w: s.stdout}
	return runOutput(out, out, write)
}

// runOutput runs write on a buffer over w, whose writes end in out, and
// flushes it; it labels "write output" only what writing to out failed,
// and leaves what write read (recalls' sessions) its own message.
func runOutput(out *outputWriter, w io.Writer, write func(w *bufio.Writer) error) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	if err := write(bw); err != nil {
		if out.err != nil && errors.Is(err, out.err) {
			return fmt.Errorf("write output: %w", err)
		}
		return err
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("write output: %w", err)
	}
	return nil
}

// outputWriter is standard output that remembers its first failure, so
// output labels "write output" only what writing failed.
type outputWriter struct {
	w   io.Writer
	err error
}

func (o *outputWriter) Write(p []byte) (int, error) {
	n, err := o.w.Write(p)
	if err != nil && o.err == nil {
		o.err = err
	}
	return n, err
}

// formatDate shows a unix time as a local date and time.
func formatDate(ts uint64) string {
	if ts > humanize.MaxDisplayTime {
		return fmt.Sprintf("@%d", ts)
	}
	return time.Unix(int64(ts), 0).Local().Format("2006-01-02 15:04")
}

// table lays out rows of already-sanitized one-line cells in columns padded
// by display width. Columns in right are right-aligned; the last column is
// never padded.
type table struct {
	rows  [][]string
	right map[int]bool
}

// add appends a row.
func (t *table) add(cells ...string) { t.rows = append(t.rows, cells) }

// write prints the table, as lines lays it out, each line made in one
// buffer (a report's table may have a hundred thousand rows).
func (t *table) write(w *bufio.Writer) error {
	widths := t.widths()
	var line []byte
	for _, row := range t.rows {
		line = t.appendLine(line[:0], row, widths)
		line = append(bytes.TrimRight(line, " "), '\n')
		if _, err := w.Write(line); err != nil {
			return err
		}
	}
	return nil
}

// appendLine appends row's cells, each padded to its column's width,
// the columns two spaces apart; the caller trims the line's end.
func (t *table) appendLine(line []byte, row []string, widths []int) []byte {
	for i, c := range row {
		if i > 0 {
			line = append(line, "  "...)
		}
		pad := widths[i] - cellWidth(c)
		switch {
		case t.right[i]:
			line = appendSpaces(line, pad)
			line = append(line, c...)
		case i == len(row)-1:
			line = append(line, c...)
		default:
			line = append(line, c...)
			line = appendSpaces(line, pad)
		}
	}
	return line
}

// appendSpaces appends n spaces (none when n is not positive).
func appendSpaces(b []byte, n int) []byte {
	for range n {
		b = append(b, ' ')
	}
	return b
}

// lines renders each row as one line, header included.
func (t *table) lines() []string {
	widths := t.widths()
	out := make([]string, len(t.rows))
	var line []byte
	for r, row := range t.rows {
		line = t.appendLine(line[:0], row, widths)
		out[r] = string(bytes.TrimRight(line, " "))
	}
	return out
}

// widths returns each column's widest cell.
func (t *table) widths() []int {
	var widths []int
	for _, row := range t.rows {
		for i, c := range row {
			if i >= len(widths) {
				widths = append(widths, 0)
			}
			widths[i] = max(widths[i], cellWidth(c))
		}
	}
	return widths
}

// truncate shortens a one-line string to at most w display cells, as
// cellWidth measures them.
func truncate(s string, w int) string {
	if printableASCII(s) { // one cell a byte: most names and snippets
		if len(s) <= w {
			return s
		}
		if w < 1 {
			return ""
		}
		return s[:w-1] + "…"
	}
	t := ansi.Truncate(s, w, "…")
	if ansi.WcWidth.StringWidth(t) > w { // wider code point by code point: cut by that measure (cellWidth's)
		t = ansi.WcWidth.Truncate(s, w, "…")
	}
	return t
}

// cellWidth is s's width in display cells: its length for printable ASCII,
// without any segmentation (ls prints 100k rows); else the wider of the
// two ways a terminal may measure it, by grapheme cluster or code point by
// code point (tmux and most terminals: half-width katakana's voicing
// marks and Devanagari's vowel signs take a cell each there), as the
// screen measures what it draws, so a table's columns never run into each
// other.
func cellWidth(s string) int {
	if printableASCII(s) {
		return len(s)
	}
	return max(ansi.StringWidth(s), ansi.WcWidth.StringWidth(s))
}

// printableASCII reports whether s holds only bytes 0x20–0x7e.
func printableASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] > 0x7e {
			return false
		}
	}
	return true
}

// snippet is the first non-blank line of content, sanitized and truncated.
func snippet(content string, w int) string {
	for line := range strings.SplitSeq(content, "\n") {
		if l := strings.TrimSpace(sanitizeLine(line)); l != "" {
			return truncate(l, w)
		}
	}
	return ""
}
