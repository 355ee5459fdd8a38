// Command benchpair times two builds of millengine against each other, the
// way every change to a hot path is measured here: perft 6 and bench, run
// in pairs whose order alternates, so that a machine's drift and load fall
// on both builds alike. It prints each build's median time, the paired
// ratios (new/previous: median and range) and both bench signatures.
//
// The previous build is a git revision, built into a temporary worktree:
// by default HEAD when the working tree has changes (the change against its
// base), HEAD~1 otherwise (the last commit against its parent). make bench
// runs it.
package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/spf13/pflag"

	"github.com/millengine/millengine/scripts/internal/paired"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	fs := pflag.NewFlagSet("benchpair", pflag.ContinueOnError)
	fs.SetOutput(stderr)
	newBin := fs.String("new", "bin/millengine", "the new build")
	prevRef := fs.String("prev", "", "git revision of the previous build (default: HEAD if the tree has changes, else HEAD~1)")
	prevBin := fs.String("prev-bin", "", "an already built previous binary (instead of --prev)")
	pairs := fs.Int("pairs", 5, "pairs of runs of each measurement (1-100)")
	benchDepth := fs.Int("bench-depth", 0, "bench depth (0: bench's default)")
	if code, ok := paired.ParseFlags(fs, args, stderr); !ok {
		return code
	}
	if *pairs < 1 || *pairs > 100 {
		fmt.Fprintf(stderr, "benchpair: --pairs %d: want 1-100\n", *pairs)
		return 2
	}
	prev := *prevBin
	if prev == "" {
		ref := *prevRef
		if ref == "" {
			ref = "HEAD~1"
			if out, err := exec.Command("git", "status", "--porcelain", "--untracked-files=no").Output(); err == nil && len(bytes.TrimSpace(out)) > 0 {
				ref = "HEAD"
			}
		}
		dir, err := os.MkdirTemp("", "benchpair-")
		if err != nil {
			fmt.Fprintf(stderr, "benchpair: %v\n", err)
			return 1
		}
		defer os.RemoveAll(dir)
		if prev, err = buildRef(ref, dir, stderr); err != nil {
			fmt.Fprintf(stderr, "benchpair: %v\n", err)
			return 1
		}
		fmt.Fprintf(stdout, "previous: %s (%s)\n", ref, revision(ref))
	}
	fmt.Fprintf(stdout, "new:      %s\n", *newBin)
	benchArgs := []string{"bench"}
	if *benchDepth > 0 {
		benchArgs = append(benchArgs, "--depth", strconv.Itoa(*benchDepth))
	}
	for _, m := range []struct {
		name string
		args []string
	}{{"perft 6", []string{"perft", "--depth", "6"}}, {"bench", benchArgs}} {
		var tp, tn []float64
		var np, nn string
		for i := range *pairs {
			order := []string{prev, *newBin}
			if i%2 == 1 {
				order = []string{*newBin, prev}
			}
			for _, bin := range order {
				ms, nodes, err := timeRun(bin, m.args)
				if err != nil {
					fmt.Fprintf(stderr, "benchpair: %s %s: %v\n", bin, strings.Join(m.args, " "), err)
					return 1
				}
				if bin == prev {
					tp, np = append(tp, ms), nodes
				} else {
					tn, nn = append(tn, ms), nodes
				}
			}
		}
		fmt.Fprintf(stdout, "%-8s previous %.0f ms, new %.0f ms (medians of %d); %s; nodes %s / %s%s\n",
			m.name, paired.Median(tp), paired.Median(tn), *pairs, paired.Ratios(tp, tn), np, nn, changed(np, nn))
	}
	return 0
}

// changed marks a node count that differs between the builds.
func changed(a, b string) string {
	if a != b {
		return " (CHANGED)"
	}
	return ""
}

// buildRef builds millengine at ref into dir through a temporary worktree.
func buildRef(ref, dir string, stderr io.Writer) (string, error) {
	wt := filepath.Join(dir, "src")
	if out, err := exec.Command("git", "worktree", "add", "--detach", wt, ref).CombinedOutput(); err != nil {
		return "", fmt.Errorf("git worktree add %s: %v\n%s", ref, err, out)
	}
	defer exec.Command("git", "worktree", "remove", "--force", wt).Run()
	bin := filepath.Join(dir, "millengine-prev")
	cmd := exec.Command("go", "build", "-o", bin, "./cmd/millengine")
	cmd.Dir, cmd.Stderr = wt, stderr
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("go build at %s: %v", ref, err)
	}
	return bin, nil
}

// revision returns ref's short hash and subject.
func revision(ref string) string {
	out, err := exec.Command("git", "log", "-1", "--format=%h %s", ref).Output()
	if err != nil {
		return ref
	}
	return strings.TrimSpace(string(out))
}

var (
	timeRe  = regexp.MustCompile(`(?m)^Time: (\d+)`)
	nodesRe = regexp.MustCompile(`(?m)^Nodes searched: (\d+)`)
)

// timeRun runs bin with args and returns the time and node count it prints.
func timeRun(bin string, args []string) (float64, string, error) {
	out, err := exec.Command(bin, args...).Output()
	if err != nil {
		return 0, "", err
	}
	t, n := timeRe.FindSubmatch(out), nodesRe.FindSubmatch(out)
	if t == nil || n == nil {
		return 0, "", fmt.Errorf("no Time/Nodes searched lines in %q", out)
	}
	ms, _ := strconv.ParseFloat(string(t[1]), 64)
	return ms, string(n[1]), nil
}
