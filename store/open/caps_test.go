package open

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/crmem/crmem/store"
	"github.com/crmem/crmem/store/crabdb"
)

// TestCapabilities_AreTheAdapters: whichever way a memory is opened
// (followed, read once, checked), what its format can do is its adapter's
// one Capabilities value, and the two formats differ in each of them, so
// a caller asking a capability never needs the format's name.
func TestCapabilities_AreTheAdapters(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		fixture, base string
		want          store.Capabilities
	}{
		{"crmem/small.db", "memory.db", store.V1Capabilities},
		{"crabdb/small.crmem", "store.crmem", crabdb.Capabilities},
	} {
		t.Run(tc.base, func(t *testing.T) {
			path := copyTo(t, dir, tc.fixture, tc.base)
			src, err := Source(path, "")
			if err != nil {
				t.Fatal(err)
			}
			if got := src.Features().Caps; got != tc.want {
				t.Errorf("Source: %+v, want %+v", got, tc.want)
			}
			c, err := Contents(path, "")
			if err != nil {
				t.Fatal(err)
			}
			if got := c.Features.Caps; got != tc.want {
				t.Errorf("Contents: %+v, want %+v", got, tc.want)
			}
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			r, err := Check(path, data, filepath.Join(dir, "sessions"))
			if err != nil {
				t.Fatal(err)
			}
			if r.Caps != tc.want {
				t.Errorf("Check: %+v, want %+v", r.Caps, tc.want)
			}
		})
	}
	v1, st := store.V1Capabilities, crabdb.Capabilities
	if v1.History == st.History || v1.Sessions == st.Sessions || v1.RandomTies == st.RandomTies || v1.Trailing == st.Trailing {
		t.Errorf("the formats share a capability: v1 %+v, store %+v", v1, st)
	}
	var none store.Capabilities
	if none.History != store.NoHistory || none.Sessions != store.NoSessions {
		t.Errorf("the zero Capabilities claim a history or sessions: %+v", none)
	}
}

// Source opens path as a store.Source: crabtalk's store when it is one
// (read once), else a v1 memory file whose index builds in the
// background (of it only the store's 32-byte header check is read before
// store.OpenWith). sessionsDir is a v1 file's sessions folder ("": the
// one beside it); crabtalk's store holds its own. Both are a *store.DB,
// which writes either format (Features().Writer).
func Source(path, sessionsDir string) (store.Source, error) {
	return SourceWith(path, Options{Store: store.Options{Index: store.IndexBackground, Sessions: sessionsDir}})
}
