package main

import (
	"fmt"
	"runtime"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/millengine/millengine/internal/book"
	"github.com/millengine/millengine/internal/egtb"
	"github.com/millengine/millengine/internal/rules"
	"github.com/millengine/millengine/internal/uci"
)

const bookUsage = `Usage: millengine book <command> [flags]

The opening book, searched by the engine itself: for each position of the
first placing plies, the best actions with their scores and the depth searched.

Commands:
  build    search the book's positions:  book build [--plies N] [--depth D|--movetime MS] [--out FILE]
  prove    prove the values of a book's first plies:  book prove --plies N [--dir D] FILE
  stats    positions, plies and depths of a book:  book stats [FILE]
  pack     write a book's binary form, which the engine reads at once:  book pack IN OUT
  check    the proven values against the tables of the whole game:  book check [--dir D] [FILE]

Run "millengine book <command> --help" for a command's flags.
`

// bookCommands are the subcommands of book.
var bookCommands = map[string]func(e *env, args []string) int{"build": bookBuild, "prove": bookProve, "stats": bookStats, "pack": bookPack, "check": bookCheck}

// runBook implements 'millengine book …'.
func runBook(e *env, args []string) int {
	if len(args) > 0 && (args[0] == "help" || args[0] == "--help" || args[0] == "-h") {
		if len(args) > 1 && bookCommands[args[1]] != nil {
			return bookCommands[args[1]](e, []string{"--help"})
		}
		fmt.Fprint(e.stdout, bookUsage)
		return 0
	}
	if len(args) == 0 {
		return e.usageError("book", "want a command: build, prove, stats, pack or check")
	}
	run := bookCommands[args[0]]
	if run == nil {
		return e.usageError("book", fmt.Sprintf("unknown command %q (want build, prove, stats, pack or check)", args[0]))
	}
	return run(e, args[1:])
}

func bookBuild(e *env, args []string) int {
	fs := e.subFlags("book build", "book build [--plies N] [--depth D|--movetime MS] [--out FILE] [flags]",
		"Searches every position where the engine is to move in the first N actions, for either\n"+
			"colour, when it plays its book actions (those within --variety of the best) and the\n"+
			"opponent plays anything; symmetric positions are searched once. Each position is\n"+
			"appended to FILE when done: an interrupted build (Ctrl-C) resumes with the same command.\n"+
			"Progress on stderr, a summary on stdout.")
	fs.SortFlags = false
	plies := fs.Int("plies", book.DefaultPlies, "positions after fewer actions than this are searched")
	depth := fs.Int("depth", book.DefaultDepth, "search depth per position")
	movetime := fs.Int("movetime", 0, "search time per position in ms, instead of --depth")
	out := fs.StringP("out", "o", "nine-mens-morris.book", "the book file (resumed if it exists)")
	actions := fs.Int("actions", book.DefaultActions, "actions kept per position (the search's MultiPV)")
	variety := fs.Int("variety", book.DefaultVariety, "the engine's actions followed: within this many centipawns of the best")
	workers := fs.Int("workers", runtime.GOMAXPROCS(0), "positions searched at once (one thread each)")
	hash := fs.Int("hash", 64, "transposition table per worker (MB)")
	var variant string
	fs.StringVarP(&variant, "variant", "v", e.g.variant, "rule preset: "+strings.Join(rules.PresetKeys(), ", "))
	if code, ok := e.parse(fs, args, false); !ok {
		return code
	}
	if fs.Changed("movetime") && fs.Changed("depth") {
		return e.usageError("book build", "--depth and --movetime are exclusive")
	}
	if fs.Changed("movetime") {
		*depth = 0
	}
	for _, err := range []error{
		checkRange("--plies", *plies, 1, 40),
		checkRange("--depth", *depth, 0, 64),
		checkRange("--movetime", *movetime, 0, 3_600_000),
		checkRange("--actions", *actions, 1, 24),
		checkRange("--variety", *variety, 0, 1000),
		checkRange("--workers", *workers, 1, uci.DefaultMaxThreads),
		checkRange("--hash", *hash, 1, uci.DefaultMaxHashMB),
	} {
		if err != nil {
			return e.usageError("book build", err.Error())
		}
	}
	if fs.Changed("movetime") && *movetime < 1 {
		return e.usageError("book build", "--movetime must be at least 1")
	}
	r, err := variantRules(variant)
	if err != nil {
		return e.usageError("book build", err.Error())
	}
	preset, _ := rules.PresetByName(variant)
	cfg := book.BuildConfig{Rules: r, Preset: preset.Key, Plies: *plies, Depth: *depth,
		MoveTime: time.Duration(*movetime) * time.Millisecond, Actions: *actions, Variety: *variety,
		Workers: *workers, HashMB: *hash, Out: *out}
	if err := book.RunBuild(e.ctx, e.stdout, e.stderr, cfg); err != nil {
		return e.bookFailed(err) // Build's errors say "book build: …" themselves
	}
	return 0
}

// bookFailed reports the error of a book command, which names the command
// itself, and returns the exit code: 130 when a signal stopped the work.
func (e *env) bookFailed(err error) int {
	fmt.Fprintln(e.stderr, err)
	if e.ctx.Err() != nil {
		return 130
	}
	return 1
}

func bookProve(e *env, args []string) int {
	fs := e.subFlags("book prove", "book prove [--plies N] [--dir D] [--tt-file F] FILE",
		"Proves the value of each position of the book FILE after fewer than N actions, down to the\n"+
			"endgame tables of the whole moving phase (as millengine solve), and which of its actions\n"+
			"keep that value; writes them into FILE (the last field of its line) every minute and when\n"+
			"it ends or is interrupted (SIGINT, SIGTERM), so that a stopped run goes on with the same\n"+
			"command. In play the engine then picks only actions that keep a position's proven value.\n"+
			"Progress on stderr, each position on stdout.")
	fs.SortFlags = false
	plies := fs.Int("plies", 3, "positions after fewer actions than this are proven")
	dir := fs.String("dir", e.g.egtbPath, "endgame table directory (the whole moving phase)")
	ttMB := fs.Int("tt-mb", 2048, "the proofs' transposition table in MB")
	ttFile := fs.String("tt-file", "", "keep the proofs' table in this file between runs")
	threads := fs.IntP("threads", "t", 2, "goroutines (a position's actions are shared out among them)")
	if code, ok := e.parse(fs, args, true); !ok {
		return code
	}
	if fs.NArg() != 1 {
		return e.usageError("book prove", "want one book FILE")
	}
	for _, err := range []error{checkRange("--plies", *plies, 1, 40), checkRange("--tt-mb", *ttMB, 1, 1<<20), checkRange("--threads", *threads, 1, 256)} {
		if err != nil {
			return e.usageError("book prove", err.Error())
		}
	}
	path := fs.Arg(0)
	b, err := book.Open(path)
	if err == nil && b.Binary() {
		err = fmt.Errorf("%s is a book's binary form (book pack): prove its text, then pack it again", path)
	}
	if err != nil {
		fmt.Fprintf(e.stderr, "book prove: %v\n", err)
		return 1
	}
	tb, err := egtb.Open(*dir, &b.Rules)
	if err != nil {
		fmt.Fprintf(e.stderr, "book prove: %v\n", err)
		return 1
	}
	defer tb.Close()
	o := book.ProveOptions{Plies: *plies, TableMB: *ttMB, TableFile: *ttFile, Threads: *threads}
	if err := book.RunProve(e.ctx, e.stdout, e.stderr, b, path, tb, o); err != nil {
		return e.bookFailed(err)
	}
	return 0
}

func bookStats(e *env, args []string) int {
	fs := e.subFlags("book stats", "book stats [FILE]",
		"Prints the positions of a book (the shipped one without FILE) by ply, with the depths searched,\n"+
			"the number of actions kept and how many positions have a proven value (book prove).")
	if code, ok := e.parse(fs, args, true); !ok {
		return code
	}
	b, name, code := e.bookArg(fs, "book stats")
	if b == nil {
		return code
	}
	if err := book.WriteStats(e.stdout, name, b); err != nil {
		fmt.Fprintf(e.stderr, "book stats: %v\n", err)
		return 1
	}
	return 0
}

// bookArg opens the book a command names (FILE), or the shipped one
// without; it returns nil and the exit code when it cannot.
func (e *env) bookArg(fs *pflag.FlagSet, cmd string) (*book.Book, string, int) {
	if fs.NArg() > 1 {
		return nil, "", e.usageError(cmd, fmt.Sprintf("unexpected argument %q", fs.Arg(1)))
	}
	var (
		b   *book.Book
		err error
	)
	name := "the shipped book"
	if fs.NArg() == 1 {
		name = fs.Arg(0)
		b, err = book.Open(name)
	} else {
		b, err = book.Default()
	}
	if err != nil {
		fmt.Fprintf(e.stderr, "%s: %v\n", cmd, err)
		return nil, "", 1
	}
	return b, name, 0
}

func bookCheck(e *env, args []string) int {
	fs := e.subFlags("book check", "book check [--dir D] [FILE]",
		"Compares every proven position of a book (the shipped one without FILE) with the endgame\n"+
			"tables in --dir: the value must be the tables' and the actions that keep it the tables'.\n"+
			"Prints the counts (proven, compared, equal, not in the tables) and the first differences;\n"+
			"exits 1 if any position differs.")
	dir := fs.String("dir", egtb.DefaultDir(), "table directory (the whole game: egtb build --game)")
	if code, ok := e.parse(fs, args, true); !ok {
		return code
	}
	b, name, code := e.bookArg(fs, "book check")
	if b == nil {
		return code
	}
	tb, err := egtb.Open(*dir, &b.Rules)
	if err != nil {
		fmt.Fprintf(e.stderr, "book check: %v\n", err)
		return 1
	}
	defer tb.Close()
	if err := book.RunCheck(e.stdout, e.stderr, name, *dir, b, tb); err != nil {
		return 1 // the report says what
	}
	return 0
}

func bookPack(e *env, args []string) int {
	fs := e.subFlags("book pack", "book pack IN OUT",
		"Writes the binary form of the book IN (a book file) to OUT: sorted keys and packed records\n"+
			"that the engine probes in place, with nothing to parse at start-up (Book option or --book\n"+
			"OUT). The text stays the source of truth: book build and book prove write it. make\n"+
			"book-pack writes the shipped book's binary form, internal/book/"+book.BuiltinBinaryFile+".")
	if code, ok := e.parse(fs, args, true); !ok {
		return code
	}
	if fs.NArg() != 2 {
		return e.usageError("book pack", "want a book file IN and the file OUT")
	}
	in, out := fs.Arg(0), fs.Arg(1)
	b, err := book.Open(in)
	if err == nil {
		err = b.SaveBinary(out)
	}
	if err != nil {
		fmt.Fprintf(e.stderr, "book pack: %v\n", err)
		return 1
	}
	fmt.Fprintf(e.stdout, "%s: %d positions (%s) in %s\n", out, b.Len(), b.Preset, in)
	return 0
}
