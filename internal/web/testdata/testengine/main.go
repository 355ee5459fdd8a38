// Command testengine is a tiny stand-in engine for the bridge's tests. It
// answers uci (its id name carries its process id) and isready, echoes every
// other line as "info string got <line>", and can be told to misbehave: exit
// with status 3 when it reads a given command, or exit with status 4 at once.
package main

import (
	"bufio"
	"fmt"
	"os"
	"strings"
)

func main() {
	exitOn := ""
	for i, a := range os.Args[1:] {
		switch {
		case a == "--die-at-start":
			fmt.Fprintln(os.Stderr, "testengine: dying at start on purpose")
			os.Exit(4)
		case a == "--exit-on" && i+2 < len(os.Args):
			exitOn = os.Args[i+2]
		}
	}
	out := bufio.NewWriter(os.Stdout)
	sc := bufio.NewScanner(os.Stdin)
	sc.Buffer(make([]byte, 1<<16), 1<<22)
	for sc.Scan() {
		line := sc.Text()
		f := strings.Fields(line)
		cmd := ""
		if len(f) > 0 {
			cmd = f[0]
		}
		switch {
		case cmd != "" && cmd == exitOn:
			out.Flush()
			fmt.Fprintf(os.Stderr, "testengine: exiting on %q on purpose\n", cmd)
			os.Exit(3)
		case cmd == "uci":
			fmt.Fprintf(out, "id name testengine pid %d\nuciok\n", os.Getpid())
		case cmd == "isready":
			fmt.Fprintln(out, "readyok")
		case cmd == "quit":
			out.Flush()
			return
		default:
			fmt.Fprintf(out, "info string got %s\n", line)
		}
		out.Flush()
	}
}
