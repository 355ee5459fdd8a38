package book

import (
	_ "embed" // the shipped book
	"strings"
	"sync"
)

// Builtin is the Book option's value for the book shipped inside the
// binary (data/nine-mens-morris.book, built with millengine book build).
const Builtin = "<builtin>"

//go:embed data/nine-mens-morris.book
var builtinText string

var (
	builtinOnce sync.Once
	builtinBook *Book
	builtinErr  error
)

// Default returns the shipped book of Nine Men's Morris, read once.
func Default() (*Book, error) {
	builtinOnce.Do(func() {
		builtinBook, builtinErr = Read(strings.NewReader(builtinText), false)
	})
	return builtinBook, builtinErr
}
