package cli

import (
	"bytes"
	"fmt"

	"charm.land/bubbles/v2/key"

	"github.com/crmem/crmem/keymap"
)

// envVars are the environment variables crmem reads, for the man pages'
// ENVIRONMENT section (docs/configuration.md's Environment table says the
// same; a test keeps them in step).
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
	{"~/.crabtalk/store.crmem", "crabtalk's newer store, written only while its daemon is stopped, used when memory.db does not exist"},
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

// manSectionsRoff is the roff of the sections every page has after its
// options and example (ENVIRONMENT, FILES, EXIT STATUS); withKeys adds
// KEYS, the terminal UI's bindings (crmem.1 only).
func manSectionsRoff(withKeys bool) []byte {
	var b bytes.Buffer
	defList(&b, ".SH ENVIRONMENT", envVars)
	defList(&b, ".SH FILES", manFiles)
	defList(&b, ".SH EXIT STATUS", exitStatuses)
	if !withKeys {
		return b.Bytes()
	}
	b.WriteString(".SH KEYS\nThe terminal UI's default keys (the config file's [keys] table changes them; ? lists the keys in effect).\n")
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
		defList(&b, ".SS "+g.title, rows)
	}
	return b.Bytes()
}

// defList writes a section heading (a roff request) and a tagged
// paragraph for each row: the term, then its text.
func defList(b *bytes.Buffer, heading string, rows [][2]string) {
	b.WriteString(heading + "\n")
	for _, r := range rows {
		fmt.Fprintf(b, ".TP\n%s\n%s\n", roffText(r[0]), roffText(r[1]))
	}
}
