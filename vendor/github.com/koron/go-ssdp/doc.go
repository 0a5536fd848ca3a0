/*
Package ssdp provides SSDP advertiser or so.
*/
package ssdp
