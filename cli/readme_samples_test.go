package cli

import (
	"bytes"
	"flag"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"testing"
)

var updateReadme = flag.Bool("update-readme", false, "rewrite the demo samples and screen text of README.md and docs/*.md from crmem --demo (TestReadme_DemoSamples, TestReadme_ScreenText)")

// sampleDate masks the dates and times a demo sample shows: the demo's
// entries and sessions are dated relative to the day it runs.
var sampleDate = regexp.MustCompile(`\d{4}-\d{2}(-\d{2}([ T]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})?)?)?`)

// TestReadme_DemoSamples: every ```text block of README.md and the pages
// under docs/ that starts with `$ crmem --demo …` shows what that command
// prints (standard output and error, as a terminal shows them), but for
// dates; a line "…" stands for any number of lines left out.
// -update-readme rewrites the samples that differ from what the commands
// print now (see updatedSample), each in its page.
func TestReadme_DemoSamples(t *testing.T) {
	total := 0
	for _, page := range docPages(t) {
		md := page.text
		samples := demoSamples(md)
		total += len(samples)
		updated := map[int][]string{} // index in samples → its new lines
		for i, s := range samples {
			t.Run(s.command, func(t *testing.T) {
				got := runSample(t, s.command)
				if matchSample(s.lines, got) {
					return
				}
				if *updateReadme {
					updated[i] = updatedSample(s.lines, got)
					return
				}
				t.Errorf("%s: the sample of %q no longer matches its output (dates aside; a line … skips lines; go test ./cli -run TestReadme_DemoSamples -update-readme rewrites it). The output:\n%s", page.path, s.command, strings.Join(got, "\n"))
			})
		}
		if len(updated) == 0 {
			continue
		}
		if err := os.WriteFile(page.path, []byte(rewriteSamples(md, samples, updated)), 0o644); err != nil {
			t.Fatalf("rewrite %s: %v", page.path, err)
		}
		t.Logf("rewrote %d demo samples in %s", len(updated), page.path)
	}
	if total < 3 {
		t.Fatalf("found %d demo samples in README.md and docs/: is the parsing broken?", total)
	}
}

// runSample runs a sample's command (plain words, no shell) and returns
// what it printed, standard output and error as one stream in the order
// written (as a terminal shows them), as lines.
func runSample(t *testing.T, command string) []string {
	t.Helper()
	if strings.ContainsAny(command, `"'\$|;&<>`) {
		t.Fatalf("sample %q: only plain words are run here", command)
	}
	cmd := exec.Command(crmemBin, strings.Fields(command)[1:]...)
	cmd.Env = append(testEnv(), "TMPDIR="+t.TempDir())
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	_ = cmd.Run() // lint exits 1 when it finds something
	return strings.Split(strings.TrimRight(out.String(), "\n"), "\n")
}

// demoSample is one sample: the command after "$ ", the lines shown, and
// where those lines are in the page (md[start:end], ending in "\n").
type demoSample struct {
	command    string
	lines      []string
	start, end int
}

// demoSamples are md's ```text blocks that start with "$ crmem --demo ".
func demoSamples(md string) []demoSample {
	const open, closing = "```text\n", "```\n"
	var out []demoSample
	for at := 0; ; {
		i := strings.Index(md[at:], open)
		if i < 0 {
			return out
		}
		bodyStart := at + i + len(open)
		j := strings.Index(md[bodyStart:], closing)
		if j < 0 {
			return out
		}
		bodyEnd := bodyStart + j
		at = bodyEnd + len(closing)
		body := md[bodyStart:bodyEnd]
		if !strings.HasPrefix(body, "$ crmem --demo ") {
			continue
		}
		first, rest, _ := strings.Cut(body, "\n")
		var lines []string
		if rest = strings.TrimRight(rest, "\n"); rest != "" {
			lines = strings.Split(rest, "\n")
		}
		out = append(out, demoSample{
			command: strings.TrimPrefix(first, "$ "),
			lines:   lines,
			start:   min(bodyStart+len(first)+1, bodyEnd),
			end:     bodyEnd,
		})
	}
}

// rewriteSamples is md with the lines of samples[i] replaced by
// updated[i], for each i in updated; samples are demoSamples(md).
func rewriteSamples(md string, samples []demoSample, updated map[int][]string) string {
	// From the last sample back, so the earlier ones' offsets stay valid.
	for i := len(samples) - 1; i >= 0; i-- {
		lines, ok := updated[i]
		if !ok {
			continue
		}
		var body string
		if len(lines) > 0 {
			body = strings.Join(lines, "\n") + "\n"
		}
		md = md[:samples[i].start] + body + md[samples[i].end:]
	}
	return md
}

// isElision reports whether a sample's line stands for lines left out.
func isElision(line string) bool {
	w := strings.TrimSpace(line)
	return w == "…" || w == "..."
}

// matchSample reports whether got matches the sample's lines: each line
// equal but for dates, a line "…" (or "...") matching any number of lines.
func matchSample(want, got []string) bool {
	if len(want) == 0 {
		return len(got) == 0
	}
	if isElision(want[0]) {
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

// updatedSample is the sample to write in place of old for the output got.
// A sample without "…" becomes got whole. One with "…" keeps as many lines
// of got's start as old shows before its first "…" and as many of got's end
// as old shows after its last, with one "…" (the one old used) between
// them when got has lines left over; any "…" in the middle is dropped,
// since what it stood between may be gone.
func updatedSample(old, got []string) []string {
	first := slices.IndexFunc(old, isElision)
	if first < 0 {
		return slices.Clone(got)
	}
	last := len(old) - 1
	for !isElision(old[last]) {
		last--
	}
	head, tail := first, len(old)-1-last
	if head+tail >= len(got) {
		return slices.Clone(got)
	}
	out := slices.Clone(got[:head])
	out = append(out, old[first])
	return append(out, got[len(got)-tail:]...)
}

// TestReadme_MatchSample: a sample matches only the output it shows, dates
// aside, "…" skipping any number of lines (none included).
func TestReadme_MatchSample(t *testing.T) {
	got := []string{"#   SCORE  NAME", "1  3.8307  db-migrations", "2  2.0021  archive-sess-0011-1", "3 archives · created 2026-11-27 06:50"}
	for _, c := range []struct {
		name string
		want []string
		ok   bool
	}{
		{"whole", slices.Clone(got), true},
		{"other dates", []string{got[0], got[1], got[2], "3 archives · created 2025-01-02 23:59"}, true},
		{"a score drifted", []string{got[0], "1  3.8308  db-migrations", got[2], got[3]}, false},
		{"a line more", append(slices.Clone(got), "4  1.0000  extra"), false},
		{"a line less", got[:3], false},
		{"elided middle", []string{got[0], "…", got[3]}, true},
		{"elided nothing", []string{got[0], got[1], "…", got[2], got[3]}, true},
		{"elided end", []string{got[0], "..."}, true},
		{"elided, a shown line drifted", []string{"…", "3 archives · created 2026-11-27 06:50 UTC"}, false},
		{"empty against output", nil, false},
	} {
		if ok := matchSample(c.want, got); ok != c.ok {
			t.Errorf("%s: matchSample = %v, want %v", c.name, ok, c.ok)
		}
	}
}

// TestReadme_UpdatedSample: -update-readme writes the output whole, or
// keeps a sample's elision with as many lines around it as it showed.
func TestReadme_UpdatedSample(t *testing.T) {
	got := []string{"a", "b", "c", "d", "e", "f"}
	for _, c := range []struct {
		name     string
		old, new []string
	}{
		{"no elision", []string{"a", "x"}, got},
		{"was empty", nil, got},
		{"elided end", []string{"a", "b", "..."}, []string{"a", "b", "..."}},
		{"elided start", []string{"…", "z"}, []string{"…", "f"}},
		{"elided middle", []string{"a", "…", "y", "z"}, []string{"a", "…", "e", "f"}},
		{"two elisions become one", []string{"a", "…", "m", "…", "z"}, []string{"a", "…", "f"}},
		{"nothing left to elide", []string{"a", "b", "c", "…", "x", "y", "z"}, got},
	} {
		if g := updatedSample(c.old, got); !slices.Equal(g, c.new) {
			t.Errorf("%s: updatedSample(%q) = %q, want %q", c.name, c.old, g, c.new)
		}
		if g := updatedSample(c.old, got); !matchSample(g, got) {
			t.Errorf("%s: the updated sample %q does not match the output it came from", c.name, g)
		}
	}
}

// TestReadme_RewriteSamples: the rewrite replaces only the samples' lines,
// leaving their commands, other blocks and the text around them as they are.
func TestReadme_RewriteSamples(t *testing.T) {
	md := "Intro.\n\n```text\n$ crmem --demo ls\nold 1\n…\n```\n\n```text\n$ crmem ls\nnot a demo sample\n```\n" +
		"Between.\n```text\n$ crmem --demo check\n```\nEnd.\n"
	samples := demoSamples(md)
	if len(samples) != 2 || samples[0].command != "crmem --demo ls" || samples[1].command != "crmem --demo check" {
		t.Fatalf("demoSamples = %+v", samples)
	}
	if !slices.Equal(samples[0].lines, []string{"old 1", "…"}) || samples[1].lines != nil {
		t.Fatalf("lines %q and %q", samples[0].lines, samples[1].lines)
	}
	got := rewriteSamples(md, samples, map[int][]string{0: {"new 1", "…"}, 1: {"valid", "18 entries"}})
	want := "Intro.\n\n```text\n$ crmem --demo ls\nnew 1\n…\n```\n\n```text\n$ crmem ls\nnot a demo sample\n```\n" +
		"Between.\n```text\n$ crmem --demo check\nvalid\n18 entries\n```\nEnd.\n"
	if got != want {
		t.Errorf("rewriteSamples:\n%s\nwant:\n%s", got, want)
	}
	if again := rewriteSamples(got, demoSamples(got), map[int][]string{1: nil}); again != strings.Replace(want, "valid\n18 entries\n", "", 1) {
		t.Errorf("emptied sample:\n%s", again)
	}
}

// TestReadme_DriftedSampleFails: a sample whose shown output differs from
// what its command prints now is told apart, and the update makes it match.
func TestReadme_DriftedSampleFails(t *testing.T) {
	md := "```text\n$ crmem --demo tokens The Deploy-Steps\ndeploy\nstep\n```\n"
	samples := demoSamples(md)
	if len(samples) != 1 {
		t.Fatalf("demoSamples = %+v", samples)
	}
	got := runSample(t, samples[0].command)
	if !slices.Equal(got, []string{"deploy", "steps"}) {
		t.Fatalf("crmem --demo tokens printed %q", got)
	}
	if matchSample(samples[0].lines, got) {
		t.Fatalf("the drifted sample %q matches %q", samples[0].lines, got)
	}
	fixed := rewriteSamples(md, samples, map[int][]string{0: updatedSample(samples[0].lines, got)})
	if want := "```text\n$ crmem --demo tokens The Deploy-Steps\ndeploy\nsteps\n```\n"; fixed != want {
		t.Errorf("updated:\n%s\nwant:\n%s", fixed, want)
	}
}
