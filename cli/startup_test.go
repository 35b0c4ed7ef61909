package cli

import (
	"debug/buildinfo"
	"fmt"
	"testing"
)

// TestBinary_NoEagerInitDependencies pins what keeps crmem's start short:
// the binary links neither chroma (whose init registers every lexer and
// style), bluemonday (CSS tables) nor a go-runewidth that builds its width
// tables at init (before v0.0.30).
func TestBinary_NoEagerInitDependencies(t *testing.T) {
	info, err := buildinfo.ReadFile(crmemBin)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range info.Deps {
		switch d.Path {
		case "github.com/alecthomas/chroma/v2", "github.com/dlclark/regexp2",
			"github.com/microcosm-cc/bluemonday", "github.com/gorilla/css", "github.com/aymerick/douceur":
			t.Errorf("crmem links %s %s", d.Path, d.Version)
		case "github.com/mattn/go-runewidth":
			var patch int
			if _, err := fmt.Sscanf(d.Version, "v0.0.%d", &patch); err != nil || patch < 30 {
				t.Errorf("crmem links go-runewidth %s: its tables are built at init before v0.0.30", d.Version)
			}
		}
	}
}
