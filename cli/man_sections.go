package cli

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"charm.land/bubbles/v2/key"
	"github.com/cpuguy83/go-md2man/v2/md2man"

	"github.com/crmem/crmem/keymap"
)

// envVars are the environment variables crmem reads, for the man pages'
// ENVIRONMENT section (README.md's Environment table says the same; a test
// keeps them in step).
var envVars = [][2]string{
	{"CRMEM_DB", "the memory file when --db is not given (overrides the config file's db)"},
	{"CRMEM_STYLE", "the markdown style when --style is not given"},
	{"CRMEM_CONFIG", "the config file (default $XDG_CONFIG_HOME/crmem/config.toml, else ~/.config/crmem/config.toml)"},
	{"HOME", "where the default ~/.crabtalk/memory.db is"},
	{"CRABTALK_HOME", "crabtalk's folder, in place of ~/.crabtalk, for the default memory.db and store.crmem and the daemon's socket (run/crabtalk.sock)"},
	{"XDG_CONFIG_HOME", "the folder of crmem/config.toml when CRMEM_CONFIG is not set"},
	{"VISUAL, EDITOR", "the editor for crmem edit and the screen's e key (first set wins, else vi); may hold arguments"},
	{"PAGER", "the pager for the screen's v key (default less -R); may hold arguments"},
	{"NO_COLOR", "no colours in the terminal UI"},
	{"TMPDIR", "where --demo puts its crmem-demo-* copy and edit its temp files (default /tmp)"},
	{"SOURCE_DATE_EPOCH", "the date crmem man writes into these pages (default today)"},
}

// manFiles are the files crmem reads and writes, for the FILES section.
var manFiles = [][2]string{
	{"~/.crabtalk/memory.db", "the agent's memory file (CRMEM v1), the default when neither --db, $CRMEM_DB nor the config file names one"},
	{"~/.crabtalk/store.crmem", "crabtalk's newer store, read-only, used when memory.db does not exist"},
	{"~/.crabtalk/sessions/", "crabtalk's sessions, read for the archives they resume from (--sessions)"},
	{"~/.config/crmem/config.toml", "the configuration (crmem config --default prints a complete one)"},
	{"$TMPDIR/crmem-demo-*/", "the sample memory of a --demo run, removed when it ends"},
}

// exitStatuses are crmem's exit statuses, for the EXIT STATUS section.
var exitStatuses = [][2]string{
	{"0", "success"},
	{"1", "failure: one line on standard error, crmem: FILE: REASON"},
	{"2", "usage error (unknown command or flag, wrong arguments, a bad flag value): one line with a --help hint"},
	{"129, 143", "the terminal UI was stopped by SIGHUP or SIGTERM (128 + the signal), after restoring the terminal"},
}

// manSectionsMarkdown is the markdown of the sections cobra's pages lack;
// withKeys adds KEYS, the terminal UI's bindings (crmem.1 only).
func manSectionsMarkdown(withKeys bool) string {
	var b strings.Builder
	defList(&b, "ENVIRONMENT", envVars)
	defList(&b, "FILES", manFiles)
	defList(&b, "EXIT STATUS", exitStatuses)
	if withKeys {
		b.WriteString("## KEYS\n\nThe terminal UI's default keys (the config file's [keys] table changes them; ? lists the keys in effect).\n\n")
		km := keymap.DefaultKeyMap()
		for _, g := range []struct {
			title string
			keys  []key.Binding
		}{
			{"Moving", km.NavigationKeys()}, {"Panes, filters and order", km.ViewKeys()},
			{"Search", km.SearchKeys()}, {"Reading", km.ReadingKeys()}, {"Editing", km.EditingKeys()},
			{"Cleaning up", km.CleanupKeys()}, {"Application", km.AppKeys()},
			{"Prompts and questions", km.DialogKeys()},
		} {
			var rows [][2]string
			for _, k := range g.keys {
				rows = append(rows, [2]string{k.Help().Key, k.Help().Desc})
			}
			defList(&b, "### "+g.title, rows)
		}
	}
	return b.String()
}

// manSectionsRoff renders manSectionsMarkdown as roff to insert into a
// page: md2man makes the first level-1 heading the page title (.TH), so a
// placeholder title is rendered and cut off, leaving the .SH sections.
func manSectionsRoff(withKeys bool) []byte {
	out := md2man.Render([]byte("# crmem\n\n" + manSectionsMarkdown(withKeys)))
	if i := bytes.Index(out, []byte(".SH ")); i >= 0 {
		out = out[i:]
	}
	return out
}

// defList writes a markdown heading (a section, "## " when it has no
// level of its own) and a definition list of rows.
func defList(b *strings.Builder, heading string, rows [][2]string) {
	if !strings.HasPrefix(heading, "#") {
		heading = "## " + heading
	}
	b.WriteString(heading + "\n\n")
	for _, r := range rows {
		fmt.Fprintf(b, "%s\n: %s\n\n", mdEscape(r[0]), mdEscape(r[1]))
	}
}

// mdEscape keeps markdown from reading *, _, [, ] and backquotes in a
// key name or text as markup.
func mdEscape(s string) string {
	return strings.NewReplacer(`\`, `\\`, "*", `\*`, "_", `\_`, "[", `\[`, "]", `\]`, "`", "\\`").Replace(s)
}

// addManSections inserts the ENVIRONMENT, FILES and EXIT STATUS sections
// (and KEYS in crmem.1) before SEE ALSO in each page of dir that cobra
// wrote.
func addManSections(dir string, pages []string) error {
	for _, p := range pages {
		data, err := os.ReadFile(p)
		if err != nil {
			return fmt.Errorf("read man page: %w", err)
		}
		extra := manSectionsRoff(filepath.Base(p) == "crmem.1")
		at := bytes.Index(data, []byte(".SH SEE ALSO"))
		if at < 0 {
			at = len(data)
		}
		out := append(append(append([]byte{}, data[:at]...), extra...), data[at:]...)
		if err := os.WriteFile(p, out, 0o644); err != nil {
			return fmt.Errorf("write man page: %w", err)
		}
	}
	return nil
}
