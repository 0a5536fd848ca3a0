package safefile
