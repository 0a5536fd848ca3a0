package oci

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestSplitPathFindsNameKindAndReference(t *testing.T) {
	const dgst = "sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
	for _, tc := range []struct {
		path, name, kind, ref string
	}{
		{"/v2/app/blobs/" + dgst, "app", Blobs, dgst},
		{"/v2/library/app/manifests/latest", "library/app", Manifests, "latest"},
		// The last of the two words decides: either may be a repository component.
		{"/v2/a/blobs/b/manifests/" + dgst, "a/blobs/b", Manifests, dgst},
		{"/v2/a/blobs/b/blobs/" + dgst, "a/blobs/b", Blobs, dgst},
		{"/v2/a/manifests/b/blobs/" + dgst, "a/manifests/b", Blobs, dgst},
		{"/v2/a/manifests/b/manifests/" + dgst, "a/manifests/b", Manifests, dgst},
		{"/v2/blobs/manifests/v1", "blobs", Manifests, "v1"},
		{"/v2/manifests/blobs/" + dgst, "manifests", Blobs, dgst},
		{"/v2/app/swarm/" + dgst, "app", Swarm, dgst},
		{"/v2/a/swarm/b/blobs/" + dgst, "a/swarm/b", Blobs, dgst},
	} {
		name, kind, ref, ok := SplitPath(tc.path)
		if !ok || name != tc.name || kind != tc.kind || ref != tc.ref {
			t.Errorf("SplitPath(%q) = %q %q %q %v, want %q %q %q", tc.path, name, kind, ref, ok, tc.name, tc.kind, tc.ref)
		}
	}
}

func TestSplitPathRejectsWhatIsNoContentEndpoint(t *testing.T) {
	for _, p := range []string{
		"",
		"/v2/",
		"/v2/app/tags/list",
		"/v2/app/blobs/",
		"/v2/app/manifests/",
		"/v2/app/blobs/uploads/",
		"/v2/app/blobs/../../../etc/passwd",
		"/v2/app/blobs/a/manifests/",
		"/v2//blobs/x",
		"/v2/blobs/x",
		"/v1/app/blobs/x",
		"/etc/passwd",
	} {
		if name, kind, ref, ok := SplitPath(p); ok {
			t.Errorf("SplitPath(%q) accepted: %q %q %q", p, name, kind, ref)
		}
	}
}

func TestPathIsWhatSplitPathReads(t *testing.T) {
	if got, want := Path("library/app", Manifests, "latest", ""), "/v2/library/app/manifests/latest"; got != want {
		t.Fatalf("Path without a registry = %q, want %q", got, want)
	}
	got := Path("a/blobs/b", Blobs, "sha256:00", "registry.example:5000")
	if want := "/v2/a/blobs/b/blobs/sha256:00?ns=registry.example%3A5000"; got != want {
		t.Fatalf("Path with a registry = %q, want %q", got, want)
	}
	req := httptest.NewRequest(http.MethodGet, got, nil)
	name, kind, ref, ok := SplitPath(req.URL.Path)
	if !ok || name != "a/blobs/b" || kind != Blobs || ref != "sha256:00" || req.URL.Query().Get("ns") != "registry.example:5000" {
		t.Fatalf("read back as %q %q %q %v ns=%q", name, kind, ref, ok, req.URL.Query().Get("ns"))
	}
}

func TestRepositoryTagAndRegistryHostGrammar(t *testing.T) {
	for name, want := range map[string]bool{
		"app":                        true,
		"library/app":                true,
		"a.b_c__d-e--f/g":            true,
		"a/blobs/b":                  true,
		strings.Repeat("a", 255):     true,
		strings.Repeat("a", 256):     false,
		"":                           false,
		"App":                        false,
		"a//b":                       false,
		"a/../b":                     false,
		"-a":                         false,
		"a_":                         false,
		"a___b":                      false,
		"a/":                         false,
		"/a":                         false,
		"a b":                        false,
		"sha256:" + "00000000000000": false,
	} {
		if got := ValidRepository(name); got != want {
			t.Errorf("ValidRepository(%q) = %v", name, got)
		}
	}
	for tag, want := range map[string]bool{
		"latest":                  true,
		"v1.2.3-rc_1":             true,
		"_x":                      true,
		strings.Repeat("t", 128):  true,
		strings.Repeat("t", 129):  false,
		"":                        false,
		".hidden":                 false,
		"-x":                      false,
		"sha256:0123456789abcdef": false,
		"a/b":                     false,
	} {
		if got := ValidTag(tag); got != want {
			t.Errorf("ValidTag(%q) = %v", tag, got)
		}
	}
	for host, want := range map[string]bool{
		"docker.io":               true,
		"registry.example:5000":   true,
		"localhost":               true,
		"10.0.0.1:443":            true,
		"":                        false,
		"-registry.example":       false,
		"registry.example.":       false,
		"registry.example:":       false,
		"registry.example:123456": false,
		"registry.example/path":   false,
		"user@registry.example":   false,
	} {
		if got := ValidRegistryHost(host); got != want {
			t.Errorf("ValidRegistryHost(%q) = %v", host, got)
		}
	}
}

func TestValidRangeAcceptsOneRangeStartingInsideTheBlob(t *testing.T) {
	for h, want := range map[string]bool{
		"bytes=0-":                    true,
		"bytes=3-5":                   true,
		"bytes=9-":                    true,
		"bytes=9-100":                 true,
		"bytes=10-":                   false,
		"bytes=-3":                    false,
		"bytes=0-1,3-4":               false,
		"bytes=5-2":                   false,
		"bytes=+1-":                   false,
		"bytes=1":                     false,
		"items=0-":                    false,
		"":                            false,
		"bytes=99999999999999999999-": false,
	} {
		if got := ValidRange(h, 10); got != want {
			t.Errorf("ValidRange(%q, 10) = %v", h, got)
		}
	}
}

func TestWriteErrorAnswersWithTheDistributionErrorBody(t *testing.T) {
	rec := httptest.NewRecorder()
	WriteError(rec, http.StatusNotFound, CodeBlobUnknown, "no peer holds this blob")
	if rec.Code != http.StatusNotFound || rec.Header().Get("Content-Type") != "application/json" {
		t.Fatalf("status %d, Content-Type %q", rec.Code, rec.Header().Get("Content-Type"))
	}
	var body struct {
		Errors []struct{ Code, Message string }
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &body); err != nil {
		t.Fatal(err)
	}
	if len(body.Errors) != 1 || body.Errors[0].Code != "BLOB_UNKNOWN" || body.Errors[0].Message != "no peer holds this blob" {
		t.Fatalf("body %s", rec.Body.String())
	}
}
