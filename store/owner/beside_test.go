//go:build unix

package owner

import (
	"errors"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCheck_SocketBesideTheStore (issue 38 §4): the socket given is
// crabtalk's home's ($CRABTALK_HOME's), but a store elsewhere may have its
// own daemon listening on run/crabtalk.sock in the store's folder. A
// listener there stops the write whether the store is named directly,
// through a link to it, through a linked folder, or by a relative path;
// with nothing listening there the proof says both sockets were tried.
func TestCheck_SocketBesideTheStore(t *testing.T) {
	storePath, beside := home(t) // the store, and the socket beside it
	_, homeSock := home(t)       // crabtalk's home elsewhere: nothing listens
	links := t.TempDir()         // a link to the store, and to its folder
	fileLink := filepath.Join(links, "store.crmem")
	if err := os.Symlink(storePath, fileLink); err != nil {
		t.Fatal(err)
	}
	dirLink := filepath.Join(links, "home")
	if err := os.Symlink(filepath.Dir(storePath), dirLink); err != nil {
		t.Fatal(err)
	}
	rel, err := filepath.Rel(mustGetwd(t), storePath)
	if err != nil {
		t.Fatal(err)
	}

	// Nothing listens beside the store: both sockets are named in the proof.
	p, err := Check(storePath, homeSock)
	if err != nil {
		t.Fatalf("check with no listener: %v", err)
	}
	if line := p.String(); !strings.Contains(line, "there is no "+homeSock) || !strings.Contains(line, "there is no run/crabtalk.sock") {
		t.Errorf("proof %q: want both sockets named", line)
	}

	ln, err := net.Listen("unix", beside)
	if err != nil {
		t.Skipf("no unix sockets here: %v", err)
	}
	defer ln.Close()
	for _, path := range []string{storePath, fileLink, filepath.Join(dirLink, "store.crmem"), rel} {
		_, err := Check(path, homeSock)
		var re *RunningError
		if !errors.As(err, &re) || re.Socket != beside {
			t.Errorf("store as %s: Check = %v, want the daemon answering on %s", path, err, beside)
		}
	}
	// The home socket and the one beside the store are one: tried once.
	if p, err := Check(storePath, beside); !errors.As(err, new(*RunningError)) || p.Beside != "" {
		t.Errorf("the home's socket beside the store: Check = %v, Beside %q", err, p.Beside)
	}
}

// mustGetwd is the working folder.
func mustGetwd(t *testing.T) string {
	t.Helper()
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	return wd
}
