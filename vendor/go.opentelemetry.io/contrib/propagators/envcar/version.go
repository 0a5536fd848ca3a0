// Copyright The OpenTelemetry Authors
// SPDX-License-Identifier: Apache-2.0

package envcar

// Version is the current release version of the envcar propagator.
func Version() string {
	return "0.71.0"
	// This string is updated by the pre_release.sh script during release
}
