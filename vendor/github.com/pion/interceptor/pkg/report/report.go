// SPDX-FileCopyrightText: 2023 The Pion community <https://pion.ly>
// SPDX-License-Identifier: MIT

// Package report provides interceptors to implement sending sender and receiver reports.
package report
