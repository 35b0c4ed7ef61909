package cli

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestApp_OnlyTheProcessJob: app's methods are the process's job only
// (running the command line, the command table, loading the
// configuration, starting the screen). A subcommand is a function built
// from what it uses, the opener and the streams (docs/ARCHITECTURE.md,
// "A verb"), not a method of app.
func TestApp_OnlyTheProcessJob(t *testing.T) {
	want := []string{"commandFor", "commandTree", "execute", "loadConfig", "rootCommand", "runTUI", "subcommands"}
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	var got []string
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Recv == nil || len(fd.Recv.List) != 1 {
				continue
			}
			if star, ok := fd.Recv.List[0].Type.(*ast.StarExpr); ok {
				if id, ok := star.X.(*ast.Ident); ok && id.Name == "app" {
					got = append(got, fd.Name.Name)
				}
			}
		}
	}
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Errorf("app's methods are %v, want %v: build a subcommand from the opener and the streams, not as a method of app", got, want)
	}
}
