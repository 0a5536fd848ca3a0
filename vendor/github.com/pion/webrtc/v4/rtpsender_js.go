// SPDX-FileCopyrightText: 2023 The Pion community <https://pion.ly>
// SPDX-License-Identifier: MIT

//go:build js && wasm
// +build js,wasm

package webrtc

import "syscall/js"

// RTPSender allows an application to control how a given Track is encoded and transmitted to a remote peer
type RTPSender struct {
	// Pointer to the underlying JavaScript RTCRTPSender object.
	underlying js.Value
}

// JSValue returns the underlying RTCRtpSender
func (s *RTPSender) JSValue() js.Value {
	return s.underlying
}
