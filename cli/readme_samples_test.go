package cli

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// sampleDate masks the dates and times a demo sample shows: the demo's
// entries and sessions are dated relative to the day it runs.
var sampleDate = regexp.MustCompile(`\d{4}-\d{2}(-\d{2}( \d{2}:\d{2}(:\d{2})?)?)?`)

// TestReadme_DemoSamples: every ```text block of README.md that starts with
// `$ crmem --demo …` shows what that command prints (standard output and
// error, as a terminal shows them), but for dates; a line "…" stands for
// any number of lines left out.
func TestReadme_DemoSamples(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	samples := demoSamples(string(b))
	if len(samples) < 3 {
		t.Fatalf("found %d demo samples in README.md: is the parsing broken?", len(samples))
	}
	for _, s := range samples {
		t.Run(s.command, func(t *testing.T) {
			if strings.ContainsAny(s.command, `"'\$|;&`) {
				t.Fatalf("sample %q: only plain words are run here", s.command)
			}
			cmd := exec.Command(crmemBin, strings.Fields(s.command)[1:]...)
			cmd.Env = append(testEnv(), "TMPDIR="+t.TempDir())
			var out bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &out // one stream, in the order written
			_ = cmd.Run()                       // lint exits 1 when it finds something
			got := strings.Split(strings.TrimRight(out.String(), "\n"), "\n")
			if !matchSample(s.lines, got) {
				t.Errorf("README.md's sample of %q no longer matches its output (dates aside; a line … skips lines). The output:\n%s", s.command, out.String())
			}
		})
	}
}

// demoSample is one sample: the command after "$ " and the lines shown.
type demoSample struct {
	command string
	lines   []string
}

// demoSamples are md's ```text blocks that start with "$ crmem --demo ".
func demoSamples(md string) []demoSample {
	var out []demoSample
	blocks := strings.Split(md, "```text\n")
	for _, blk := range blocks[1:] {
		body, _, ok := strings.Cut(blk, "```\n")
		if !ok || !strings.HasPrefix(body, "$ crmem --demo ") {
			continue
		}
		lines := strings.Split(strings.TrimRight(body, "\n"), "\n")
		out = append(out, demoSample{strings.TrimPrefix(lines[0], "$ "), lines[1:]})
	}
	return out
}

// matchSample reports whether got matches the sample's lines: each line
// equal but for dates, a line "…" (or "...") matching any number of lines.
func matchSample(want, got []string) bool {
	if len(want) == 0 {
		return len(got) == 0
	}
	if w := strings.TrimSpace(want[0]); w == "…" || w == "..." {
		for i := 0; i <= len(got); i++ {
			if matchSample(want[1:], got[i:]) {
				return true
			}
		}
		return false
	}
	return len(got) > 0 && sampleDate.ReplaceAllString(want[0], "D") == sampleDate.ReplaceAllString(got[0], "D") &&
		matchSample(want[1:], got[1:])
}
