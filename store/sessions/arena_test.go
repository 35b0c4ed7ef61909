package sessions

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

// TestRecallBuilder_ArenaNotKept reads sessions whose results are read
// into the builder's arena and blocks, both scribbled over after every step,
// and finds them read as with a fresh arena for each step: nothing a
// session keeps (names, the starts of blocks, a write's result) is a view
// of a step read over since.
func TestRecallBuilder_ArenaNotKept(t *testing.T) {
	sessions := map[string][][]byte{}
	dirs, _ := filepath.Glob("../../testdata/recalls/sessions/*")
	for _, dir := range dirs {
		files, _ := filepath.Glob(filepath.Join(dir, "step-*"))
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			sessions[dir] = append(sessions[dir], data)
		}
	}
	var made [][]byte
	for i := range 12 {
		id := fmt.Sprintf("toolu_%d", i)
		made = append(made,
			fmt.Appendf(nil, `{"message":{"role":"assistant","content":[{"type":"tool_use","id":%q,"name":"recall","input":{"query":"deploy %d","limit":3}}]}}`, id, i),
			fmt.Appendf(nil, `{"message":{"role":"user","content":[{"type":"tool_result","tool_use_id":%q,"name":"recall","content":"## note-%d\nfirst \"line\" %d\n---\n## note-%d\nsecond\tline\n---\n## caf\u00e9-%d\n\u00e9"}]}}`, id, i, i, i+1, i),
			fmt.Appendf(nil, `{"message":{"role":"assistant","content":[{"type":"tool_use","id":"w%d","name":"remember","input":{"name":"n-%d","content":"c"}}]}}`, i, i),
			fmt.Appendf(nil, `{"message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"w%d","content":"remembered: n-%d"}]}}`, i, i),
		)
	}
	sessions["made"] = made
	noTime := func() (time.Time, bool) { return time.Time{}, false }
	// Read against entries as read too (RecallOptions.Entries): names
	// found in a block's start.
	known := func(n string) (string, bool) {
		return "first \"line\" 0", strings.HasPrefix(n, "note-") || strings.HasPrefix(n, "deploy")
	}
	for key, steps := range sessions {
		for _, lookup := range []func(string) (string, bool){nil, known} {
			name := fmt.Sprintf("%s, entries %v", key, lookup != nil)
			read := func(scribble bool) SessionRecalls {
				b := NewRecallBuilder("s", "crab", 5, time.Time{})
				b.known = lookup
				for i, data := range steps {
					b.AddStep(fmt.Sprintf("step-%06d", i), data, noTime)
					if scribble {
						a := b.arena[:cap(b.arena)]
						for k := range a {
							a[k] = 'x'
						}
						bl := b.blocks[:cap(b.blocks)]
						for k := range bl {
							bl[k] = fastBlock{Type: "tool_use", ID: "x", Name: "recall", Input: []byte(`{"query":"x"}`)}
						}
					} else {
						b.arena, b.blocks = nil, nil
					}
				}
				return b.Finish()
			}
			want, got := read(false), read(true)
			if len(want.Recalls) == 0 {
				t.Fatalf("%s: no recalls read", name)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%s: with the arena read over\n%+v\nwant\n%+v", name, got, want)
			}
		}
	}
}
