//go:build unix

package tui

import (
	"os"
	"os/exec"
	"testing"
	"time"
)

// TestEscInput_LoneEscIsTheEscKey pins issue 17 item 14 (esc took about
// 75 ms): a lone ESC with nothing after it is handed on as the kitty
// protocol's esc key, which Bubble Tea's reader decodes without waiting;
// sequences and alt+keys, whole in one read or completed within the wait,
// pass through untouched.
func TestEscInput_LoneEscIsTheEscKey(t *testing.T) {
	tests := []struct {
		name   string
		writes []string // each written before the read; the second after the first read began
		want   string
	}{
		{"esc alone", []string{"\x1b"}, escKey},
		{"arrow", []string{"\x1b[A"}, "\x1b[A"},
		{"alt+x", []string{"\x1bx"}, "\x1bx"},
		{"esc esc", []string{"\x1b\x1b"}, "\x1b\x1b"},
		{"text", []string{"q"}, "q"},
		{"split sequence", []string{"\x1b", "[B"}, "\x1b[B"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, w, err := os.Pipe()
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			defer w.Close()
			// A wait long enough that the second write always lands in it.
			in := &escInput{File: r, wait: time.Minute}
			if len(tt.writes) == 1 {
				in.wait = 0 // nothing more comes: no need to wait
			}
			if _, err := w.WriteString(tt.writes[0]); err != nil {
				t.Fatal(err)
			}
			got := make(chan string, 1)
			go func() {
				buf := make([]byte, 4096)
				n, _ := in.Read(buf)
				got <- string(buf[:n])
			}()
			for _, s := range tt.writes[1:] {
				waitPolling(t, in)
				if _, err := w.WriteString(s); err != nil {
					t.Fatal(err)
				}
			}
			if g := <-got; g != tt.want {
				t.Errorf("read %q, want %q", g, tt.want)
			}
		})
	}
}

// waitPolling returns once the pipe holds nothing more to read: the
// reader has taken the first write and is waiting for the rest.
func waitPolling(t *testing.T, in *escInput) {
	t.Helper()
	for range 10000 {
		if more, err := readable(int(in.Fd()), 0); err == nil && !more {
			return
		}
		time.Sleep(time.Millisecond)
	}
	t.Fatal("the reader never took the first write")
}

// TestTerminalFile_ProcessesGetTheTerminalItself: a process given the
// terminal (the editor, the pager) gets the file, not the wrapper, which
// exec would feed through a pipe.
func TestTerminalFile_ProcessesGetTheTerminalItself(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	c := &settledCommand{cmd: exec.Command("true")}
	c.SetStdin(&escInput{File: r})
	if c.cmd.Stdin != r {
		t.Fatalf("the process's stdin is %T, want the terminal's *os.File", c.cmd.Stdin)
	}
}
