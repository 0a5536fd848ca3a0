package oci

import (
	"strconv"
	"strings"
)

// ValidRange accepts exactly one range, bytes=N- or bytes=N-M, that starts
// inside a blob of size bytes: what containerd and OCI clients send.
func ValidRange(h string, size int64) bool {
	spec, ok := strings.CutPrefix(h, "bytes=")
	if !ok {
		return false
	}
	first, last, ok := strings.Cut(spec, "-")
	if !ok || first == "" || len(first) > 19 || len(last) > 19 {
		return false
	}
	start, err := strconv.ParseUint(first, 10, 63)
	if err != nil || int64(start) >= size {
		return false
	}
	if last == "" {
		return true
	}
	end, err := strconv.ParseUint(last, 10, 63)
	return err == nil && end >= start
}
