package tui

import (
	"strings"
	"testing"
	"time"

	"github.com/crmem/crmem/store/crabdb"
	"github.com/crmem/crmem/store/crabdb/crabdbtest"
)

// TestTmux_StoreSearchDepl opens small.crmem, types "depl" and sees
// deploy-steps first, as the store's recall ranks depl*; a write key is
// refused; an entry the daemon appends appears.
func TestTmux_StoreSearchDepl(t *testing.T) {
	p := newTmux(t)
	bin := buildBinary(t)
	path := copyStore(t, "small.crmem")
	p.start("s", "NO_COLOR=1 "+bin+" '"+path+"'")
	p.waitFor("s", 30*time.Second, "first screen", func(s string) bool {
		return strings.Contains(s, "release-checklist") && strings.Contains(s, "3 archives")
	})
	p.keys("s", "/")
	p.text("s", "depl")
	p.waitFor("s", 30*time.Second, "depl searched as depl*", func(s string) bool {
		return strings.Contains(s, `store recall "depl*"`) && cardTitle(s) == "deploy-steps"
	})
	s := p.screen("s")
	first := -1
	for i, line := range strings.Split(s, "\n") {
		if i > 1 && strings.Contains(line, "deploy-steps") {
			first = i
			break
		}
	}
	if first < 0 || strings.Index(s, "deploy-steps") > strings.Index(s, "long-note") {
		t.Errorf("deploy-steps is not first:\n%s", s)
	}
	p.keys("s", "Enter")
	crabdbtest.Append(t, path, crabdbtest.Record(crabdb.OpPut, crabdb.ColMemory, "local/memory/zz-appended",
		`{"name":"zz-appended","kind":"note","content":"depl","aliases":[],"created_at":"2026-08-21T10:00:00+00:00"}`))
	p.waitFor("s", 30*time.Second, "reloaded", func(s string) bool { return strings.Contains(s, "23 notes") || strings.Contains(s, "23 N ·") })
	p.keys("s", "Escape") // the appended entry is not in the stored index: list everything
	p.waitFor("s", 30*time.Second, "appended entry listed", func(s string) bool { return strings.Contains(s, "zz-appended") })
}
