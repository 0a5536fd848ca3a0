package node

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/pelletier/go-toml/v2"
)

// Every config field is in the README's configuration reference, with its
// default as `containerd config default` prints it.
func TestEveryConfigFieldIsDocumentedWithItsDefault(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	rows := map[string]string{} // key -> default column
	row := regexp.MustCompile("(?m)^\\| `([a-z_]+)` \\| ([^|]*) \\|")
	for _, m := range row.FindAllStringSubmatch(string(readme), -1) {
		rows[m[1]] = strings.TrimSpace(m[2])
	}
	defaults, err := toml.Marshal(DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	values := map[string]any{}
	if err := toml.Unmarshal(defaults, &values); err != nil {
		t.Fatal(err)
	}
	typ := reflect.TypeOf(Config{})
	for i := 0; i < typ.NumField(); i++ {
		key := strings.Split(typ.Field(i).Tag.Get("toml"), ",")[0]
		doc, ok := rows[key]
		if !ok {
			t.Errorf("config key %q is not in the README's configuration reference", key)
			continue
		}
		if want := renderDefault(values[key]); !strings.Contains(doc, want) {
			t.Errorf("README gives %q as the default of %q; the code's is %s", doc, key, want)
		}
	}
}

// renderDefault writes a default the way the README table does.
func renderDefault(v any) string {
	switch v := v.(type) {
	case []any:
		if len(v) == 0 {
			return "`[]`"
		}
		var parts []string
		for _, e := range v {
			parts = append(parts, `"`+e.(string)+`"`)
		}
		return "`[" + strings.Join(parts, ", ") + "]`"
	case string:
		if v == "" {
			return "`\"\"`"
		}
		return "`" + v + "`"
	default:
		b, _ := toml.Marshal(map[string]any{"v": v})
		return "`" + strings.TrimSpace(strings.TrimPrefix(string(b), "v = ")) + "`"
	}
}

// DefaultConfig writes no default of its own: every value that is not
// empty or a switch is the constant of the package that uses the setting,
// so a default changed there is the node's default too.
func TestDefaultConfigTakesEachDefaultFromItsPackage(t *testing.T) {
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, "config.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var lit *ast.CompositeLit
	for _, d := range file.Decls {
		if fn, ok := d.(*ast.FuncDecl); ok && fn.Name.Name == "DefaultConfig" {
			ast.Inspect(fn, func(n ast.Node) bool {
				if c, ok := n.(*ast.CompositeLit); ok && lit == nil {
					lit = c
				}
				return lit == nil
			})
		}
	}
	if lit == nil {
		t.Fatal("no composite literal in DefaultConfig")
	}
	for _, e := range lit.Elts {
		kv := e.(*ast.KeyValueExpr)
		field := kv.Key.(*ast.Ident).Name
		if c, ok := kv.Value.(*ast.CompositeLit); ok && len(c.Elts) == 0 {
			continue // empty list
		}
		if id, ok := kv.Value.(*ast.Ident); ok && (id.Name == "true" || id.Name == "false") {
			continue
		}
		fromPackage := false
		ast.Inspect(kv.Value, func(n ast.Node) bool {
			if sel, ok := n.(*ast.SelectorExpr); ok && strings.HasPrefix(sel.Sel.Name, "Default") {
				fromPackage = true
			}
			if b, ok := n.(*ast.BasicLit); ok && b.Kind != token.STRING {
				t.Errorf("DefaultConfig writes %s's default as %s: use the constant of the package that uses it", field, b.Value)
			}
			return true
		})
		if !fromPackage {
			t.Errorf("DefaultConfig's %s is not a package's Default constant", field)
		}
	}
}
