// Command millengine is a mill (Nine Men's Morris and variants) engine that
// speaks UCI on stdin/stdout, with perft and bench subcommands for scripts.
package main

import (
	"fmt"
	"os"
)

func main() {
	if len(os.Args) > 1 && os.Args[1] == "perft" {
		os.Exit(runPerft(os.Args[2:], os.Stdout, os.Stderr))
	}
	fmt.Fprintln(os.Stderr, "millengine: only 'perft' is wired up yet")
	os.Exit(2)
}
