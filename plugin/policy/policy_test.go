package policy

import "testing"

func TestSharingRules(t *testing.T) {
	open, _ := New(nil, nil, nil, nil, ShareUnknownOrigin(true))
	if !open.ContentShared("any", nil) || !open.ImageShared("any", "docker.io/library/x:1") {
		t.Fatal("an empty policy that shares content of unknown origin must share everything")
	}

	p, err := New([]string{"k8s.io", "default"}, []string{"default"}, nil, []string{"secret.example"}, ShareUnknownOrigin(true))
	if err != nil {
		t.Fatal(err)
	}
	src := func(r string) map[string]string {
		return map[string]string{"containerd.io/distribution.source." + r: "team/app"}
	}
	for _, tc := range []struct {
		ns     string
		labels map[string]string
		want   bool
	}{
		{"k8s.io", src("docker.io"), true},
		{"k8s.io", nil, true},                    // unknown origin: no allow-list of registries
		{"default", src("docker.io"), false},     // private namespace wins
		{"other", src("docker.io"), false},       // not a shared namespace
		{"k8s.io", src("secret.example"), false}, // private registry
		{"k8s.io", merge(src("docker.io"), src("secret.example")), false},
	} {
		if got := p.ContentShared(tc.ns, tc.labels); got != tc.want {
			t.Errorf("ContentShared(%s, %v) = %v, want %v", tc.ns, tc.labels, got, tc.want)
		}
	}
	if p.ImageShared("k8s.io", "secret.example/team/app:v1") || !p.ImageShared("k8s.io", "docker.io/library/app:v1") {
		t.Fatal("image registry rules not applied")
	}

	only, _ := New(nil, nil, []string{"registry.example:5000"}, nil, ShareUnknownOrigin(true))
	if only.ContentShared("k8s.io", nil) || only.ContentShared("k8s.io", src("docker.io")) || !only.ContentShared("k8s.io", src("registry.example:5000")) {
		t.Fatal("shared-registry list not applied")
	}
	if _, err := New(nil, nil, []string{"docker.io/library"}, nil); err == nil {
		t.Fatal("registry with a path accepted")
	}
}

func merge(a, b map[string]string) map[string]string {
	out := map[string]string{}
	for k, v := range a {
		out[k] = v
	}
	for k, v := range b {
		out[k] = v
	}
	return out
}

// Built or imported on the node: no registry says it may go anywhere, so
// it stays unless the operator says otherwise.
func TestContentOfUnknownOriginStaysOnTheNodeByDefault(t *testing.T) {
	src := map[string]string{"containerd.io/distribution.source.docker.io": "library/app"}
	def, _ := New(nil, nil, nil, nil)
	if def.ContentShared("k8s.io", nil) || !def.ContentShared("k8s.io", src) || !def.DependsOnOrigin() {
		t.Fatal("by default, content with no source is kept and content from a registry shared")
	}
	opted, _ := New(nil, nil, nil, nil, ShareUnknownOrigin(true))
	if !opted.ContentShared("k8s.io", nil) || opted.DependsOnOrigin() {
		t.Fatal("share_unknown_origin must share content with no source")
	}
}
