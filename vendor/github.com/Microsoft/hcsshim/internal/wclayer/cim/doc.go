// This package provides utilities for working with container image layers in the cim format
// via the wclayer APIs.
package cim
