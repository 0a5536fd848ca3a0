// Copyright The OpenTelemetry Authors
// SPDX-License-Identifier: Apache-2.0

// Package sdk provides the OpenTelemetry default SDK for Go.
package sdk

// Version is the current release version of the OpenTelemetry SDK in use.
func Version() string {
	return "1.46.0"
}
