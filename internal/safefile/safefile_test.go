//go:build unix

package safefile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// fixture makes every kind of path a reader may meet under a fresh
// folder: root/in holds what a reader is pointed at, root/out what lies
// outside the folder a link must stay in.
func fixture(t *testing.T) (in, out string) {
	t.Helper()
	root := t.TempDir()
	in, out = filepath.Join(root, "in"), filepath.Join(root, "out")
	for _, d := range []string{in, out, filepath.Join(in, "dir")} {
		if err := os.Mkdir(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	write := func(p string, n int) {
		if err := os.WriteFile(p, []byte(strings.Repeat("x", n)), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(in, "regular"), 10)
	write(filepath.Join(in, "atcap"), 16)
	write(filepath.Join(in, "overcap"), 17)
	write(filepath.Join(out, "secret"), 10)
	if err := syscall.Mkfifo(filepath.Join(in, "fifo"), 0o600); err != nil {
		t.Fatal(err)
	}
	sparse, err := os.Create(filepath.Join(in, "sparse"))
	if err != nil {
		t.Fatal(err)
	}
	if err := sparse.Truncate(10 << 30); err != nil { // 10 GiB, no blocks
		t.Fatal(err)
	}
	sparse.Close()
	links := map[string]string{
		"l-regular": "regular", "l-fifo": "fifo", "l-dir": "dir",
		"l-null": "/dev/null", "l-zero": "/dev/zero", "l-overcap": "overcap",
		"l-out": filepath.Join(out, "secret"), "l-l-regular": "l-regular",
		"l-dangling": "nope",
	}
	for name, target := range links {
		if err := os.Symlink(target, filepath.Join(in, name)); err != nil {
			t.Fatal(err)
		}
	}
	return in, out
}

// TestOpen runs every kind of path through Open, ReadFile, ReadInto and
// Dir.ReadInto under a cap of 16 bytes, following links, and within the
// folder.
func TestOpen(t *testing.T) {
	in, _ := fixture(t)
	const capped = 16
	tests := []struct {
		name     string
		path     string
		follow   error // following any link
		within   error // links must stay inside in
		noFollow error // links refused
		n        int   // bytes read when it succeeds
	}{
		{"regular", "regular", nil, nil, nil, 10},
		{"exactly at cap", "atcap", nil, nil, nil, 16},
		{"over cap", "overcap", errTooLarge, errTooLarge, errTooLarge, 0},
		{"10 GiB sparse", "sparse", errTooLarge, errTooLarge, errTooLarge, 0},
		{"FIFO", "fifo", ErrNotRegular, ErrNotRegular, ErrNotRegular, 0},
		{"folder", "dir", ErrNotRegular, ErrNotRegular, ErrNotRegular, 0},
		{"char device", "/dev/null", ErrNotRegular, ErrNotRegular, ErrNotRegular, 0},
		{"endless device", "/dev/zero", ErrNotRegular, ErrNotRegular, ErrNotRegular, 0},
		{"missing", "nope", fs.ErrNotExist, fs.ErrNotExist, fs.ErrNotExist, 0},
		{"link to regular", "l-regular", nil, nil, ErrLink, 10},
		{"link to link to regular", "l-l-regular", nil, nil, ErrLink, 10},
		{"link to FIFO", "l-fifo", ErrNotRegular, ErrNotRegular, ErrLink, 0},
		{"link to folder", "l-dir", ErrNotRegular, ErrNotRegular, ErrLink, 0},
		{"link to /dev/null", "l-null", ErrNotRegular, ErrOutside, ErrLink, 0},
		{"link to /dev/zero", "l-zero", ErrNotRegular, ErrOutside, ErrLink, 0},
		{"link over cap", "l-overcap", errTooLarge, errTooLarge, ErrLink, 0},
		{"link out of the folder", "l-out", nil, ErrOutside, ErrLink, 10},
		{"dangling link", "l-dangling", fs.ErrNotExist, fs.ErrNotExist, ErrLink, 0},
	}
	for _, tt := range tests {
		path := tt.path
		if !filepath.IsAbs(path) {
			path = filepath.Join(in, path)
		}
		for _, mode := range []struct {
			name string
			o    Options
			want error
		}{
			{"follow", Options{Limit: capped, What: "test file"}, tt.follow},
			{"within", Options{Limit: capped, What: "test file", Within: in}, tt.within},
			{"nofollow", Options{Limit: capped, What: "test file", NoFollow: true}, tt.noFollow},
		} {
			t.Run(tt.name+"/"+mode.name, func(t *testing.T) {
				readers := map[string]func() ([]byte, error){
					"ReadFile": func() ([]byte, error) { return ReadFile(path, mode.o) },
					"ReadInto": func() ([]byte, error) { return ReadInto(path, nil, mode.o) },
					"Dir.ReadInto": func() ([]byte, error) {
						d, err := OpenDir(filepath.Dir(path))
						if err != nil {
							t.Fatal(err)
						}
						defer d.Close()
						return d.ReadInto(filepath.Base(path), nil, mode.o)
					},
					"Open": func() ([]byte, error) {
						f, fi, err := Open(path, mode.o)
						if err != nil {
							return nil, err
						}
						f.Close()
						return make([]byte, fi.Size()), nil
					},
				}
				for rn, read := range readers {
					done := make(chan struct{})
					var data []byte
					var err error
					go func() { data, err = read(); close(done) }()
					select {
					case <-done:
					case <-time.After(5 * time.Second):
						t.Fatalf("%s blocked", rn)
					}
					checkErr(t, rn, path, err, mode.want)
					if mode.want == nil && len(data) != tt.n {
						t.Errorf("%s read %d bytes, want %d", rn, len(data), tt.n)
					}
				}
			})
		}
	}
}

// errTooLarge stands for any *TooLargeError in the table.
var errTooLarge = errors.New("too large")

func checkErr(t *testing.T, reader, path string, err, want error) {
	t.Helper()
	switch {
	case want == nil:
		if err != nil {
			t.Errorf("%s: %v, want no error", reader, err)
		}
	case want == errTooLarge:
		var big *TooLargeError
		if !errors.As(err, &big) {
			t.Fatalf("%s: %v, want too large", reader, err)
		}
		if msg := err.Error(); !strings.Contains(msg, path) || !strings.Contains(msg, "(a test file holds at most 16 bytes)") {
			t.Errorf("%s: message %q does not name the file and the cap", reader, msg)
		}
	default:
		if !errors.Is(err, want) {
			t.Errorf("%s: %v, want %v", reader, err, want)
		}
		var pe *fs.PathError
		if err != nil && !errors.As(err, &pe) {
			t.Errorf("%s: %v names no path", reader, err)
		}
	}
}

// TestReadFileGrowing reads no more than the cap of a file that says it
// is small and grows meanwhile: /proc files say size 0.
func TestReadFileGrowing(t *testing.T) {
	if _, err := os.Stat("/proc/self/maps"); err != nil {
		t.Skip("no /proc")
	}
	_, err := ReadFile("/proc/self/maps", Options{Limit: 8, What: "test file"})
	var big *TooLargeError
	if !errors.As(err, &big) || big.Size != -1 {
		t.Fatalf("err = %v, want too large while read", err)
	}
	if !strings.Contains(err.Error(), "too large: more than 8 bytes (a test file holds at most 8 bytes)") {
		t.Errorf("message %q", err)
	}
}

// TestReadAll caps a stream.
func TestReadAll(t *testing.T) {
	f, err := os.Open("/dev/zero")
	if err != nil {
		t.Skip(err)
	}
	defer f.Close()
	_, err = ReadAll(f, "stdin", 1<<20, "entry")
	if err == nil || err.Error() != "read stdin: too large: more than 1 MiB (an entry holds at most 1 MiB)" {
		t.Fatalf("err = %v", err)
	}
	data, err := ReadAll(strings.NewReader("abc"), "stdin", 3, "entry")
	if err != nil || string(data) != "abc" {
		t.Fatalf("ReadAll at cap = %q, %v", data, err)
	}
}

func TestCapText(t *testing.T) {
	for n, want := range map[int64]string{16: "16 bytes", 1 << 10: "1 KiB", 1 << 20: "1 MiB", 64 << 20: "64 MiB", 1 << 30: "1 GiB", 1500: "1,500 bytes"} {
		if got := CapText(n); got != want {
			t.Errorf("CapText(%d) = %q, want %q", n, got, want)
		}
	}
}
