package cli

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/crmem/crmem/internal/safefile"
)

// namesMax caps what `rm -` reads: a million names of 64 bytes fit.
const namesMax = 64 << 20

// readNames reads entry names from r, one per line, for `crmem rm -`. A
// line is a name exactly as written (spaces inside and around it are kept);
// only the line break ("\n" or "\r\n") is dropped, and empty lines are
// skipped, since no entry has an empty name.
func readNames(r io.Reader) ([]string, error) {
	sc := bufio.NewScanner(safefile.CapReader(r, "standard input", namesMax, "list of names on standard input"))
	sc.Buffer(make([]byte, 0, 64<<10), 16<<20)
	var names []string
	for line := 1; sc.Scan(); line++ {
		name := strings.TrimSuffix(sc.Text(), "\r")
		if name == "" {
			continue
		}
		if !utf8.ValidString(name) {
			return nil, fmt.Errorf("standard input line %d: name is not valid UTF-8", line)
		}
		names = append(names, name)
	}
	if err := sc.Err(); err != nil {
		var big *safefile.TooLargeError
		if errors.As(err, &big) {
			return nil, err // names standard input and the cap
		}
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, fmt.Errorf("read names from standard input: a line is longer than 16 MiB")
		}
		return nil, fmt.Errorf("read names from standard input: %w", err)
	}
	return names, nil
}
