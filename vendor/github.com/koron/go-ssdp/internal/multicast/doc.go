/*
Package multicast provides utilities for network multicast.
*/
package multicast
