//go:build unix

package cli

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestCLI_ConfigFilesThatNeverEnd (issue 17, item 2): a config or style
// file that is not a regular file, or too large, or a binding listing too
// many keys, is refused at once with exit 2, naming the file (and the line
// where one applies), for every subcommand. Each run is guarded: before,
// /dev/zero and the huge files grew memory for minutes and the FIFO hung
// in open, so a regression kills the run and fails the test.
func TestCLI_ConfigFilesThatNeverEnd(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "config.fifo")
	must(t, syscall.Mkfifo(fifo, 0o600))
	big := filepath.Join(dir, "big.toml")
	must(t, os.WriteFile(big, []byte("# padding\n"+strings.Repeat("#", 2<<20)+"\n"), 0o600))
	list := filepath.Join(dir, "list.toml")
	must(t, os.WriteFile(list, []byte("sort = \"name\"\n[keys]\nquit = ["+strings.Repeat(`"q", `, 100_000)+"\"q\"]\n"), 0o600))
	styleFifo := filepath.Join(dir, "style.fifo")
	must(t, syscall.Mkfifo(styleFifo, 0o600))
	bigStyle := filepath.Join(dir, "big.json")
	must(t, os.WriteFile(bigStyle, []byte(`{"document": {"color": "`+strings.Repeat("1", 1<<20)+`"}}`), 0o600))
	styled := func(name, style string) string {
		p := filepath.Join(dir, name)
		must(t, os.WriteFile(p, []byte("sort = \"name\"\nstyle = \""+style+"\"\n"), 0o600))
		return p
	}
	cases := []struct {
		name, config string
		want         []string // in stderr
	}{
		{"fifo", fifo, []string{fifo + ": cannot read: not a regular file"}},
		{"folder", dir, []string{dir + ": cannot read: not a regular file"}},
		{"huge file", big, []string{big + ": too large: 2,097,163 bytes (a config file holds at most 1 MiB)"}},
		{"huge key list", list, []string{list + ":3: keys.quit lists 100,001 keys; a binding takes at most 16"}},
		{"style fifo", styled("sf.toml", styleFifo), []string{"sf.toml:2: style file " + styleFifo + ": not a regular file"}},
		{"style too large", styled("sb.toml", bigStyle), []string{"sb.toml:2: style file " + bigStyle + ": too large: 1,048,603 bytes (a style file holds at most 256 KiB)"}},
	}
	if fi, err := os.Stat("/dev/zero"); err == nil && fi.Mode()&os.ModeCharDevice != 0 {
		cases = append(cases,
			struct {
				name, config string
				want         []string
			}{"/dev/zero", "/dev/zero", []string{"/dev/zero: cannot read: not a regular file"}},
			struct {
				name, config string
				want         []string
			}{"style /dev/zero", styled("sz.toml", "/dev/zero"), []string{"sz.toml:2: style file /dev/zero: not a regular file"}})
	} else {
		t.Log("no /dev/zero here: its cases are left out")
	}
	db := filepath.Join(dir, "memory.db")
	for _, c := range cases {
		for _, args := range [][]string{{"ls"}, {"add", "x", "y"}, {"config"}, {"check"}, {}} {
			r := crmemGuardedEnv(t, []string{"CRMEM_CONFIG=" + c.config}, append([]string{"--db", db}, args...)...)
			if r.code != 2 {
				t.Errorf("%s, %q: exit %d, want 2; stderr %q", c.name, args, r.code, r.stderr)
			}
			for _, w := range c.want {
				if !strings.Contains(r.stderr, w) {
					t.Errorf("%s, %q: stderr %q, want %q", c.name, args, r.stderr, w)
				}
			}
		}
	}
	if _, err := os.Stat(db); err == nil {
		t.Error("a write ran despite the bad config")
	}
}

// TestCLI_StyleFlagAndVariableNeverEnd: a style given by --style or
// $CRMEM_STYLE is read the same way, and refused naming its source.
func TestCLI_StyleFlagAndVariableNeverEnd(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "style.json")
	must(t, syscall.Mkfifo(fifo, 0o600))
	bad := filepath.Join(dir, "bad.json")
	must(t, os.WriteFile(bad, []byte("{not json"), 0o600))
	db := filepath.Join(dir, "memory.db")
	for _, c := range []struct {
		name string
		env  []string
		args []string
		want string
	}{
		{"flag, TUI", nil, []string{"--style", fifo, db}, "--style: style file " + fifo + ": not a regular file"},
		{"flag, config", nil, []string{"config", "--style", fifo}, "--style: style file " + fifo + ": not a regular file"},
		{"variable", []string{"CRMEM_STYLE=" + fifo}, []string{"--db", db, "ls"}, "$CRMEM_STYLE: style file " + fifo + ": not a regular file"},
		{"not JSON", nil, []string{"--style", bad, db}, "--style: style file " + bad + ": not valid JSON"},
	} {
		r := crmemGuardedEnv(t, c.env, c.args...)
		if r.code != 2 || !strings.Contains(r.stderr, c.want) {
			t.Errorf("%s: exit %d, stderr %q; want 2 and %q", c.name, r.code, r.stderr, c.want)
		}
	}
}
