// Created by cgo -godefs - DO NOT EDIT
// cgo -godefs defs_netbsd.go

package tcp

const (
	sysFIONREAD  = 0x4004667f
	sysFIONWRITE = 0x40046679
	sysFIONSPACE = 0x40046678
)
