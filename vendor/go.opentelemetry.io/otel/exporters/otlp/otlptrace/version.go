// Copyright The OpenTelemetry Authors
// SPDX-License-Identifier: Apache-2.0

package otlptrace

// Version is the current release version of the OpenTelemetry OTLP trace exporter in use.
func Version() string {
	return "1.46.0"
}
