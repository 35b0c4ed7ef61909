package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/crmem/crmem/internal/testbin"
)

// TestDescribeBuild pins the version text for the build information a
// binary can carry.
func TestDescribeBuild(t *testing.T) {
	vcs := func(kv ...string) []debug.BuildSetting {
		var s []debug.BuildSetting
		for i := 0; i < len(kv); i += 2 {
			s = append(s, debug.BuildSetting{Key: kv[i], Value: kv[i+1]})
		}
		return s
	}
	cases := []struct {
		name string
		bi   *debug.BuildInfo
		want string
	}{
		{"no build info", nil, "crmem (devel)\n" + goLine()},
		{"no vcs", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "(devel)"}},
			"crmem (devel)\ngo1.26.8 linux/amd64"},
		{"release", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "v1.2.3"}},
			"crmem v1.2.3\ngo1.26.8 linux/amd64"},
		{"checkout", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "v0.0.0-20261123174204-280a5a878397"},
			Settings: vcs("vcs", "git", "vcs.revision", "280a5a8783977440b256523cc4979a7c429f987c", "vcs.time", "2026-11-23T17:42:04Z", "vcs.modified", "false")},
			"crmem v0.0.0-20261123174204-280a5a878397\nrevision 280a5a8783977440b256523cc4979a7c429f987c (2026-11-23T17:42:04Z)\ngo1.26.8 linux/amd64"},
		{"dirty checkout", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "v0.0.0-20261123174204-280a5a878397+dirty"},
			Settings: vcs("vcs.revision", "280a5a8783977440b256523cc4979a7c429f987c", "vcs.time", "2026-11-23T17:42:04Z", "vcs.modified", "true")},
			"crmem v0.0.0-20261123174204-280a5a878397+dirty\nrevision 280a5a8783977440b256523cc4979a7c429f987c (2026-11-23T17:42:04Z, modified)\ngo1.26.8 linux/amd64"},
		{"revision only", &debug.BuildInfo{GoVersion: "go1.26.8", Settings: vcs("vcs.revision", "abc")},
			"crmem (devel)\nrevision abc\ngo1.26.8 linux/amd64"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := describeBuild(c.bi, "", "linux/amd64"); got != c.want {
				t.Errorf("got\n%s\nwant\n%s", got, c.want)
			}
		})
	}
}

// TestDescribeBuild_Stamped: a version stamped at link time wins over the
// module version; the revision and Go lines stay.
func TestDescribeBuild_Stamped(t *testing.T) {
	bi := &debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Version: "(devel)"},
		Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "abc"}}}
	want := "crmem v1.2.3\nrevision abc\ngo1.26.0 freebsd/arm64"
	if got := describeBuild(bi, "v1.2.3", "freebsd/arm64"); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// TestVersion_Ldflags builds crmem as a release does, with -ldflags "-X
// main.version=…" and no version control stamp, and checks that crmem
// version prints the stamped version. The link is kept in the build cache
// (internal/testbin): a run with nothing changed does not link again.
func TestVersion_Ldflags(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: builds crmem")
	}
	t.Parallel() // a link: beside the tests that wait on crmem
	bin, cleanup, err := testbin.Build("..", "-buildvcs=false", "-ldflags=-X main.version=v9.8.7")
	if err != nil {
		t.Fatal(err)
	}
	defer cleanup()
	out, err := exec.Command(bin, "version").Output()
	if err != nil {
		t.Fatalf("crmem version: %v", err)
	}
	if !strings.HasPrefix(string(out), "crmem v9.8.7\n") {
		t.Errorf("version:\n%s", out)
	}
}

// goLine is the last version line for a build without build info.
func goLine() string {
	bi, _ := debug.ReadBuildInfo()
	return bi.GoVersion + " linux/amd64"
}

// TestVersion_GitCheckout builds crmem from a fresh git repository holding
// crmem's main package and checks that `crmem version` names the commit,
// its time, and "modified" once the checkout has a change. The rest of the
// module is this source tree, by a replace directive: a copy of the whole
// tree in another folder would compile every package of the module again
// (the go command keys its cache on a package's folder), some 15
// CPU-seconds and the longest test of the package; from here they are the
// packages TestMain's build compiled.
func TestVersion_GitCheckout(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed: cannot make a checkout to build from")
	}
	if testing.Short() {
		t.Skip("-short: builds crmem twice")
	}
	t.Parallel() // two links: beside the tests that wait on crmem
	src := filepath.Join(t.TempDir(), "src")
	checkoutOfMain(t, "..", src)
	git := func(args ...string) string {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = src
		cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_SYSTEM=/dev/null",
			"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com",
			"GIT_AUTHOR_DATE=2026-01-02T03:04:05Z", "GIT_COMMITTER_DATE=2026-01-02T03:04:05Z")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %q: %v\n%s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	git("init", "-q")
	git("add", "-A")
	git("commit", "-q", "-m", "snapshot")
	head := git("rev-parse", "HEAD")

	version := func() string {
		t.Helper()
		bin := filepath.Join(t.TempDir(), "crmem")
		build := exec.Command(goTool(), "build", "-buildvcs=true", "-o", bin, ".")
		build.Dir = src
		if out, err := build.CombinedOutput(); err != nil {
			t.Fatalf("go build in the copy: %v\n%s", err, out)
		}
		out, err := exec.Command(bin, "version").Output()
		if err != nil {
			t.Fatalf("crmem version: %v", err)
		}
		return string(out)
	}
	v := version()
	for _, want := range []string{"crmem v0.0.0-20260102030405-" + head[:12] + "\n", "revision " + head + " (2026-01-02T03:04:05Z)\n", "go1."} {
		if !strings.Contains(v, want) {
			t.Errorf("clean checkout: version\n%s\nlacks %q", v, want)
		}
	}
	if strings.Contains(v, "modified") {
		t.Errorf("clean checkout says modified:\n%s", v)
	}
	main, err := os.ReadFile(filepath.Join(src, "main.go"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(src, "main.go"), append(main, "\n// changed\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	if v := version(); !strings.Contains(v, "revision "+head+" (2026-01-02T03:04:05Z, modified)\n") {
		t.Errorf("modified checkout: version\n%s", v)
	}
}

// checkoutModule is the module path of checkoutOfMain's module: not
// crmem's, which it requires.
const checkoutModule = "crmem.test/checkout"

// checkoutOfMain writes to dst a module holding a copy of the main package
// of the module in dir (its Go files) that requires that module, replaced
// by dir: go.mod is the module's own with the module line changed and the
// requirement and the replacement added, go.sum is the module's. Only
// go.mod, go.sum and the main package's files are read, by name: a walk of
// dir would make go test's cache of this package depend on the repository
// root itself, and any file created or removed there (`go build -o crmem
// .`, an editor's backup) would rerun every test here (TestMain checks that
// no test reads the root folder).
func checkoutOfMain(t *testing.T, dir, dst string) {
	t.Helper()
	goList := func(args ...string) string {
		t.Helper()
		// -C, not cmd.Dir: exec stats a cmd.Dir, and that stat would be
		// in the test log.
		cmd := exec.Command(goTool(), append([]string{"-C", dir, "list"}, args...)...)
		var stderr strings.Builder
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("go list %q: %v\n%s", args, err, stderr.String())
		}
		return string(out)
	}
	modDir := strings.TrimSpace(goList("-m", "-f", "{{.Dir}}"))
	modPath := strings.TrimSpace(goList("-m", "-f", "{{.Path}}"))
	if err := os.MkdirAll(dst, 0o755); err != nil {
		t.Fatal(err)
	}
	gomod, err := os.ReadFile(filepath.Join(modDir, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	first, rest, ok := strings.Cut(string(gomod), "\n")
	if !ok || first != "module "+modPath {
		t.Fatalf("go.mod starts %q, want %q", first, "module "+modPath)
	}
	gomod = []byte("module " + checkoutModule + "\n" + rest +
		"\nrequire " + modPath + " v0.0.0\n\nreplace " + modPath + " => " + modDir + "\n")
	if err := os.WriteFile(filepath.Join(dst, "go.mod"), gomod, 0o644); err != nil {
		t.Fatal(err)
	}
	files := []string{"go.sum"}
	const each = `{{range .GoFiles}}{{.}}{{"\n"}}{{end}}{{range .EmbedFiles}}{{.}}{{"\n"}}{{end}}`
	files = append(files, strings.Fields(goList("-f", each, "."))...)
	if len(files) < 2 {
		t.Fatalf("go list named no source files of the main package in %s", modDir)
	}
	for _, rel := range files {
		data, err := os.ReadFile(filepath.Join(modDir, rel))
		if err != nil {
			t.Fatalf("copy the main package: %v", err)
		}
		to := filepath.Join(dst, rel)
		if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
			t.Fatalf("copy the main package: %v", err)
		}
		if err := os.WriteFile(to, data, 0o644); err != nil {
			t.Fatalf("copy the main package: %v", err)
		}
	}
}
