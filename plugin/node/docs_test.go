package node

import (
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
