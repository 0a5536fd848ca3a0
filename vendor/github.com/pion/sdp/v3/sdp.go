// SPDX-FileCopyrightText: 2026 The Pion community <https://pion.ly>
// SPDX-License-Identifier: MIT

// Package sdp implements Session Description Protocol (SDP)
package sdp
