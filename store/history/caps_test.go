package history

import (
	"strings"
	"testing"

	"github.com/crmem/crmem/store"
)

// otherFormat is an open memory of a format whose history crmem does not
// read: the zero Capabilities, as a third format's adapter that says
// nothing of its history would give.
type otherFormat struct{ mem *store.Memory }

func (o otherFormat) Path() string                { return "other.mem" }
func (o otherFormat) Memory() *store.Memory       { return o.mem }
func (o otherFormat) Reload() (store.Diff, error) { return store.Diff{}, nil }
func (o otherFormat) Exists() bool                { return true }
func (o otherFormat) Features() store.Features    { return store.Features{Format: "other"} }

// TestBuild_AFormatWithNoHistoryIsRefused: Build reads a history where the
// source's capabilities say it is, and refuses a format that says none,
// rather than walking its file as crabtalk's store's log (which it did
// for any format not named "CRMEM v1").
func TestBuild_AFormatWithNoHistoryIsRefused(t *testing.T) {
	ix, err := Build(otherFormat{store.NewMemoryWith(&store.File{}, store.IndexNow)})
	if err == nil || ix != nil || !strings.Contains(err.Error(), "the other format keeps none crmem reads") {
		t.Errorf("Build = %v, %v; want the format's refusal", ix, err)
	}
}
