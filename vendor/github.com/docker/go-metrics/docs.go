// Package metrics is small wrapper around the prometheus go client to help
// enforce convention and best practices for metrics collection.

package metrics
