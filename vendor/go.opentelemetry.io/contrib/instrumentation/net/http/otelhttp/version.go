// Copyright The OpenTelemetry Authors
// SPDX-License-Identifier: Apache-2.0

package otelhttp

// Version is the current release version of the otelhttp instrumentation.
const Version = "0.71.0"
