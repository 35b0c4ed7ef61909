package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"unicode"
)

// TestMan writes the man pages and checks there is one for crmem and one
// per subcommand, each a roff page with its synopsis, reproducible with
// SOURCE_DATE_EPOCH; `man` itself stays out of --help.
func TestMan(t *testing.T) {
	gen := func(dir string) {
		t.Helper()
		cmd := exec.Command(crmemBin, "man", dir)
		cmd.Env = append(testEnv(), "SOURCE_DATE_EPOCH=1767225600")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("crmem man: %v\n%s", err, out)
		}
		if !strings.HasPrefix(string(out), "wrote ") {
			t.Errorf("output %q", out)
		}
	}
	dir := filepath.Join(t.TempDir(), "share", "man", "man1")
	gen(dir)
	pages := map[string]string{
		"crmem.1":            `crmem [PATH]`,
		"crmem-ls.1":         `crmem ls [--kind K] [--redact] [--json|--pretty]`,
		"crmem-rm.1":         `crmem rm NAME...|-`,
		"crmem-search.1":     `crmem search QUERY...`,
		"crmem-import.1":     `crmem import FILE|DIR`,
		"crmem-version.1":    `crmem version`,
		"crmem-completion.1": `crmem completion`,
	}
	for _, sub := range []string{"show", "tokens", "add", "update", "write", "alias", "rename", "edit", "dump", "load", "export", "check", "bench"} {
		pages["crmem-"+sub+".1"] = "crmem " + sub
	}
	for name, synopsis := range pages {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		page := string(b)
		title := strings.ToUpper(strings.TrimSuffix(name, ".1"))
		if !strings.Contains(page, `.TH "`+title+`" "1" "Jan 2026" "crmem" "crmem manual"`) {
			t.Errorf("%s: no .TH line for %s:\n%.300s", name, title, page)
		}
		if _, after, ok := strings.Cut(page, ".SH SYNOPSIS\n"); !ok || !strings.Contains(after, synopsis) {
			t.Errorf("%s: synopsis lacks %q", name, synopsis)
		}
		if strings.Contains(page, "Auto generated") {
			t.Errorf("%s: carries cobra's auto-generated tag", name)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "crmem-man.1")); err == nil {
		t.Error("the hidden man command has a page")
	}
	again := t.TempDir()
	gen(again)
	for name := range pages {
		a, _ := os.ReadFile(filepath.Join(dir, name))
		b, _ := os.ReadFile(filepath.Join(again, name))
		if string(a) != string(b) {
			t.Errorf("%s differs between two runs", name)
		}
	}
	if help := mustRun(t, "", "--help"); strings.Contains(help, "\n  man ") {
		t.Errorf("--help lists man:\n%s", help)
	}
}

// TestMan_Errors: a DIR that cannot be made fails with the path named.
func TestMan_Errors(t *testing.T) {
	file := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	r := crmem(t, "", "man", filepath.Join(file, "man1"))
	if r.code != 1 || !strings.HasPrefix(r.stderr, "crmem: "+filepath.Join(file, "man1")+": ") || strings.Count(r.stderr, "\n") != 1 {
		t.Errorf("exit %d, stderr %q", r.code, r.stderr)
	}
	if r := crmem(t, "", "man"); r.code != 2 {
		t.Errorf("man without DIR: exit %d, want 2", r.code)
	}
}

// TestMan_Dash: DIR "-" is refused as a usage error, with nothing written
// (it made a folder named "-"); ./- is a folder named -.
func TestMan_Dash(t *testing.T) {
	wd := t.TempDir()
	cmd := exec.Command(crmemBin, "man", "-")
	cmd.Env = testEnv()
	cmd.Dir = wd
	r := runCommand(t, cmd)
	want := "crmem: man: DIR \"-\": the pages are files, one per command, not one stream for standard output; name a folder (./- for one named -) (see 'crmem man --help')\n"
	if r.code != 2 || r.stderr != want || r.stdout != "" {
		t.Errorf("man -: exit %d, stdout %q, stderr %q; want 2 and %q", r.code, r.stdout, r.stderr, want)
	}
	if _, err := os.Lstat(filepath.Join(wd, "-")); !os.IsNotExist(err) {
		t.Errorf("man - left %s/-: %v", wd, err)
	}
	cmd = exec.Command(crmemBin, "man", "./-")
	cmd.Env = testEnv()
	cmd.Dir = wd
	if r := runCommand(t, cmd); r.code != 0 {
		t.Fatalf("man ./-: exit %d, %q", r.code, r.stderr)
	}
	if _, err := os.Stat(filepath.Join(wd, "-", "crmem.1")); err != nil {
		t.Errorf("man ./-: %v", err)
	}
}

// TestMan_Typesetting: .nh, HY 0 and .ad l follow .TH (which resets
// hyphenation and adjustment, so JSON keys such as created_at were
// hyphenated; groff's .EE after an example turned hyphenation back on from
// HY, breaking "mem‐ory.db", "ar‐guments" and "sig‐nal" in every page),
// every page is ASCII (other characters escaped, so the C locale does not
// drop them: crmem-export.1 showed "content":""), and where man and groff
// are installed, man reports no warning for any page at 80 columns in
// a UTF-8 locale or the C locale and breaks no word at 80 or 60.
func TestMan_Typesetting(t *testing.T) {
	t.Parallel() // man over every page takes seconds: beside the other long tests
	dir := filepath.Join(t.TempDir(), "man1")
	cmd := exec.Command(crmemBin, "man", dir)
	cmd.Env = append(testEnv(), "SOURCE_DATE_EPOCH=1767225600")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("crmem man: %v\n%s", err, out)
	}
	names, err := filepath.Glob(filepath.Join(dir, "*.1"))
	if err != nil || len(names) < 20 {
		t.Fatalf("pages: %v %v", names, err)
	}
	for _, name := range names {
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(string(b), ".TH ") || !strings.Contains(string(b), "\n.nh\n.nr HY 0\n.ad l\n.SH NAME\n") {
			t.Errorf("%s: does not start with .TH, then .nh, .nr HY 0 and .ad l:\n%.200s", filepath.Base(name), b)
		}
		if i := strings.IndexFunc(string(b), func(r rune) bool { return r > unicode.MaxASCII }); i >= 0 {
			t.Errorf("%s: a character that is not ASCII at byte %d: %.40q", filepath.Base(name), i, b[i:])
		}
	}
	if _, err := exec.LookPath("man"); err != nil {
		t.Skip("man not installed: cannot check the pages for warnings")
	}
	if _, err := exec.LookPath("groff"); err != nil {
		t.Skip("groff not installed: cannot check the pages for warnings")
	}
	// At 60 columns a JSON example cannot be broken ("can't break line"):
	// warnings are checked at 80.
	man := func(locale, width string, pages ...string) (string, string, error) {
		man := exec.Command("man", append([]string{"--warnings", "-l"}, pages...)...)
		man.Env = append(testEnv(), "MANWIDTH="+width, "LC_ALL="+locale, "MANPAGER=cat", "PAGER=cat")
		var stdout, stderr strings.Builder
		man.Stdout, man.Stderr = &stdout, &stderr
		err := man.Run()
		return stdout.String(), stderr.String(), err
	}
	breaks := func(page string) []string { // lines ending in groff's hyphen at a break
		var out []string
		for l := range strings.Lines(page) {
			if strings.HasSuffix(strings.TrimRight(l, "\n"), "\u2010") {
				out = append(out, l)
			}
		}
		return out
	}
	// One man over every page for each locale and width (man's own
	// start-up, page by page, was some 0.6 of the test's 5 CPU-seconds);
	// only when that finds something does each page run alone, to name
	// it.
	for _, c := range []struct{ locale, width string }{{"C", "80"}, {"C.UTF-8", "80"}, {"C.UTF-8", "60"}} {
		out, errOut, err := man(c.locale, c.width, names...)
		warned := errOut != "" && c.width == "80"
		broken := c.locale == "C.UTF-8" && len(breaks(out)) > 0
		if err == nil && !warned && !broken {
			continue
		}
		for _, name := range names {
			out, errOut, err := man(c.locale, c.width, name)
			if err != nil {
				t.Errorf("man -l %s (%s): %v\n%s", filepath.Base(name), c.locale, err, errOut)
			}
			if errOut != "" && c.width == "80" {
				t.Errorf("man --warnings -l %s (%s, %s columns):\n%s", filepath.Base(name), c.locale, c.width, errOut)
			}
			if c.locale == "C.UTF-8" {
				for _, l := range breaks(out) {
					t.Errorf("man -l %s at %s columns breaks a word: %q", filepath.Base(name), c.width, l)
				}
			}
		}
		if !t.Failed() {
			t.Errorf("man -l over every page (%s, %s columns): %v, warnings %q, %d broken words; each page alone: none", c.locale, c.width, err, errOut, len(breaks(out)))
		}
	}
	page, errOut, err := man("C", "80", filepath.Join(dir, "crmem-export.1"))
	if err != nil {
		t.Errorf("man -l crmem-export.1 (C): %v\n%s", err, errOut)
	}
	if !strings.Contains(page, `"content":"..."}`) {
		t.Errorf("crmem-export.1 in the C locale lacks the example's \"content\":\"...\":\n%s", page)
	}
}

// TestAsciiRoff: a page's characters beyond ASCII become \[uXXXX]
// escapes, those with a fallback get one after .TH (sorted, once each),
// and ASCII is left as it is.
func TestAsciiRoff(t *testing.T) {
	got := string(asciiRoff([]byte(".TH \"X\"\n.nh\nsee \"content\":\"…\" → ΣΟΦΟΣ … 🦀\n")))
	want := ".TH \"X\"\n.fchar \\[u2026] ...\n.fchar \\[u2192] ->\n.nh\n" +
		`see "content":"\[u2026]" \[u2192] \[u03A3]\[u039F]\[u03A6]\[u039F]\[u03A3] \[u2026] \[u1F980]` + "\n"
	if got != want {
		t.Errorf("asciiRoff:\n%s\nwant\n%s", got, want)
	}
	if plain := ".TH \"X\"\nplain \\e text\n"; string(asciiRoff([]byte(plain))) != plain {
		t.Errorf("asciiRoff changed an ASCII page: %q", asciiRoff([]byte(plain)))
	}
}

// TestMan_FoundNextToBinary pins what docs/install.md's Install says: man-db
// finds pages written to BIN/../share/man/man1 when BIN is on PATH, with no
// MANPATH (man-db derives its search path from PATH; ~/.local/share/man is
// found only with ~/.local/bin on PATH).
func TestMan_FoundNextToBinary(t *testing.T) {
	if _, err := exec.LookPath("man"); err != nil {
		t.Skip("man not installed")
	}
	root := t.TempDir()
	bin := filepath.Join(root, "bin")
	must(t, os.Mkdir(bin, 0o755))
	must(t, os.Symlink(crmemBin, filepath.Join(bin, "crmem")))
	pages := filepath.Join(bin, "..", "share", "man", "man1")
	if out, err := exec.Command(crmemBin, "man", pages).CombinedOutput(); err != nil {
		t.Fatalf("crmem man: %v\n%s", err, out)
	}
	var env []string
	for _, kv := range testEnv() {
		if name, _, _ := strings.Cut(kv, "="); name != "PATH" && name != "MANPATH" {
			env = append(env, kv)
		}
	}
	where := exec.Command("man", "-w", "crmem-ls")
	where.Env = append(env, "PATH="+bin+":/usr/bin:/bin")
	out, err := where.CombinedOutput()
	if err != nil || strings.TrimSpace(string(out)) != filepath.Join(root, "share", "man", "man1", "crmem-ls.1") {
		t.Errorf("man -w crmem-ls with %s on PATH: %v\n%s", bin, err, out)
	}
}
