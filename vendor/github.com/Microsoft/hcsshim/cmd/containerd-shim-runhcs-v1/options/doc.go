package options
