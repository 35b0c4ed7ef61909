package tui

import (
	"path/filepath"
	"testing"
)

// TestDaemonSocket_HonoursCrabtalkHome: the daemon listens in crabtalk's
// home folder, $CRABTALK_HOME when set (as the store's path, SPEC §10),
// else ~/.crabtalk.
func TestDaemonSocket_HonoursCrabtalkHome(t *testing.T) {
	home := t.TempDir()
	for _, tc := range []struct{ env, want string }{
		{"", filepath.Join(home, ".crabtalk", "run", "crabtalk.sock")},
		{filepath.Join(home, "ct"), filepath.Join(home, "ct", "run", "crabtalk.sock")},
	} {
		t.Setenv("CRABTALK_HOME", tc.env)
		if got := daemonSocket(home); got != tc.want {
			t.Errorf("CRABTALK_HOME=%q: socket %s, want %s", tc.env, got, tc.want)
		}
	}
}
