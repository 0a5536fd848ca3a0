// Copyright The OpenTelemetry Authors
// SPDX-License-Identifier: Apache-2.0

package otelgrpc

// Version is the current release version of the gRPC instrumentation.
const Version = "0.71.0"
