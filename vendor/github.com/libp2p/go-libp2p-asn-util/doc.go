// Package asnutil provides a mapping lookup for IPv6 ASNs.
package asnutil

//go:generate go run ./generate/
