// Package unstable provides APIs that do not meet the backward compatibility
// guarantees yet.
package unstable
