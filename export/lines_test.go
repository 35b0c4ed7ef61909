package export

import (
	"bytes"
	"errors"
	"testing"
)

// failWriter fails every write.
type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

// TestWriteLines: one JSON value per line in the order given, HTML
// characters as they are and format characters escaped as EscapeJSON does;
// a write that fails is an error naming what was written.
func TestWriteLines(t *testing.T) {
	type item struct {
		Name string `json:"name"`
	}
	var b bytes.Buffer
	err := WriteLines(&b, []string{"<a&b>", "zero\u200bwidth"}, func(s string) item { return item{s} })
	if err != nil {
		t.Fatal(err)
	}
	if got, want := b.String(), "{\"name\":\"<a&b>\"}\n{\"name\":\"zero\\u200bwidth\"}\n"; got != want {
		t.Errorf("WriteLines = %q, want %q", got, want)
	}
	if err := WriteLines(failWriter{}, []int{1}, func(i int) int { return i }); err == nil || err.Error() != "write json lines: disk full" {
		t.Errorf("a failing writer: %v", err)
	}
}
