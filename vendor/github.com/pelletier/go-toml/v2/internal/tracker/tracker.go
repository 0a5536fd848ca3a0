// Package tracker provides functions for keeping track of AST nodes.
package tracker
