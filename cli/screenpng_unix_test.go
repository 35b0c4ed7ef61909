//go:build unix

package cli

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// docs/screen.png is drawn by scripts/screenshot.sh from `crmem --demo`
// at 120×40 after /rollout and enter. The script keeps, beside it, the
// same screen as text (docs/screen.txt) and the SHA-256 of the picture
// and that text together (docs/screen.sum), so the three are made at
// once and only by it.

// TestScreenPicture_FollowsTheDemo: docs/screen.txt is the demo's screen
// as it is now (but for the dates and the timing), and docs/screen.sum
// the hash of docs/screen.png with that text: a change to the demo's
// screen fails here until scripts/screenshot.sh draws the picture again
// (issue 42 item 9: the picture lacked the card's "remembered by session
// «deploy pipeline» … · 4 versions" line). There is no update flag: a
// text updated alone would not match the sum.
func TestScreenPicture_FollowsTheDemo(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: drives crmem in a terminal")
	}
	read := func(name string) []byte {
		b, err := os.ReadFile(filepath.Join("..", "docs", name))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	png, text, sum := read("screen.png"), read("screen.txt"), strings.TrimSpace(string(read("screen.sum")))
	h := sha256.Sum256(append(append([]byte{}, png...), text...))
	if got := hex.EncodeToString(h[:]); got != sum {
		t.Errorf("docs/screen.sum is %s, the hash of docs/screen.png and docs/screen.txt %s: the picture and its text were not made together (run scripts/screenshot.sh)", sum, got)
	}
	screen := screenPath.ReplaceAllString(demoScreen(t, 120, 40), readmeDemoPath)
	if maskScreen(string(text)) != maskScreen(screen) {
		t.Errorf("docs/screen.png (docs/screen.txt) is older than the demo's screen: run scripts/screenshot.sh to draw it again; the screen now:\n%s", screen)
	}
}
