package book

import (
	_ "embed" // the shipped book
	"fmt"
	"sync"
)

// Builtin is the Book option's value for the book shipped inside the
// binary (data/nine-mens-morris.book, built with millengine book build).
const Builtin = "<builtin>"

// BuiltinFile and BuiltinBinaryFile are the shipped book's text, the source
// of truth that book build and book prove write, and its binary form, which
// the binary embeds (relative to this package's directory). make book-pack
// or go generate writes the binary form from the text; a test fails when it
// is stale.
const (
	BuiltinFile       = "data/nine-mens-morris.book"
	BuiltinBinaryFile = "data/nine-mens-morris.book.bin"
)

//go:generate go run ../../cmd/millengine book pack data/nine-mens-morris.book data/nine-mens-morris.book.bin

// builtinBinary is the shipped book in its binary form, read in place.
//
//go:embed data/nine-mens-morris.book.bin
var builtinBinary string

var (
	builtinOnce sync.Once
	builtinBook *Book
	builtinErr  error
)

// Default returns the shipped book of Nine Men's Morris. It is read in
// place from the binary, in microseconds: only its header is read, and a
// probe decodes the one entry it finds. The book is shared: it must not be
// changed (Put, Prove).
func Default() (*Book, error) {
	builtinOnce.Do(func() {
		builtinBook, builtinErr = openPacked(builtinBinary)
		if builtinErr != nil {
			builtinErr = fmt.Errorf("the shipped book: %w", builtinErr)
		}
	})
	return builtinBook, builtinErr
}
