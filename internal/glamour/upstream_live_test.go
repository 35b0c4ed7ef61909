//go:build upstream

package glamour_test

import (
	"encoding/json"
	"flag"
	"os"
	"reflect"
	"testing"

	upstreamglamour "charm.land/glamour/v2"
	"github.com/charmbracelet/x/ansi"
)

// This file renders with the upstream module (go test -tags upstream
// ./internal/glamour): it writes upstreamFile (-update), checks it, and
// shows a difference from the copy whole.

var update = flag.Bool("update", false, "write "+upstreamFile+" from the upstream module")

// theirs renders md with the upstream module.
func theirs(t *testing.T, style string, width int, md string) string {
	t.Helper()
	u, err := upstreamglamour.NewTermRenderer(upstreamglamour.WithStylePath(style), upstreamglamour.WithWordWrap(width))
	if err != nil {
		t.Fatal(err)
	}
	out, err := u.Render(md)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestUpstreamRenderings makes upstreamFile's content anew from the
// upstream module and compares it with the file (-update writes it).
func TestUpstreamRenderings(t *testing.T) {
	live := upstreamRenderings{Modules: map[string]string{}, SHA256: map[string]string{}, Text: map[string]string{}, SGRs: map[string]int{}}
	required := goModRequires(t)
	for _, m := range upstreamModules {
		live.Modules[m] = required[m]
	}
	for _, style := range styleNames {
		for _, width := range []int{24, 80} {
			for name, md := range docs {
				live.SHA256[upstreamKey(style, width, name)] = hashed(theirs(t, style, width, md))
			}
		}
		for name, md := range codeDocs {
			out := theirs(t, style, 80, md)
			live.Text[upstreamKey(style, 80, name)] = ansi.Strip(out)
			live.SGRs[upstreamKey(style, 80, name)] = distinctSGRs(out)
		}
	}
	if *update {
		data, err := json.MarshalIndent(live, "", "\t")
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(upstreamFile, append(data, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if kept := upstream(t); !reflect.DeepEqual(kept, live) {
		t.Errorf("%s differs from the upstream module's renderings (go test -tags upstream -run TestUpstreamRenderings ./internal/glamour -update)", upstreamFile)
	}
}

// TestMatchesUpstream_Live is TestMatchesUpstream against the upstream
// module itself, showing both outputs where they differ.
func TestMatchesUpstream_Live(t *testing.T) {
	for _, style := range styleNames {
		for _, width := range []int{24, 80} {
			for name, md := range docs {
				t.Run(upstreamKey(style, width, name), func(t *testing.T) {
					if o, u := ours(t, style, width, md), theirs(t, style, width, md); o != u {
						t.Errorf("output differs from upstream\nours:   %q\ntheirs: %q", o, u)
					}
				})
			}
		}
	}
}
