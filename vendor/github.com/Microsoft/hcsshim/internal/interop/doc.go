package interop
