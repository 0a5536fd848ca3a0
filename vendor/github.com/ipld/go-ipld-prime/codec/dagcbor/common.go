package dagcbor

const linkTag = 42
