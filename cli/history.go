package cli

import (
	"bufio"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/crmem/crmem/internal/humanize"
	"github.com/crmem/crmem/store"
	"github.com/crmem/crmem/store/history"
	"github.com/crmem/crmem/store/open"
	"github.com/crmem/crmem/store/sessions"
)

// historyCommand prints an entry's versions, or the forgotten entries.
func historyCommand(o *opener, s streams) *cobra.Command {
	var js jsonOutput
	var deleted, short, redact bool
	c := &cobra.Command{
		Use:   "history NAME [--short] [--redact] [--json|--pretty] | history --deleted [--json|--pretty]",
		Short: "Print every version of an entry and who wrote it; --deleted lists forgotten entries",
		Long: `Print every version of the entry NAME that memory still has evidence of,
oldest first: its content, aliases, kind and created_at, and where it came from.

crabtalk's store keeps every write in its log (until crabdb compacts it): each
version shows its record's offset. Both formats have the agent's sessions:
a version a remember (or forget) tool call wrote names the session, its title,
agent and step, and the call's time (from the tool_start event; "~" marks the
step file's time or, in the store, the session's last update). A store version
no session's call explains says "unknown source" (written by hand, by crmem or
another tool); a call the store's log does not hold (or, for a memory.db,
which keeps no history, every call) is marked "sessions only". Deletions are
versions too, and a rename (the same entry put under a new name, the old one
removed) is followed back and shown as one. A name's history is the entry that
has it now (or had it last) back through the renames into it; entries that had
the name before, one renamed away or deleted, are shown first, each apart and
marked, and never what an entry did after a rename away (that is its new
name's history).

--deleted lists the entries the log or the sessions know that memory does not
hold now, most recently removed first, with the session that removed them;
crmem restore NAME VERSION brings one back.`,
		Example: `  crmem history deploy-steps
  crmem history deploy-steps --short
  crmem history deploy-steps --json | jq '.versions[] | {n, origin, session: .call.title}'
  crmem history --deleted
  crmem diff deploy-steps 2 4
  crmem restore deploy-steps 2`,
		Args: func(cmd *cobra.Command, names []string) error {
			if deleted {
				return args0(cmd, names)
			}
			return args(1, 1)(cmd, names)
		},

		ValidArgsFunction: o.completeNames(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if deleted {
				return printForgotten(o, s, js)
			}
			return printHistory(o, s, args[0], js, short, redact)
		},
	}
	js.register(c, "print the history")
	c.Flags().BoolVar(&deleted, "deleted", false, "list the entries memory no longer holds that the log or the sessions know")
	c.Flags().BoolVar(&short, "short", false, "one line per version, without contents")
	registerRedact(c, &redact)
	return c
}

// printHistory prints the history of the entry name: as JSON, or every
// version (short: one line each), its secrets masked with redact.
func printHistory(o *opener, s streams, name string, js jsonOutput, short, redact bool) error {
	h, err := readHistory(o, s, name)
	if err != nil {
		return err
	}
	if redact {
		h = redactHistory(h)
	}
	if js.enabled() {
		return s.output(func(w *bufio.Writer) error { return js.write(w, h) })
	}
	return s.output(func(w *bufio.Writer) error { return writeHistory(w, h, short, time.Now()) })
}

// redactHistory is h with the secrets in every version's name, aliases
// and content masked.
func redactHistory(h history.History) history.History {
	vs := make([]history.Version, len(h.Versions))
	for i, v := range h.Versions {
		vs[i] = redactVersion(v)
	}
	h.Versions = vs
	lives := make([]history.Life, len(h.Lives))
	for i, l := range h.Lives {
		if l.To != "" {
			l.To = redactEntry(store.Entry{Name: l.To}).Name
		}
		lives[i] = l
	}
	h.Lives = lives
	return h
}

// redactVersion is v with its secrets masked.
func redactVersion(v history.Version) history.Version {
	e := redactEntry(store.Entry{Name: v.Name, Aliases: v.Aliases, Content: v.Content})
	v.Name, v.Aliases, v.Content = e.Name, e.Aliases, e.Content
	if v.From != "" {
		v.From = redactEntry(store.Entry{Name: v.From}).Name
	}
	if v.To != "" {
		v.To = redactEntry(store.Entry{Name: v.To}).Name
	}
	return v
}

// args0 refuses arguments.
func args0(cmd *cobra.Command, args []string) error {
	if len(args) > 0 {
		return usage(cmd, "--deleted takes no NAME")
	}
	return nil
}

// memoryData is the memory file as its history reads it: its log and
// the format's reader of it when its history is its log (crabtalk's
// store: a history reads its whole log, not the state a store.Source
// replays), or the file read as v1 contents.
func memoryData(o *opener) (path string, h open.HistoryData, err error) {
	path, err = o.dbPath()
	if err != nil {
		return "", h, err
	}
	if err := o.repairAtStart(path); err != nil {
		return path, h, err
	}
	data, rerr := store.MapFile(path) // a large store is mapped, not copied: its whole log is walked once
	if rerr != nil {
		return path, h, o.readError(path, rerr)
	}
	// The bytes read once: a store's log walked as they are, a v1 file
	// decoded once.
	switch h, ok, err := open.History(path, o.sessionsFolder(), data); {
	case err != nil:
		return path, h, o.readError(path, err) // as every reader of a store says it
	case ok:
		return path, h, nil
	}
	c, err := o.readContents()
	if err != nil {
		return path, h, err
	}
	return c.Path, open.HistoryData{V1: c}, nil
}

// readHistory reads the history of the entry name. A name no version
// knows is an error, with names close to it.
func readHistory(o *opener, s streams, name string) (history.History, error) {
	path, hd, err := memoryData(o)
	if err != nil {
		return history.History{}, err
	}
	var h history.History
	if hd.Log != nil {
		h = history.OneLog(hd.Log, hd.Data, name)
	} else if h, err = history.OneV1(hd.V1, name); err != nil {
		return h, fileError{path, err}
	}
	if h.Stop != nil {
		fmt.Fprintf(s.stderr, "crmem: %s: %s\n", quotePath(path), sanitizeLine(stopText(*h.Stop)))
	}
	if len(h.Versions) == 0 {
		// Not a name anything wrote: an alias, resolved as the agent
		// resolves it, names the entry whose story is asked for.
		if c, err := o.readContents(); err == nil {
			if e, ok := c.File.Lookup(name); ok && e.Name != name {
				fmt.Fprintf(s.stderr, "crmem: %s is an alias of %s: its history follows\n", nameText(name), nameText(e.Name))
				return readHistory(o, s, e.Name)
			}
		}
		return h, fileError{path, fmt.Errorf("no entry %q in memory, its log or its sessions", name)}
	}
	return h, nil
}

// stopText says where the log stopped.
func stopText(s history.Stop) string {
	return fmt.Sprintf("the store's log does not decode at offset %d (%s): history stops there", s.Offset, s.Reason)
}

// readIndex reads every entry's history (for --deleted).
func readIndex(o *opener, s streams) (*history.Index, string, error) {
	path, hd, err := memoryData(o)
	if err != nil {
		return nil, "", err
	}
	if hd.Log != nil {
		ix := history.ReadLog(hd.Log, hd.Data, nil)
		if stop := ix.Stop(); stop != nil {
			fmt.Fprintf(s.stderr, "crmem: %s: %s\n", quotePath(path), sanitizeLine(stopText(*stop)))
		}
		return ix, path, nil
	}
	v1 := hd.V1
	ix, err := history.FromV1(history.CurrentOf(v1.File.Entries, v1.Features.Stored), v1.Features.Sessions, nil)
	if err != nil {
		return nil, path, fileError{path, err}
	}
	return ix, path, nil
}

// printForgotten lists the forgotten entries.
func printForgotten(o *opener, s streams, js jsonOutput) error {
	ix, _, err := readIndex(o, s)
	if err != nil {
		return err
	}
	fs := ix.Forgotten()
	if fs == nil {
		fs = []history.Forgotten{}
	}
	if js.enabled() {
		return s.output(func(w *bufio.Writer) error { return js.write(w, fs) })
	}
	now := time.Now()
	return s.output(func(w *bufio.Writer) error {
		if len(fs) == 0 {
			_, err := fmt.Fprintln(w, "nothing forgotten: every entry the log and the sessions know is in memory")
			return err
		}
		fmt.Fprintf(w, "%s memory no longer holds (most recently removed first):\n\n", humanize.Plural(len(fs), "entry"))
		for _, f := range fs {
			fmt.Fprintf(w, "%s  (%s)\n", nameText(f.Name), humanize.Plural(f.Versions, "version"))
			if r := f.Removed; r != nil {
				lines := sourceLines(*r, r.Log != nil || r.Origin == history.FromLog, now)
				fmt.Fprintf(w, "    removed (#%d): %s\n", r.N, lines[0])
				for _, l := range lines[1:] {
					fmt.Fprintf(w, "    %s\n", l)
				}
				if r.Log != nil {
					fmt.Fprintf(w, "    store log: record at offset %d (memory record %d of the log)\n", r.Log.Offset, r.Log.Seq)
				}
			} else {
				fmt.Fprintln(w, "    removed: no removal recorded (no forget call, no log): deleted by hand or by another tool")
			}
			fmt.Fprintf(w, "    last: #%d, %s  %s\n", f.Last.N, humanize.Size(len(f.Last.Content)), firstLine(f.Last.Content, 60))
			fmt.Fprintf(w, "    bring it back: crmem restore %s %d\n\n", shellWord(f.Name), f.Last.N)
		}
		return nil
	})
}

// writeHistory prints h: a title, then each version.
func writeHistory(w *bufio.Writer, h history.History, short bool, now time.Time) error {
	state := "not in memory now"
	if h.Exists {
		state = "in memory now"
	}
	if n := len(h.Lives); n > 0 && h.Lives[n-1].Ended == history.LifeRenamed {
		state = "renamed to " + nameText(h.Lives[n-1].To)
	}
	fmt.Fprintf(w, "%s — %s, %s\n", nameText(h.Name), humanize.Plural(len(h.Versions), "version"), state)
	if len(h.Lives) > 1 {
		fmt.Fprintf(w, "  (%d entries have had this name, one after the other: each is shown apart; restore takes only the last one's versions)\n", len(h.Lives))
	}
	if !h.Log {
		fmt.Fprintln(w, "  (a memory.db keeps no history of its own: these are the agent's remember and forget calls in its sessions, and the entry as it is now)")
	}
	for _, p := range h.Problems {
		fmt.Fprintf(w, "  (%s)\n", sanitizeLine(p))
	}
	for _, v := range h.Versions {
		fmt.Fprintln(w)
		if l, ok := lifeStarting(h, v.N); ok {
			fmt.Fprintf(w, "── %s ──\n\n", lifeText(h, l))
		}
		fmt.Fprintf(w, "#%d  %s\n", v.N, actionText(v))
		for _, l := range sourceLines(v, h.Log, now) {
			fmt.Fprintf(w, "    %s\n", l)
		}
		if v.Log != nil {
			fmt.Fprintf(w, "    store log: record at offset %d (memory record %d of the log)\n", v.Log.Offset, v.Log.Seq)
		}
		if v.Action == history.Delete || v.Action == history.RenameOut {
			continue
		}
		fmt.Fprintf(w, "    %s\n", entryLine(v))
		if short {
			fmt.Fprintf(w, "    %s\n", firstLine(v.Content, 70))
			continue
		}
		fmt.Fprintln(w, "    ────")
		for _, line := range strings.Split(sanitize(v.Content), "\n") {
			fmt.Fprintf(w, "    │ %s\n", line)
		}
	}
	if h.Stop != nil {
		fmt.Fprintf(w, "\n(%s)\n", stopText(*h.Stop))
	}
	return nil
}

// lifeStarting is the life whose first version is #n, when the history
// has more than one.
func lifeStarting(h history.History, n int) (history.Life, bool) {
	if len(h.Lives) < 2 {
		return history.Life{}, false
	}
	for _, l := range h.Lives {
		if l.First == n {
			return l, true
		}
	}
	return history.Life{}, false
}

// lifeText says which entry a life is: "an earlier entry named X (#1–#3),
// renamed to Y" or "a new entry named X (#4–#6): this entry".
func lifeText(h history.History, l history.Life) string {
	span := fmt.Sprintf("#%d", l.First)
	if l.Last != l.First {
		span += fmt.Sprintf("–#%d", l.Last)
	}
	if l.N == h.Lives[len(h.Lives)-1].N {
		text := "a new entry named " + nameText(h.Name) + " (" + span + "): this entry"
		if l.Ended == history.LifeDeleted {
			text += ", deleted since"
		}
		return text
	}
	text := "an earlier entry named " + nameText(h.Name) + " (" + span + ")"
	switch l.Ended {
	case history.LifeRenamed:
		text += ", renamed to " + nameText(l.To) + ": its story goes on in crmem history " + shellWord(l.To)
	case history.LifeDeleted:
		text += ", deleted"
	case history.LifeReplaced:
		text += ", removed or renamed away unrecorded before the next was created"
	}
	return text + "; not restorable under this name"
}

// actionText says what a version did.
func actionText(v history.Version) string {
	cur := ""
	if v.Current {
		cur = "   ● current"
	}
	switch v.Action {
	case history.Delete:
		return "deleted " + nameText(v.Name) + cur
	case history.RenameIn:
		return "renamed " + nameText(v.From) + " → " + nameText(v.Name) + cur
	case history.RenameOut:
		return "renamed " + nameText(v.Name) + " → " + nameText(v.To) + " (renamed away: what it did after is " + nameText(v.To) + "'s history)"
	}
	return "wrote " + nameText(v.Name) + cur
}

// entryLine is a version's kind, size, aliases and created_at.
func entryLine(v history.Version) string {
	parts := []string{v.Kind, humanize.Size(len(v.Content))}
	if v.Kind == "" {
		parts[0] = "kind not recorded"
	}
	if len(v.Aliases) > 0 {
		parts = append(parts, "aliases: "+aliasList(v.Aliases, 60))
	} else {
		parts = append(parts, "no aliases")
	}
	if v.CreatedAt != "" {
		parts = append(parts, "created_at "+sanitizeLine(v.CreatedAt))
	}
	return strings.Join(parts, " · ")
}

// sourceText says where a version came from, in one line: the session's
// call, or why there is none.
func sourceText(v history.Version, logged bool, now time.Time) string {
	return strings.Join(sourceLines(v, logged, now), "; ")
}

// sourceLines says where a version came from: who made the call (the
// session, its agent and creator), then when and in which step; or why no
// call is known.
func sourceLines(v history.Version, logged bool, now time.Time) []string {
	c := v.Call
	if c == nil {
		if v.Origin == history.FromMemory {
			return []string{"unknown source: memory holds this now and no session's call wrote it (by hand, crmem or another tool)"}
		}
		return []string{"unknown source: no session's call wrote this record (by hand, crmem or another tool, or a session the store no longer holds)"}
	}
	verb := map[string]string{sessions.RememberTool: "remembered", sessions.ForgetTool: "forgotten"}[c.Tool]
	who := "session " + nameText(c.Session)
	if c.Agent != "" {
		who += ", agent " + nameText(c.Agent)
	}
	if c.CreatedBy != "" {
		who += ", started by " + nameText(c.CreatedBy)
	}
	first := verb + " in session " + nameText(c.Session)
	if c.Title != "" {
		first = verb + " in «" + sanitizeLine(c.Title) + "» (" + who + ")"
	} else if c.Agent != "" || c.CreatedBy != "" {
		first = verb + " in " + who
	}
	second := callTime(*c, now) + ", " + sanitizeLine(c.Step)
	if v.Origin == history.FromSession && logged {
		second += " · sessions only: the store's log does not hold this version"
	}
	return []string{first, second}
}

// callTime says when a call was made and where that time comes from.
func callTime(c history.Call, now time.Time) string {
	if c.Time.IsZero() {
		return "time unknown"
	}
	at := c.Time.Local().Format("2006-01-02 15:04:05")
	ago := humanize.Ago(now, uint64(max(c.Time.Unix(), 0)))
	switch c.TimeFrom {
	case sessions.TimeEvent:
		return at + " (" + ago + ")"
	case sessions.TimeStep:
		return "~" + at + " (the step file's time, " + ago + ")"
	}
	return "~" + at + " (the session's last update: the store keeps no time per message)"
}

// firstLine is s's first non-empty line, sanitized, cut to n cells.
func firstLine(s string, n int) string {
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			l = sanitizeLine(l)
			if r := []rune(l); len(r) > n {
				l = string(r[:n-1]) + "…"
			}
			return l
		}
	}
	return "(empty)"
}

// shellWord is s as one shell word: as it is when plain, else quoted.
func shellWord(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./:@") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(sanitizeLine(s), "'", `'\''`) + "'"
}

// restoreCommand writes a version of an entry back.
func restoreCommand(o *opener, s streams) *cobra.Command {
	return &cobra.Command{
		Use:   "restore NAME VERSION",
		Short: "Bring back a version of an entry (see crmem history)",
		Long: `Write version VERSION of the entry NAME (its number in crmem history NAME)
back: an entry in memory gets that version's content and aliases (its kind and
created_at are kept, as every edit keeps them); a forgotten one is added again
with the version's kind, content, aliases and created_at. Only this entry's
versions can be restored: when other entries had the name before it (one
renamed away to another name, or deleted before this one was created), crmem
history shows them apart and restore refuses their versions. It is an ordinary
write: a memory.db is saved atomically under crmem's lock; crabtalk's store
only while crabtalk's daemon is not running. A deletion cannot be restored;
the version before it can.`,
		Example: `  crmem history deploy-steps --short
  crmem restore deploy-steps 2
  crmem history --deleted && crmem restore vpn-notes 1`,
		Args:              args(2, 2),
		ValidArgsFunction: o.completeNames(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			n, err := strconv.Atoi(strings.TrimPrefix(args[1], "#"))
			if err != nil || n < 1 {
				return usage(cmd, "VERSION must be a version's number (1, 2, …), not %q", args[1])
			}
			return restore(o, s, args[0], n)
		},
	}
}

// restore writes version n of name back.
func restore(o *opener, s streams, name string, n int) error {
	h, err := readHistory(o, s, name)
	if err != nil {
		return err
	}
	if n > len(h.Versions) {
		return fmt.Errorf("%s has %s: no version #%d", nameText(name), humanize.Plural(len(h.Versions), "version"), n)
	}
	v := h.Versions[n-1]
	var opErr error
	_, changes, err := o.applyWith(notFound(name), func(m *store.Memory) []store.Op {
		var cur *store.Entry
		if e, ok := m.Lookup(h.Name); ok && e.Name == h.Name { // the entry of that name, not one with it as an alias
			cur = &e
		}
		ops, err := history.RestoreOps(h, v, cur)
		opErr = err
		return ops
	})
	if opErr != nil {
		if errors.Is(opErr, history.ErrCurrent) {
			_, err := fmt.Fprintf(s.stdout, "unchanged: %s already holds version #%d (nothing written)\n", nameText(h.Name), n)
			return err
		}
		return opErr
	}
	if err != nil {
		return err
	}
	return report(s.stdout, o.hideIDs, fmt.Sprintf("restored version #%d of", n), changes, "")
}
