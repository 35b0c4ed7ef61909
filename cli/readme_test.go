package cli

import (
	"bufio"
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/crmem/crmem/store"
)

// The example lines of the README and the pages under docs/ are run here
// as written, with `bash -o pipefail -c LINE`, in a scratch HOME whose
// ~/.crabtalk/memory.db is a copy of the reference's small.db (plus the
// entries the examples name), with the built crmem first on PATH; a line
// with --demo works on the demo's own copy instead.
// TestReadme_EveryExampleTested keeps this table and the pages' sh blocks
// in step, so the documentation cannot drift from the program.

// readmeExample is one example line of README.md or a page under docs/,
// how to prepare the scratch folder for it, and what must hold after it
// ran.
type readmeExample struct {
	line  string
	needs []string                                  // programs the line uses besides crmem
	seed  func(entries []store.Entry) []store.Entry // changes to the seeded memory
	setup func(t *testing.T, s *scratch)
	check func(t *testing.T, s *scratch, r result)
	code  int // expected exit status
}

// scratch is one example's HOME and working folder.
type scratch struct {
	home, db, bin string
}

// readmeExamples are the tests of the README's example lines.
func readmeExamples() []readmeExample {
	return []readmeExample{
		{line: "crmem version       # the commit it was built from", check: func(t *testing.T, s *scratch, r result) {
			wantPrefix(t, r.stdout, "crmem ")
		}},
		{line: "crmem config                 # every setting, its value and where it came from", check: func(t *testing.T, s *scratch, r result) {
			wantContains(t, r.stdout, "(not found: defaults)", `sort = "newest"`, `keys.quit = ["q", "ctrl+c"]`, "# default")
		}},
		{line: "crmem config --path          # the file's path (whether or not it exists)", check: func(t *testing.T, s *scratch, r result) {
			if want := filepath.Join(s.home, ".config", "crmem", "config.toml") + "\n"; r.stdout != want {
				t.Errorf("stdout %q, want %q", r.stdout, want)
			}
		}},
		{line: "crmem config --default > config.toml   # a complete, commented file to start from", check: func(t *testing.T, s *scratch, r result) {
			b, err := os.ReadFile(filepath.Join(s.home, "config.toml"))
			if err != nil {
				t.Fatal(err)
			}
			wantContains(t, string(b), "[search]", "[keys]", `quit = ["q", "ctrl+c"]`)
		}},
		{line: "crmem --demo ls                                  # the sample memory's entries", check: func(t *testing.T, s *scratch, r result) {
			wantContains(t, r.stdout, "deploy-steps", "user-preferences")
		}},
		{line: "crmem --demo show deploy-steps                   # one entry: a card, then its content", check: func(t *testing.T, s *scratch, r result) {
			wantContains(t, r.stdout, "aliases  ship, release, rollout", "Deploying the billing service")
		}},
		{line: "crmem --demo search deploy rollback --limit 3    # the agent's own recall ranking", check: func(t *testing.T, s *scratch, r result) {
			wantContains(t, r.stdout, "deploy-steps", "SCORE")
		}},
		{line: "crmem --demo show ship --json | jq -r .content   # by alias", needs: []string{"jq"}, check: func(t *testing.T, s *scratch, r result) {
			wantPrefix(t, r.stdout, "# Deploying the billing service\n")
			wantContains(t, r.stdout, "kubectl rollout undo")
		}},
		{line: "crmem --demo show ship --pretty                  # indented JSON", check: func(t *testing.T, s *scratch, r result) {
			var e jsonEntry
			mustJSON(t, r.stdout, &e)
			if e.Name != "deploy-steps" || strings.Count(r.stdout, "\n") < 5 {
				t.Errorf("stdout %q", r.stdout)
			}
		}},
		{line: `crmem --demo search "deploy staging" --kind archive --json`, check: func(t *testing.T, s *scratch, r result) {
			var hits []jsonHit
			mustJSON(t, r.stdout, &hits)
			if len(hits) == 0 {
				t.Fatal("no hits: the example shows nothing")
			}
			for _, h := range hits {
				if h.Kind != "archive" {
					t.Errorf("hit %s is a %s", h.Name, h.Kind)
				}
			}
		}},
		{line: `crmem --demo tokens "The Deploy-Steps of ΣΟΦΟΣ"  # deploy, steps, σοφος`, check: func(t *testing.T, s *scratch, r result) {
			if r.stdout != "deploy\nsteps\nσοφος\n" {
				t.Errorf("stdout %q", r.stdout)
			}
		}},
		{line: "crmem --demo check                               # counts, anomalies, the sessions' compact markers", check: func(t *testing.T, s *scratch, r result) {
			wantContains(t, r.stdout, "valid CRMEM v1 file", "anomalies  none", "4 compact markers")
		}},
		{line: "crmem --demo stats --top 3                       # sizes by kind, growth per month, the 3 biggest entries", check: func(t *testing.T, s *scratch, r result) {
			wantContains(t, r.stdout, "18 entries · ", "added per month", "largest entries (bytes)", "most tokens")
		}},
		{line: "crmem --demo bench --iterations 20", check: func(t *testing.T, s *scratch, r result) {
			wantContains(t, r.stdout, "(12 queries × 20)")
		}},
		{line: "crmem --demo export > memory.jsonl", check: func(t *testing.T, s *scratch, r result) {
			b, err := os.ReadFile(filepath.Join(s.home, "memory.jsonl"))
			if err != nil {
				t.Fatal(err)
			}
			if n := bytes.Count(b, []byte("\n")); n != 18 {
				t.Errorf("%d lines exported, want the demo's 18", n)
			}
		}},
		{line: `crmem --demo add my-note "a first note"          # a write: on a fresh copy, forgotten when crmem ends`, check: func(t *testing.T, s *scratch, r result) {
			wantContains(t, r.stdout, "added my-note (id 19, note)")
			s.gone(t, "my-note") // the memory in HOME is not the one written
		}},
		{line: `crmem add deploy-steps "1. tag 2. push 3. watch the canary" --alias ship --alias release`,
			seed: without("deploy-steps"),
			check: func(t *testing.T, s *scratch, r result) {
				e := s.entry(t, "deploy-steps")
				if e.Content != "1. tag 2. push 3. watch the canary" || !slices.Equal(e.Aliases, []string{"ship", "release"}) {
					t.Errorf("entry %+v", e)
				}
			}},
		{line: "git log -1 --format=%B | crmem add last-commit   # content from stdin, byte for byte", needs: []string{"git"},
			setup: func(t *testing.T, s *scratch) {
				s.git(t, "init", "-q")
				s.git(t, "commit", "-q", "--allow-empty", "-m", "fix: keep the canary at 5 %\n\nBody line.")
			},
			check: func(t *testing.T, s *scratch, r result) {
				if want := s.git(t, "log", "-1", "--format=%B"); s.entry(t, "last-commit").Content != want {
					t.Errorf("content %q, want %q", s.entry(t, "last-commit").Content, want)
				}
			}},
		{line: "crmem add weekly --kind topic < weekly.md",
			setup: func(t *testing.T, s *scratch) { s.write(t, "weekly.md", "# Week 47\n\n- shipped 2.14\n") },
			check: func(t *testing.T, s *scratch, r result) {
				e := s.entry(t, "weekly")
				if e.Kind != store.Topic || e.Content != "# Week 47\n\n- shipped 2.14\n" {
					t.Errorf("entry %+v", e)
				}
			}},
		{line: "crmem write deploy-steps < steps.md              # keeps the aliases",
			setup: func(t *testing.T, s *scratch) { s.write(t, "steps.md", "1. tag\n2. push\n") },
			check: func(t *testing.T, s *scratch, r result) {
				e := s.entry(t, "deploy-steps")
				if e.Content != "1. tag\n2. push\n" || !slices.Equal(e.Aliases, []string{"ship", "release", "rollout"}) {
					t.Errorf("entry %+v", e)
				}
			}},
		{line: `crmem update deploy-steps "1. tag 2. push" --alias ship   # aliases become exactly [ship]`, check: func(t *testing.T, s *scratch, r result) {
			e := s.entry(t, "deploy-steps")
			if e.Content != "1. tag 2. push" || !slices.Equal(e.Aliases, []string{"ship"}) {
				t.Errorf("entry %+v", e)
			}
		}},
		{line: "crmem alias deploy-steps ship release rollout", seed: clearAliases("deploy-steps"), check: func(t *testing.T, s *scratch, r result) {
			if got := s.entry(t, "deploy-steps").Aliases; !slices.Equal(got, []string{"ship", "release", "rollout"}) {
				t.Errorf("aliases %q", got)
			}
		}},
		{line: "crmem rename deploy-steps release-checklist", check: func(t *testing.T, s *scratch, r result) {
			if e := s.entry(t, "release-checklist"); e.ID != 1 {
				t.Errorf("renamed entry has id %d, want 1", e.ID)
			}
			s.gone(t, "deploy-steps")
		}},
		{line: "crmem rm scratch old-idea", check: func(t *testing.T, s *scratch, r result) {
			s.gone(t, "scratch", "old-idea")
			s.entry(t, "deploy-steps")
		}},
		{line: bulkDelete, needs: []string{"jq"}, check: func(t *testing.T, s *scratch, r result) {
			s.gone(t, "old session notes", "older-archive")
			s.entry(t, "archive-sess-0001-1767300000000000000") // created 2026-01-02: kept
		}},
		{line: bulkDelete, needs: []string{"jq"}, seed: without("old session notes", "older-archive"),
			check: func(t *testing.T, s *scratch, r result) {
				wantContains(t, r.stderr, "no names on standard input; nothing removed")
				s.entry(t, "archive-sess-0001-1767300000000000000")
			}},
		{line: "crmem edit deploy-steps                          # in a terminal (from a script: refused, exit 1)", code: 1, check: func(t *testing.T, s *scratch, r result) {
			wantContains(t, r.stderr, "the editor needs a terminal")
			wantNot(t, s.entry(t, "deploy-steps").Content, "edited by the README test")
		}},
		{line: `crmem edit ship --no-terminal                    # an editor with its own window, EDITOR="code -w"`, check: func(t *testing.T, s *scratch, r result) {
			wantContains(t, s.entry(t, "deploy-steps").Content, "edited by the README test")
		}},
		{line: "crmem dump ~/memory-book && crmem load ~/memory-book", check: func(t *testing.T, s *scratch, r result) {
			if _, err := os.Stat(filepath.Join(s.home, "memory-book", "SUMMARY.md")); err != nil {
				t.Error(err)
			}
			if n := len(s.entries(t)); n != len(seedEntries(t)) {
				t.Errorf("%d entries after dump and load, want %d", n, len(seedEntries(t)))
			}
		}},
		{line: "crmem check --sessions ~/.crabtalk/sessions",
			setup: func(t *testing.T, s *scratch) {
				copyTree(t, filepath.Join("..", "testdata", "reference", "sessions"), filepath.Join(s.home, ".crabtalk", "sessions"))
			},
			check: func(t *testing.T, s *scratch, r result) {
				wantContains(t, r.stdout, "4 compact markers", `missing archive "archive-sess-0003-1767500000000000000"`)
			}},
		{line: "crmem dump ~/memory-book && mdbook serve ~/memory-book", check: func(t *testing.T, s *scratch, r result) {
			wantContains(t, r.stdout, "mdbook would serve "+filepath.Join(s.home, "memory-book"))
		}},
		{line: "crmem export > backup.jsonl && crmem import backup.jsonl --replace", check: func(t *testing.T, s *scratch, r result) {
			got, want := s.entries(t), seedEntries(t)
			if len(got) != len(want) {
				t.Fatalf("%d entries after export and import, want %d", len(got), len(want))
			}
			for _, w := range want {
				g, ok := findEntry(got, w.Name)
				if !ok || g.ID != w.ID || g.CreatedAt != w.CreatedAt || g.Content != w.Content || !slices.Equal(g.Aliases, w.Aliases) {
					t.Errorf("%s: %+v, want %+v", w.Name, g, w)
				}
			}
		}},
		{line: "crmem import ~/.crabtalk/config/memory",
			setup: func(t *testing.T, s *scratch) {
				s.write(t, ".crabtalk/config/memory/entries/imported-note.md", "---\nname: imported-note\ndescription: from the old memory\n---\nbody\n")
			},
			check: func(t *testing.T, s *scratch, r result) {
				wantContains(t, s.entry(t, "imported-note").Content, "from the old memory")
				s.entry(t, "deploy-steps")
			}},
	}
}

// bulkDelete is the README's bulk-delete example.
const bulkDelete = `crmem ls --kind archive --json | jq -r '.[] | select(.created_at < 1767225600) | .name' | crmem rm -`

// TestReadme_Examples runs every example line of README.md and the pages
// under docs/ as written.
func TestReadme_Examples(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("bash not installed: the examples run under bash -o pipefail")
	}
	for i, ex := range readmeExamples() {
		words := strings.Fields(ex.line)
		t.Run(fmt.Sprintf("%02d %s", i+1, strings.Join(words[:min(3, len(words))], " ")), func(t *testing.T) {
			for _, p := range ex.needs {
				if _, err := exec.LookPath(p); err != nil {
					t.Skipf("%s not installed: README example %d (%q) needs it", p, i, ex.line)
				}
			}
			s := newScratch(t, ex.seed)
			if ex.setup != nil {
				ex.setup(t, s)
			}
			r := s.run(t, bash, ex.line)
			if r.code != ex.code {
				t.Fatalf("%s\nexit %d, want %d\nstdout %q\nstderr %q", ex.line, r.code, ex.code, r.stdout, r.stderr)
			}
			if ex.check != nil {
				ex.check(t, s, r)
			}
		})
	}
}

// TestReadme_EveryExampleTested: the crmem lines of the sh blocks of
// README.md and the pages under docs/ and the lines TestReadme_Examples
// runs are the same set.
func TestReadme_EveryExampleTested(t *testing.T) {
	var inReadme []string
	for _, p := range docPages(t) {
		inReadme = append(inReadme, readmeCommandLines(p.text)...)
	}
	tested := map[string]bool{}
	for _, ex := range readmeExamples() {
		tested[ex.line] = true
	}
	for _, l := range inReadme {
		if !tested[l] {
			t.Errorf("README example not tested: %q", l)
		}
	}
	for l := range tested {
		if !slices.Contains(inReadme, l) {
			t.Errorf("tested line not in README.md or docs/ (changed or removed?): %q", l)
		}
	}
	if len(inReadme) < 20 {
		t.Errorf("found only %d example lines in README.md and docs/: is the sh-block parsing broken?", len(inReadme))
	}
}

// crmemCall finds a crmem command at the start of a line or after a pipe,
// && or ;.
var crmemCall = regexp.MustCompile(`(^|[|&;(]\s*)crmem\s`)

// readmeCommandLines returns the lines of the ```sh blocks that run crmem.
func readmeCommandLines(md string) []string {
	var out []string
	in := false
	sc := bufio.NewScanner(strings.NewReader(md))
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "```sh"):
			in = true
		case strings.HasPrefix(line, "```"):
			in = false
		case in && crmemCall.MatchString(line):
			out = append(out, line)
		}
	}
	return out
}

// seedEntries are the scratch memory's entries: the reference's small.db,
// an "old-idea" note and two archives created before 2026 (one with spaces
// in its name) for the bulk delete.
func seedEntries(t *testing.T) []store.Entry {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "testdata", "reference", "crmem", "small.db"))
	if err != nil {
		t.Fatal(err)
	}
	f, err := store.Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	return append(f.Entries,
		store.Entry{ID: 29, Name: "old-idea", Kind: store.Note, CreatedAt: 1767312000, Aliases: []string{}, Content: "an idea"},
		store.Entry{ID: 30, Name: "old session notes", Kind: store.Archive, CreatedAt: 1700000000, Aliases: []string{}, Content: "compacted"},
		store.Entry{ID: 31, Name: "older-archive", Kind: store.Archive, CreatedAt: 1600000000, Aliases: []string{}, Content: "compacted too"},
	)
}

// without drops the named entries from the seed.
func without(names ...string) func([]store.Entry) []store.Entry {
	return func(es []store.Entry) []store.Entry {
		return slices.DeleteFunc(es, func(e store.Entry) bool { return slices.Contains(names, e.Name) })
	}
}

// clearAliases clears the aliases of the named entry in the seed.
func clearAliases(name string) func([]store.Entry) []store.Entry {
	return func(es []store.Entry) []store.Entry {
		for i := range es {
			if es[i].Name == name {
				es[i].Aliases = []string{}
			}
		}
		return es
	}
}

// newScratch makes a HOME with the seeded memory, a bin folder with crmem,
// a stand-in mdbook and an editor that appends a line.
func newScratch(t *testing.T, seed func([]store.Entry) []store.Entry) *scratch {
	t.Helper()
	s := &scratch{home: t.TempDir(), bin: t.TempDir()}
	s.db = filepath.Join(s.home, ".crabtalk", "memory.db")
	es := seedEntries(t)
	if seed != nil {
		es = seed(es)
	}
	if err := os.MkdirAll(filepath.Dir(s.db), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(s.db, store.Encode(32, es), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(crmemBin, filepath.Join(s.bin, "crmem")); err != nil {
		t.Fatal(err)
	}
	scripts := map[string]string{
		"mdbook":      `[ "$1" = serve ] && [ -f "$2/SUMMARY.md" ] && echo "mdbook would serve $2"`,
		"test-editor": `printf '\nedited by the README test\n' >> "$1"`,
	}
	for name, body := range scripts {
		if err := os.WriteFile(filepath.Join(s.bin, name), []byte("#!/bin/sh\n"+body+"\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return s
}

// run runs line under bash in the scratch HOME.
func (s *scratch) run(t *testing.T, bash, line string) result {
	t.Helper()
	cmd := exec.Command(bash, "--noprofile", "--norc", "-o", "pipefail", "-c", line)
	cmd.Dir = s.home
	var env []string
	for _, kv := range os.Environ() {
		switch k, _, _ := strings.Cut(kv, "="); k {
		case "CRMEM_DB", "HOME", "PATH", "VISUAL", "EDITOR", "BASH_ENV", "ENV", "CRMEM_CONFIG", "XDG_CONFIG_HOME", "CRMEM_STYLE":
		default:
			env = append(env, kv)
		}
	}
	cmd.Env = append(env, "HOME="+s.home, "PATH="+s.bin+string(os.PathListSeparator)+os.Getenv("PATH"),
		"EDITOR="+filepath.Join(s.bin, "test-editor"), "NO_COLOR=1",
		"GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_SYSTEM=/dev/null")
	cmd.Stdin = strings.NewReader("")
	return runCommand(t, cmd)
}

// git runs git in the scratch HOME and returns its output.
func (s *scratch) git(t *testing.T, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = s.home
	cmd.Env = append(os.Environ(), "HOME="+s.home, "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_SYSTEM=/dev/null",
		"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("git %q: %v", args, err)
	}
	return string(out)
}

// write writes a file under the scratch HOME.
func (s *scratch) write(t *testing.T, rel, content string) {
	t.Helper()
	p := filepath.Join(s.home, rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// entries decodes the scratch memory.
func (s *scratch) entries(t *testing.T) []store.Entry {
	t.Helper()
	data, err := os.ReadFile(s.db)
	if err != nil {
		t.Fatal(err)
	}
	f, err := store.Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	return f.Entries
}

// entry returns the named entry of the scratch memory.
func (s *scratch) entry(t *testing.T, name string) store.Entry {
	t.Helper()
	e, ok := findEntry(s.entries(t), name)
	if !ok {
		t.Fatalf("no entry %q", name)
	}
	return e
}

// gone fails unless none of the names is in the scratch memory.
func (s *scratch) gone(t *testing.T, names ...string) {
	t.Helper()
	for _, n := range names {
		if _, ok := findEntry(s.entries(t), n); ok {
			t.Errorf("%q is still there", n)
		}
	}
}

func findEntry(es []store.Entry, name string) (store.Entry, bool) {
	for _, e := range es {
		if e.Name == name {
			return e, true
		}
	}
	return store.Entry{}, false
}

func wantContains(t *testing.T, s string, subs ...string) {
	t.Helper()
	for _, sub := range subs {
		if !strings.Contains(s, sub) {
			t.Errorf("%q lacks %q", s, sub)
		}
	}
}

func wantNot(t *testing.T, s, sub string) {
	t.Helper()
	if strings.Contains(s, sub) {
		t.Errorf("%q contains %q", s, sub)
	}
}

func wantPrefix(t *testing.T, s, prefix string) {
	t.Helper()
	if !strings.HasPrefix(s, prefix) {
		t.Errorf("%q does not start with %q", s, prefix)
	}
}

// copyTree copies the regular files under src to dst.
func copyTree(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), data, 0o644)
	})
	if err != nil {
		t.Fatalf("copy %s: %v", src, err)
	}
}
