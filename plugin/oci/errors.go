package oci

import (
	"encoding/json"
	"net/http"
)

// Error codes, from the OCI distribution spec and the registries that
// containerd talks to.
const (
	CodeBlobUnknown     = "BLOB_UNKNOWN"
	CodeManifestUnknown = "MANIFEST_UNKNOWN"
	CodeNameInvalid     = "NAME_INVALID"
	CodeNameUnknown     = "NAME_UNKNOWN"
	CodeDigestInvalid   = "DIGEST_INVALID"
	CodeUnsupported     = "UNSUPPORTED"
	CodeTooManyRequests = "TOOMANYREQUESTS"
	CodeUnavailable     = "UNAVAILABLE"
	CodeRangeInvalid    = "RANGE_INVALID"
	CodeUnknown         = "UNKNOWN"
	// CodeNotFound answers a path that is no endpoint of the API.
	CodeNotFound = "NOT_FOUND"
)

// WriteError answers with status and the distribution API's error body,
// {"errors":[{"code":code,"message":message}]}.
func WriteError(w http.ResponseWriter, status int, code, message string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	body := map[string]any{"errors": []map[string]string{{"code": code, "message": message}}}
	_ = json.NewEncoder(w).Encode(body) // the client may have gone; nothing to do
}

// UnknownCode is the code for content of kind (Blobs or Manifests) that is
// not there.
func UnknownCode(kind string) string {
	if kind == Manifests {
		return CodeManifestUnknown
	}
	return CodeBlobUnknown
}

// WriteInternalError answers a request whose handler failed unexpectedly.
func WriteInternalError(w http.ResponseWriter) {
	WriteError(w, http.StatusInternalServerError, CodeUnknown, "internal error")
}
