// SPDX-FileCopyrightText: 2023 The Pion community <https://pion.ly>
// SPDX-License-Identifier: MIT

// Package codecs implements codec specific RTP payloader/depayloaders
package codecs
