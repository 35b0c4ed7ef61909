package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
	"strings"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/crmem/crmem/face/config"
	"github.com/crmem/crmem/face/editor"
	"github.com/crmem/crmem/store"
	"github.com/crmem/crmem/store/hygiene"
	"github.com/crmem/crmem/store/open"
	"github.com/crmem/crmem/tui"
)

// app is the process's side of the command line: its standard streams,
// environment, the version it was stamped with and the global flags, the
// command table, and the start of the screen. The subcommands are
// functions built from the parts they use (the opener that finds, reads
// and writes the memory file, the streams); app holds those parts and
// hands them out, it is neither. There is no package-level state.
type app struct {
	streams streams
	getenv  func(string) string
	// version describes the binary, with the release version main was
	// stamped with.
	version buildDescription
	// whole, when set, runs every command line in the whole command tree
	// (tests compare that with the tree commandFor builds).
	whole bool

	db       string // --db
	sessions string // --sessions
	style    string // --style
	noMouse  bool   // --no-mouse

	// opener finds the memory file (--db, --demo and the configuration:
	// its cfg, the effective configuration, is loaded before any command
	// runs) and opens it.
	opener opener
}

// newApp is the app over the given streams and environment lookup.
func newApp(stdin io.Reader, stdout, stderr io.Writer, getenv func(string) string) *app {
	return &app{streams: streams{stdin, stdout, stderr}, getenv: getenv, opener: opener{errOut: stderr, getenv: getenv}}
}

// usageError marks an error as a usage error (exit status 2).
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

// execute runs the command line on a and returns the exit status: 0 on
// success, 1 on failure, 2 on a usage error (Run).
//
// Faults on memory are panics here, not crashes (debug.SetPanicOnFault):
// a one-shot command reads a large memory file mapped (store.MapFile), and
// a read of it faults if another program cut the file short in place
// meanwhile. That is reported as what it is (faultError), naming the file.
func (a *app) execute(args []string) (code int) {
	defer a.opener.cleanUp()
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if r := recover(); r != nil {
			if msg, ok := faultError(r); ok {
				fmt.Fprintf(a.streams.stderr, "crmem: %s\n", oneLine(msg))
			} else {
				fmt.Fprintf(a.streams.stderr, "crmem: internal error: %s\n", oneLine(fmt.Sprint(r)))
			}
			code = 1
		}
	}()
	// A reader that goes away (crmem --demo ls | head) makes the next write
	// to standard output fail with EPIPE rather than end the process by
	// SIGPIPE's default action, which would skip the cleanups (--demo's
	// copy). crmem then ends quietly with 141, as a pipeline's writer does.
	// `crmem version` alone opens nothing and has nothing to clean up: it
	// keeps SIGPIPE's default action, as any pipeline writer, and spares
	// the goroutine and thread signal.Notify starts (a tenth of its run).
	pipe := make(chan os.Signal, 1)
	if len(args) != 1 || args[0] != "version" {
		signal.Notify(pipe, syscall.SIGPIPE)
		defer signal.Stop(pipe)
	}
	root := a.commandFor(args)
	root.SetArgs(args)
	err := root.Execute()
	if errors.Is(err, syscall.EPIPE) || len(pipe) > 0 {
		return signalExit{syscall.SIGPIPE}.status()
	}
	if a.opener.held != 0 {
		if err != nil {
			fmt.Fprintf(a.streams.stderr, "crmem: %s\n", oneLine(err.Error()))
		}
		fmt.Fprintf(a.streams.stderr, "crmem: %s once the write was over\n", signalExit{a.opener.held})
		return signalExit{a.opener.held}.status()
	}
	if err == nil {
		return 0
	}
	fmt.Fprintf(a.streams.stderr, "crmem: %s\n", oneLine(err.Error()))
	var se signalExit
	if errors.As(err, &se) {
		return se.status()
	}
	var ue usageError
	if errors.As(err, &ue) {
		return 2
	}
	return 1
}

// faultError says what a fault on a mapped file means, when r is the
// panic of one (a runtime error at an address in a file mapping).
func faultError(r any) (string, bool) {
	f, ok := r.(interface{ Addr() uintptr })
	if !ok {
		return "", false
	}
	path, ok := store.MappedFileAt(f.Addr())
	if !ok {
		return "", false
	}
	return fmt.Sprintf("%s: the file was cut short while crmem read it (written in place, not replaced); run the command again", quotePath(path)), true
}

// oneLine keeps an error message on a single, terminal-safe line, with
// any secret in it masked (an error quoting a name or a line that holds one).
func oneLine(s string) string {
	return sanitizeLine(strings.TrimSpace(hygiene.Mask(s)))
}

// rootCommand builds the whole command tree.
func (a *app) rootCommand() *cobra.Command { return a.commandTree("") }

// rootLong is the root command's help: what crmem reads and writes, and
// that without a subcommand it opens the screen.
const rootLong = `crmem browses, searches and edits an AI agent's CRMEM v1 memory file
(default $CRMEM_DB, else the configured db, else ~/.crabtalk/memory.db), and
crabtalk's newer store (~/.crabtalk/store.crmem), which it writes as crabtalk
does and only while crabtalk's daemon is stopped. Without a subcommand it
opens the terminal UI; every subcommand is scriptable.`

// rootExample is the root command's examples.
const rootExample = `  crmem                       # the TUI on ~/.crabtalk/memory.db
  crmem --demo                # the TUI on a copy of a sample memory
  crmem --demo search deploy rollback
  crmem search deploy rollback
  crmem --db ./memory.db ls --kind archive --json`

// commandTree builds the command tree: the root with every subcommand, or
// with only the subcommand named only ("": all of them). A tree of one
// subcommand runs that subcommand exactly as the whole tree does (commandFor
// says when it may be used), for a fraction of the start: the whole tree
// builds 26 subcommands' flags, merges the persistent ones into each and
// sorts them, which was a fifth of what `crmem version` cost.
func (a *app) commandTree(only string) *cobra.Command {
	root := &cobra.Command{
		Use:               "crmem [PATH]",
		Short:             "Browse, search and edit an AI agent's memory file",
		Long:              rootLong,
		Example:           rootExample,
		Version:           a.version.String(),
		Args:              rootArgs,
		SilenceUsage:      true,
		SilenceErrors:     true,
		PersistentPreRunE: a.loadConfig,
		RunE: func(cmd *cobra.Command, args []string) error {
			path := ""
			if len(args) == 1 {
				path = args[0]
			}
			if err := tui.CheckStyle(a.opener.cfg.Style); err != nil {
				return usage(cmd, "%v", err)
			}
			if err := a.opener.checkScreenPath(path); err != nil {
				return err
			}
			if err := a.streams.needTerminal(cmd.Root()); err != nil {
				return err
			}
			return a.runTUI(path)
		},
	}
	root.SetVersionTemplate("{{.Version}}\n")
	root.SetFlagErrorFunc(flagError)
	pf := root.PersistentFlags()
	pf.BoolVar(&a.opener.demo, "demo", false, "use a fresh copy of a built-in sample memory, removed when crmem ends (any subcommand)")
	pf.StringVar(&a.db, "db", "", "memory file or crabtalk store (default $CRMEM_DB, else the config file's db, else memory.db in $CRABTALK_HOME or ~/.crabtalk, else store.crmem there)")
	root.Flags().StringVar(&a.sessions, "sessions", "", "crabtalk sessions folder (default: sessions/ next to the memory file)")
	root.Flags().StringVar(&a.style, "style", "", "markdown style: "+strings.Join(config.StyleNames(), ", "))
	root.Flags().BoolVar(&a.noMouse, "no-mouse", false, "start with mouse capture off, so the terminal's own text selection works (M toggles)")
	for _, sc := range a.subcommands() {
		if only != "" && sc.name != only {
			continue
		}
		c := sc.build()
		c.SilenceUsage = true
		c.DisableFlagsInUseLine = true  // each Use line lists its flags
		a.opener.storeAware(c, sc.role) // crabtalk's store: read variants, writes refused
		root.AddCommand(c)
	}
	root.SetIn(a.streams.stdin)
	root.SetOut(a.streams.stdout)
	root.SetErr(a.streams.stderr)
	if only == "" {
		initCompletionCommand(root) // after SetOut: its scripts go to the stream set then
		registerFlagCompletions(root)
	} else {
		// Neither the completion command nor flag completions are reached
		// through a tree of one subcommand (commandFor).
		root.CompletionOptions.DisableDefaultCmd = true
	}
	finishHelp(root) // last: it sees every command and flag
	return root
}

// subcommand is a row of the command table: a subcommand's name (the first
// word of its Use), how to build it, and how it treats the memory file.
type subcommand struct {
	name  string
	build func() *cobra.Command
	role  storeCommand
}

// subcommands is the command table: every subcommand with how it treats
// the memory file (a write is refused on crabtalk's store), each built
// from what it uses: the opener of the memory file, the streams.
func (a *app) subcommands() []subcommand {
	o, s := &a.opener, a.streams
	with := func(f func(*opener, streams) *cobra.Command) func() *cobra.Command {
		return func() *cobra.Command { return f(o, s) }
	}
	return []subcommand{
		{name: "ls", build: with(lsCommand), role: storeSource},
		{name: "show", build: with(showCommand), role: storeSource},
		{name: "search", build: with(searchCommand), role: storeSource},
		{name: "tokens", build: func() *cobra.Command { return tokensCommand(s) }, role: storeIgnores},
		{name: "add", build: with(addCommand), role: storeWrites},
		{name: "update", build: with(updateCommand), role: storeWrites},
		{name: "write", build: with(writeCommand), role: storeWrites},
		{name: "alias", build: with(aliasCommand), role: storeWrites},
		{name: "rename", build: with(renameCommand), role: storeWrites},
		{name: "rm", build: with(rmCommand), role: storeWrites},
		{name: "edit", build: with(editCommand), role: storeWrites},
		{name: "dump", build: with(dumpCommand), role: storeSource},
		{name: "load", build: with(loadCommand), role: storeWrites},
		{name: "export", build: with(exportCommand), role: storeSource},
		{name: "import", build: with(importCommand), role: storeWrites},
		{name: "check", build: with(checkCommand), role: storeSource},
		{name: "stats", build: with(statsCommand), role: storeSource},
		{name: "bench", build: with(benchCommand), role: storeSource},
		{name: "config", build: with(configCommand), role: storeIgnores},
		{name: "version", build: func() *cobra.Command { return versionCommand(s, a.version.String) }, role: storeIgnores},
		{name: "man", build: func() *cobra.Command { return manCommand(s, a.getenv) }, role: storeIgnores},
		{name: "lint", build: with(lintCommand), role: storeSource},
		{name: "recalls", build: with(recallsCommand), role: storeSource},
		{name: "history", build: with(historyCommand), role: storeSource},
		{name: "diff", build: with(diffCommand), role: storeSource},
		{name: "restore", build: with(restoreCommand), role: storeWrites},
	}
}

// wholeTree names the subcommands that read the command tree itself (man
// writes a page for every command): they run in the whole tree only.
var wholeTree = map[string]bool{"man": true}

// commandFor builds the command tree args run in: for a plain run of one
// subcommand (`crmem version`, `crmem --db F search --json deploy`), the
// root with that subcommand only; else, or when in doubt, the whole tree.
//
// A tree of one subcommand parses, runs and fails the same as the whole
// tree for such a line (TestCommandFor_SameAsWholeTree): what differs is
// only what the line cannot reach, its siblings. So the whole tree is built
// for any line that could: no subcommand (the screen, whose refusal without
// a terminal names them all), an unknown word (the closest command is
// suggested), an alias, help (-h, --help, `help`: the root's lists them),
// completion, and any root flag but --demo and --db before the subcommand.
func (a *app) commandFor(args []string) *cobra.Command {
	if name := plainSubcommand(args); name != "" && !wholeTree[name] && !a.whole {
		for _, sc := range a.subcommands() {
			if sc.name == name {
				return a.commandTree(name)
			}
		}
	}
	return a.rootCommand()
}

// plainSubcommand is the subcommand args name when they are only the
// persistent flags (--demo, --db) and then the subcommand's name, with no
// help flag anywhere after it; else "".
func plainSubcommand(args []string) string {
	i := 0
	for ; i < len(args); i++ {
		arg := args[i]
		switch {
		case arg == "--demo", strings.HasPrefix(arg, "--demo="), strings.HasPrefix(arg, "--db="):
			continue
		case arg == "--db":
			i++ // its value
			continue
		}
		break
	}
	if i >= len(args) || strings.HasPrefix(args[i], "-") {
		return ""
	}
	for _, arg := range args[i+1:] {
		if arg == "--help" || strings.HasPrefix(arg, "--help=") ||
			(len(arg) > 1 && arg[0] == '-' && arg[1] != '-' && strings.ContainsRune(arg, 'h')) {
			return ""
		}
	}
	return args[i]
}

// rootArgs accepts at most one PATH. A bare word (no folder separator, no
// dot) that is no existing file is taken for a mistyped subcommand, with
// the closest command suggested, rather than opening the TUI on a new,
// empty memory of that name; ./WORD opens (and on the first write creates)
// such a file on purpose.
func rootArgs(cmd *cobra.Command, args []string) error {
	if len(args) > 1 {
		return unknownCommand(cmd, args[0], "")
	}
	if len(args) == 0 || strings.ContainsAny(args[0], `/\.`) {
		return nil
	}
	if _, err := os.Stat(args[0]); err == nil {
		return nil
	}
	return unknownCommand(cmd, args[0], fmt.Sprintf("; to open a memory file of that name, give its path: crmem ./%s", args[0]))
}

// unknownCommand is the usage error for a first argument that names no
// subcommand: the closest command when one is near, else hint.
func unknownCommand(cmd *cobra.Command, word, hint string) error {
	if s := closestCommand(cmd.Root(), word); s != "" {
		return usage(cmd, "unknown command %q, did you mean %q?", word, s)
	}
	return usage(cmd, "unknown command %q%s", word, hint)
}

// loadConfig builds the effective configuration (SPEC §9) once the flags
// are parsed and before the command runs; an error in any layer is a usage
// error (exit 2) naming the file and line. `config --path` and
// `config --default` do not read the file, so they help fix a broken one.
func (a *app) loadConfig(cmd *cobra.Command, _ []string) error {
	if cmd.Name() == "config" && (cmd.Flags().Changed("path") || cmd.Flags().Changed("default")) {
		return nil
	}
	cfg, err := config.Load(config.Options{Getenv: a.getenv, Flags: configFlags(cmd)})
	var ce *config.Error
	if errors.As(err, &ce) && ce.Flag {
		return usage(cmd, "%v", err)
	}
	if err != nil {
		return usageError{err}
	}
	a.opener.cfg = cfg
	return a.opener.openDemo(cmd)
}

// configFlags collects the flags of cmd that the user set and that set a
// configuration value (--db, --sessions, --style, --no-mouse).
func configFlags(cmd *cobra.Command) config.Flags {
	given := func(name string) *string {
		if f := cmd.Flags().Lookup(name); f != nil && f.Changed {
			v := f.Value.String()
			return &v
		}
		return nil
	}
	fl := config.Flags{DB: given("db"), Sessions: given("sessions"), Style: given("style")}
	if v := given("no-mouse"); v != nil {
		b := *v == "true"
		fl.NoMouse = &b
	}
	return fl
}

// runTUI opens the terminal UI on path (or the resolved --db path).
func (a *app) runTUI(path string) error {
	if path != "" && a.opener.demo {
		return usageError{errors.New("--demo and a PATH exclude each other (--demo uses a copy of a sample memory)")}
	}
	if path == "" {
		p, err := a.opener.dbPath()
		if err != nil {
			return err
		}
		path = p
	}
	c := a.opener.cfg
	// Edit folders a killed crmem left hold an entry's text: gone at the
	// next start (the screen's own edits sweep again when they begin).
	editor.RemoveStale(editor.Options{Getenv: a.getenv})
	return runScreen(tui.Options{
		Path: path, SessionsDir: a.opener.sessionsDir(path), Style: c.Style, NoMouse: !c.Mouse,
		Sort: c.Sort, Keys: c.Keys, MaxExpansions: c.MaxExpansions, NameMatches: c.NameMatches, RecallLimit: c.RecallLimit,
		DaemonSocket: config.DaemonSocket(a.getenv), Getenv: a.getenv,
	})
}

// Run runs crmem with args (without the program name), the given standard
// streams and environment lookup, and returns the process's exit status.
// stamp is the release version the main package was stamped with at link
// time ("" for none: crmem version then reports the module version).
// It returns only once no append to crabtalk's store is under way
// (open.WaitAppends): a screen ended by a signal may leave one running
// in its goroutine, and the exit must not cut it short.
func Run(stamp string, args []string, stdin io.Reader, stdout, stderr io.Writer, getenv func(string) string) int {
	defer open.WaitAppends()
	a := newApp(stdin, stdout, stderr, getenv)
	a.version.stamp = stamp
	return a.execute(args)
}
