package tui

import (
	"strings"
	"testing"
	"time"

	"charm.land/bubbles/v2/key"
	"github.com/charmbracelet/x/ansi"

	"github.com/crmem/crmem/keymap"
	"github.com/crmem/crmem/store"
	"github.com/crmem/crmem/tui/dialog"
	"github.com/crmem/crmem/tui/findings"
	"github.com/crmem/crmem/tui/helpscreen"
	"github.com/crmem/crmem/tui/reloadlog"
	"github.com/crmem/crmem/tui/statspanel"
)

// testCommon is a common as the root builds it, sized w×h, without a
// model around it.
func testCommon(w, h int) *common {
	c := &common{width: w, height: h, sized: true, keys: keymap.DefaultKeyMap(), dark: true,
		now: func() time.Time { return time.Unix(1_800_000_000, 0) }, loc: time.UTC}
	c.styles = newStyles(true, false)
	return c
}

// TestParts_ReadOnlyTheCommon: the panels and dialogs draw and take keys
// from the common they share (size, styles, keys, the snapshot), with no
// root model: the help screen, the stats panel, the reload log, the
// findings view, a question and a prompt; a dialog answers with its request and what the status
// line says as data ("cancelled"), not by writing the root's status.
func TestParts_ReadOnlyTheCommon(t *testing.T) {
	c := testCommon(60, 12)
	c.snap = newSnapshot([]store.Entry{{ID: 1, Name: "a", Kind: store.Note, CreatedAt: 1}})
	const w, h = 60, 12
	keys := c.keys
	keys.SetReferenceMode(false)
	var stats statspanel.Panel
	stats.Show(c.partContext(h), statspanel.Of{Snap: c.snap})
	hp := helpscreen.Screen{Groups: [][]key.Binding{keys.NavigationKeys(), keys.AppKeys()}}
	hp.Show()
	var log reloadlog.Log
	log.Add(reloadlog.Record{Added: 1, Items: []reloadlog.Item{{ID: 1, Name: "a", Kind: reloadlog.Added}}})
	log.Show()
	var lint findings.View
	lint.Show(c.partContext(h))
	for name, v := range map[string]string{
		"help":  hp.View(c.partContext(h), w, h),
		"stats": stats.View(c.partContext(h), w, h),
		"log":   log.View(c.partContext(h), w, h),
		"lint":  lint.View(c.partContext(h), w, h),
	} {
		if lines := strings.Split(v, "\n"); len(lines) != h || ansi.StringWidth(lines[0]) != w {
			t.Errorf("%s: %d lines of %d cells, want %d of %d:\n%s", name, len(lines), ansi.StringWidth(lines[0]), h, w, v)
		}
	}
	if reqs, _ := hp.Key(c.partContext(h), keyMsg("esc")); len(reqs) > 0 || hp.Open() {
		t.Error("esc did not close the help, or was passed below")
	}
	yes := reqWhy{query: "q", name: "a"}
	q := &dialog.Confirm{Text: "delete a?", Yes: yes}
	if got := ansi.Strip(q.View(c.partContext(h))); !strings.Contains(got, "delete a?") || !strings.Contains(got, "[y/n]") {
		t.Errorf("question %q", got)
	}
	if req, done, note := q.Key(c.partContext(h), keyMsg("y")); !done || req != dialog.Request(yes) || note != "" {
		t.Errorf("y: %v %v %q", req, done, note)
	}
	if req, done, note := q.Key(c.partContext(h), keyMsg("n")); !done || req != nil || note != "cancelled" {
		t.Errorf("n: %v %v %q", req, done, note)
	}
	p := dialog.NewPrompt("rename", "a", nil, reqWhy{})
	if req, done, note := p.Key(c.partContext(h), keyMsg("esc")); !done || req != nil || note != "cancelled" {
		t.Errorf("esc in a prompt: %v %v %q", req, done, note)
	}
}

// TestParts_KeepTheirOwnState: the reload log, the stats panel and the
// date filter keep and change their own state from the common and what
// the root hands them, with no root model: a reload's changes become
// unseen and go to the log (latest change, the short help's hint, seen);
// the stats panel asks for figures once per snapshot and drops a stale
// answer; the date prompt opens and filters.
func TestParts_KeepTheirOwnState(t *testing.T) {
	c := testCommon(80, 20)
	old := newSnapshot([]store.Entry{{ID: 1, Name: "a", Kind: store.Note, CreatedAt: 1}})
	cur := newSnapshot([]store.Entry{{ID: 1, Name: "a", Kind: store.Note, CreatedAt: 1}, {ID: 2, Name: "b", Kind: store.Note, CreatedAt: 2}})
	var chg changeState
	chg.noteWritten([]store.Change{{Before: &old.entries[0]}}) // this session deleted 1 …
	rec := chg.noteReload(store.Diff{Added: []uint64{2}}, old, cur, c.now(), nil)
	if reloadSummary(rec) != "reloaded: +1 b" || len(chg.log.Records()) != 1 {
		t.Fatalf("reload noted as %q, log %d", reloadSummary(rec), len(chg.log.Records()))
	}
	if id, ok := chg.latestChange(cur); !ok || id != 2 {
		t.Fatalf("latest change %d %v", id, ok)
	}
	short := []key.Binding{c.keys.Help}
	if got := chg.withChangeHint(&c.keys, short); len(got) != 2 || got[0].Help().Desc != "1 unseen change" {
		t.Fatalf("hint %v", helpText(got))
	}
	chg.seen(2)
	if got := chg.withChangeHint(&c.keys, short); len(got) != 1 {
		t.Fatalf("seen, still hinted: %v", helpText(got))
	}

	var d dateState
	if d.keep() != nil {
		t.Fatal("date filter on before any range")
	}
	d.open(c)
	if !d.prompting {
		t.Fatal("date prompt not open")
	}
	d.r = dateRange{from: 2, to: 3, text: "x"}
	if keep := d.keep(); keep == nil || keep(cur.entries[0]) || !keep(cur.entries[1]) {
		t.Fatal("date filter does not keep only the range")
	}
}
