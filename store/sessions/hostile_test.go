//go:build unix

package sessions

import (
	"net"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"syscall"
	"testing"
	"time"
)

// hostile is a sessions folder with one session, agent-x_u_1, whose first
// step is a compact marker naming "kept" and whose second step (or meta
// file) is what make leaves at path; outside is a folder beside the
// sessions folder holding a marker naming "leaked" and a meta naming the
// agent "leaked".
func hostile(t *testing.T, name string, make func(t *testing.T, path, outside string)) string {
	t.Helper()
	base := t.TempDir()
	dir, outside := filepath.Join(base, "sessions"), filepath.Join(base, "outside")
	session := filepath.Join(dir, "agent-x_u_1")
	for _, d := range []string{session, outside, filepath.Join(dir, "other_u_2")} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	files := map[string]string{
		filepath.Join(session, "step-000000"):          `{"archive_name":"kept","archived_at":"2026-01-01T00:00:00Z"}`,
		filepath.Join(outside, "step-000000"):          `{"archive_name":"leaked","archived_at":"2026-01-01T00:00:00Z"}`,
		filepath.Join(outside, "meta"):                 `{"agent":"leaked"}`,
		filepath.Join(dir, "other_u_2", "step-000000"): `{"archive_name":"inside","archived_at":"2026-01-01T00:00:00Z"}`,
		filepath.Join(dir, "other_u_2", "meta"):        `{"agent":"inside"}`,
	}
	for p, c := range files {
		if err := os.WriteFile(p, []byte(c), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	make(t, filepath.Join(session, name), outside)
	return dir
}

func link(target string) func(t *testing.T, path, outside string) {
	return func(t *testing.T, path, outside string) {
		if err := os.Symlink(target, path); err != nil {
			t.Fatal(err)
		}
	}
}

func fifo(t *testing.T, path, _ string) {
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Fatal(err)
	}
}

func sparse(t *testing.T, path, _ string) {
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := f.Truncate(10 << 30); err != nil {
		t.Fatal(err)
	}
}

// TestHostileSessionFiles runs the archive-reference reader (check, lint,
// rm) and the recall reader (recalls, stats) over a session whose step or
// meta is a FIFO, /dev/zero, /dev/null, a 10 GiB sparse file, or a link
// out of the sessions folder: each ends at once, reads no more than a
// few MiB, and never reads what lies outside the folder.
func TestHostileSessionFiles(t *testing.T) {
	outsideStep := func(t *testing.T, path, outside string) {
		link(filepath.Join(outside, "step-000000"))(t, path, outside)
	}
	outsideMeta := func(t *testing.T, path, outside string) { link(filepath.Join(outside, "meta"))(t, path, outside) }
	tests := []struct {
		name       string
		file       string // step-000001 or meta
		make       func(t *testing.T, path, outside string)
		archives   []string // the session's archives by Read
		agent      string   // its agent by WalkRecalls
		unreadable int
	}{
		{"FIFO step", "step-000001", fifo, []string{"kept"}, "agent-x", 1},
		{"step linked to /dev/zero", "step-000001", link("/dev/zero"), []string{"kept"}, "agent-x", 1},
		{"step linked to /dev/null", "step-000001", link("/dev/null"), []string{"kept"}, "agent-x", 1},
		{"10 GiB sparse step", "step-000001", sparse, []string{"kept"}, "agent-x", 1},
		{"step linked out of the folder", "step-000001", outsideStep, []string{"kept"}, "agent-x", 1},
		{"step linked inside the folder", "step-000001", link("../other_u_2/step-000000"), []string{"kept", "inside"}, "agent-x", 0},
		{"FIFO meta", "meta", fifo, []string{"kept"}, "agent-x", 0},
		{"meta linked to /dev/zero", "meta", link("/dev/zero"), []string{"kept"}, "agent-x", 0},
		{"10 GiB sparse meta", "meta", sparse, []string{"kept"}, "agent-x", 0},
		{"meta linked out of the folder", "meta", outsideMeta, []string{"kept"}, "agent-x", 0},
		{"meta linked inside the folder", "meta", link("../other_u_2/meta"), []string{"kept"}, "inside", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := hostile(t, tt.file, tt.make)
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			var ss []Session
			var agent string
			var p RecallProblems
			var readErr, walkErr error
			done := make(chan struct{})
			go func() {
				defer close(done)
				ss, readErr = Read(dir)
				p, walkErr = WalkRecalls(dir, RecallOptions{}, func(s SessionRecalls) error {
					if s.Session == "agent-x_u_1" {
						agent = s.Agent
					}
					return nil
				})
			}()
			select {
			case <-done:
			case <-time.After(10 * time.Second):
				t.Fatal("reading the sessions folder hangs")
			}
			runtime.ReadMemStats(&after)
			if readErr != nil || walkErr != nil {
				t.Fatalf("Read: %v; WalkRecalls: %v", readErr, walkErr)
			}
			if grew := after.TotalAlloc - before.TotalAlloc; grew > 8<<20 {
				t.Errorf("allocated %d MiB reading two small sessions", grew>>20)
			}
			i := slices.IndexFunc(ss, func(s Session) bool { return s.Name == "agent-x_u_1" })
			if i < 0 || !slices.Equal(ss[i].Archives, tt.archives) || ss[i].Unreadable != tt.unreadable {
				t.Errorf("sessions %+v, want agent-x_u_1 with archives %q and %d unreadable steps", ss, tt.archives, tt.unreadable)
			}
			if agent != tt.agent {
				t.Errorf("agent %q, want %q", agent, tt.agent)
			}
			if p.UnreadableSteps != tt.unreadable {
				t.Errorf("%d unreadable steps, want %d", p.UnreadableSteps, tt.unreadable)
			}
		})
	}
}

// TestSessionFolderLinks lists a session folder that is a link only when
// it leads to a folder inside the sessions folder.
func TestSessionFolderLinks(t *testing.T) {
	dir := hostile(t, "step-000001", func(*testing.T, string, string) {})
	outside := filepath.Join(filepath.Dir(dir), "outside")
	must(t, os.Symlink(outside, filepath.Join(dir, "away_u_3")))
	must(t, os.Symlink("other_u_2", filepath.Join(dir, "alias_u_4")))
	ss, err := Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, s := range ss {
		names = append(names, s.Name)
		if slices.Contains(s.Archives, "leaked") {
			t.Errorf("session %s read a folder outside the sessions folder", s.Name)
		}
	}
	if want := []string{"agent-x_u_1", "alias_u_4", "other_u_2"}; !slices.Equal(names, want) {
		t.Errorf("sessions %q, want %q", names, want)
	}
}

// TestStepThatIsNotAFile: a socket or a device node named like a step is
// counted unreadable without being opened.
func TestStepThatIsNotAFile(t *testing.T) {
	dir := hostile(t, "step-000001", func(t *testing.T, path, _ string) {
		l, err := net.Listen("unix", path)
		if err != nil {
			t.Skip(err)
		}
		t.Cleanup(func() { l.Close() })
	})
	session := filepath.Join(dir, "agent-x_u_1")
	want := 1
	if syscall.Mknod(filepath.Join(session, "step-000002"), syscall.S_IFCHR|0o600, 1<<8|3) == nil { // /dev/null's numbers; needs root
		want = 2
	}
	p, err := WalkRecalls(dir, RecallOptions{}, func(SessionRecalls) error { return nil })
	if err != nil {
		t.Fatal(err)
	}
	if p.UnreadableSteps != want {
		t.Errorf("%d unreadable steps, want %d", p.UnreadableSteps, want)
	}
	ss, err := Read(dir)
	if err != nil || len(ss) != 2 {
		t.Fatalf("Read: %v %+v", err, ss)
	}
}
