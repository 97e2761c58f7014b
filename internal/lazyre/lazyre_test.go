package lazyre

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
)

func TestNewCompilesOnceOnFirstUse(t *testing.T) {
	re := New(`^a(b+)$`)
	var wg sync.WaitGroup
	got := make([]*regexp.Regexp, 8)
	for i := range got {
		wg.Go(func() { got[i] = re() })
	}
	wg.Wait()
	for _, r := range got {
		if r != got[0] {
			t.Fatal("New's function returned two different *regexp.Regexp: the pattern was compiled more than once")
		}
	}
	if m := got[0].FindStringSubmatch("abbb"); len(m) != 2 || m[1] != "bbb" {
		t.Fatalf("FindStringSubmatch(abbb) = %q, want [abbb bbb]", m)
	}
}

func TestNewPanicsOnFirstUseOfABadPattern(t *testing.T) {
	re := New(`(unclosed`) // no panic here: nothing is compiled yet
	defer func() {
		if recover() == nil {
			t.Fatal("a bad pattern did not panic on first use")
		}
	}()
	re()
}

// TestPatternsCompile compiles the pattern of every lazyre.New call in the
// module's code, so a bad one fails here rather than in the first run that
// needs it; and it refuses a regexp compiled in a package-level variable's
// initialiser, which every start of autobuild would pay for.
func TestPatternsCompile(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	found := 0
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); path != root && (strings.HasPrefix(name, ".") || name == "testdata" || name == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || !isCall(call, "lazyre", "New") || f.Name.Name == "lazyre" {
				return true
			}
			found++
			lit, ok := call.Args[0].(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				t.Errorf("%s: lazyre.New with a pattern that is not a string literal: this test cannot check it", fset.Position(call.Pos()))
				return true
			}
			expr, err := strconv.Unquote(lit.Value)
			if err != nil {
				t.Errorf("%s: %v", fset.Position(lit.Pos()), err)
				return true
			}
			if _, err := regexp.Compile(expr); err != nil {
				t.Errorf("%s: %v", fset.Position(lit.Pos()), err)
			}
			return true
		})
		for _, decl := range f.Decls {
			gen, ok := decl.(*ast.GenDecl)
			if !ok || gen.Tok != token.VAR {
				continue
			}
			ast.Inspect(gen, func(n ast.Node) bool {
				if _, ok := n.(*ast.FuncLit); ok {
					return false // runs when called, not at init
				}
				if call, ok := n.(*ast.CallExpr); ok && (isCall(call, "regexp", "MustCompile") || isCall(call, "regexp", "Compile")) {
					t.Errorf("%s (%s): a regexp compiled in a package-level variable's initialiser runs at every start; use lazyre.New", fset.Position(call.Pos()), rel)
				}
				return true
			})
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if found == 0 {
		t.Fatal("found no lazyre.New call in the module: the walk looked in the wrong place")
	}
}

func isCall(call *ast.CallExpr, pkg, name string) bool {
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != name {
		return false
	}
	id, ok := sel.X.(*ast.Ident)
	return ok && id.Name == pkg && len(call.Args) == 1
}
