package web

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/remote"
)

// The browser tests share one headless chromium, started by the first test
// that wants it (browserAllocator). Each test has its own browser context
// in it (its own cookies, storage, cache and downloads), its own window and
// its own server, so a test runs the same alone as among the others, and
// they run in parallel (browserTest).
//
// The browser is not this process's child but a supervisor's: this test
// binary run again with supervisorEnv set (TestMain hands it to
// superviseBrowser). The supervisor starts chromium with a fresh profile,
// tells this process where the browser listens, and waits for its stdin
// to close, which happens when this process ends, however it ends (a test
// binary cannot run code after its tests: testkit.Main exits). Then it
// ends the browser and its helpers and removes the profile. A browser this
// process started itself would be killed at its exit (chromedp asks the
// kernel for that), and its profile left behind in the temporary directory.

// supervisorEnv, in the environment, makes the test binary the browser's
// supervisor instead of running tests.
const supervisorEnv = "MILLWEB_BROWSER_SUPERVISOR"

// chromeFlags are the browser's command-line flags, besides the profile and
// the DevTools port the supervisor adds.
var chromeFlags = []string{
	"--headless",
	"--no-sandbox",
	"--disable-gpu",
	"--disable-quic",
	"--no-first-run",
	"--no-default-browser-check",
	"--disable-background-networking",
	"--disable-component-update",
	"--disable-sync",
	"--disable-dev-shm-usage",
	"--disable-extensions",
	// Windows of the tests may exist side by side for a moment: none is
	// slowed down for being in the background.
	"--disable-background-timer-throttling",
	"--disable-backgrounding-occluded-windows",
	"--disable-renderer-backgrounding",
	"--window-size=1280,860",
}

// chromePath returns the browser the tests drive: $CHROME_PATH or
// /usr/bin/chromium. Without it the test skips, or fails when
// MILLWEB_REQUIRE_BROWSER is set (make test sets it).
func chromePath(t *testing.T) string {
	t.Helper()
	p := os.Getenv("CHROME_PATH")
	if p == "" {
		p = "/usr/bin/chromium"
	}
	if _, err := os.Stat(p); err != nil {
		if os.Getenv("MILLWEB_REQUIRE_BROWSER") != "" {
			t.Fatalf("no browser at %s (%v): make test needs chromium (set CHROME_PATH, or let make install it)", p, err)
		}
		t.Skipf("no browser at %s (set CHROME_PATH): browser tests skipped", p)
	}
	return p
}

// browserSlots bounds how many browser tests run at once (go test runs
// parallel tests up to -parallel, GOMAXPROCS by default): each has a
// window, a renderer and an engine.
var browserSlots = make(chan struct{}, 4)

// browserTest starts a browser test: it runs in parallel with the other
// browser tests (they share nothing but the browser) once the package's
// other tests are done, in one of browserSlots. It skips without a
// browser (see chromePath).
func browserTest(t *testing.T) {
	t.Helper()
	t.Parallel()
	chromePath(t)
	browserSlots <- struct{}{}
	t.Cleanup(func() { <-browserSlots })
}

// shared is the browser the tests share, once started.
var shared struct {
	mu    sync.Mutex
	alloc context.Context // chromedp's allocator of connections to the browser
	stop  context.CancelFunc
	stdin io.WriteCloser // the supervisor's stdin; kept open while the browser is wanted
	dead  chan struct{}  // closed when the supervisor has exited
}

// browserAllocator returns the allocator of connections to the shared
// browser, starting the browser (through its supervisor) if none runs. A
// browser that has died is started again.
func browserAllocator(t *testing.T) context.Context {
	t.Helper()
	path := chromePath(t)
	shared.mu.Lock()
	defer shared.mu.Unlock()
	if shared.alloc != nil {
		select {
		case <-shared.dead:
			t.Log("the shared browser has gone: starting another")
			shared.stop()
			shared.stdin.Close()
			shared.alloc = nil
		default:
			return shared.alloc
		}
	}
	start := time.Now()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, append([]string{path}, chromeFlags...)...)
	cmd.Env = append(os.Environ(), supervisorEnv+"=1")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatalf("starting the browser's supervisor: %v", err)
	}
	dead := make(chan struct{})
	first := make(chan string, 1)
	go func() {
		line, _ := bufio.NewReader(stdout).ReadString('\n')
		first <- strings.TrimSpace(line)
		_, _ = io.Copy(io.Discard, stdout)
		_ = cmd.Wait()
		close(dead)
	}()
	var url string
	select {
	case url = <-first:
	case <-time.After(60 * time.Second): // a hang guard
		stdin.Close()
		t.Fatal("the browser's supervisor said nothing in 60 s")
	}
	if !strings.HasPrefix(url, "ws://") {
		stdin.Close()
		if url == "" {
			url = "its supervisor ended without a word"
		}
		t.Fatalf("starting the browser: %s", url)
	}
	alloc, stop := remote.NewAllocator(context.Background(), url, remote.NoModifyURL)
	shared.alloc, shared.stop, shared.stdin, shared.dead = alloc, stop, stdin, dead
	t.Logf("shared browser started in %v", time.Since(start).Round(time.Millisecond))
	return alloc
}

// superviseBrowser runs chromium (args: its path and flags) with a new
// profile, writes the browser's DevTools address on stdout, and when stdin
// closes (the test process has ended) or a signal comes, ends the browser
// and the helpers it started and removes the profile. It returns the exit
// status. It writes nothing after the address: the test process, which
// reads it, may be gone.
func superviseBrowser(args []string) int {
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP)
	// A write to the test process gone fails instead of ending the
	// supervisor before it has cleaned up.
	signal.Ignore(syscall.SIGPIPE)
	fail := func(err error) int {
		fmt.Printf("error: %v\n", err)
		return 1
	}
	if len(args) == 0 {
		return fail(errors.New("no browser to run"))
	}
	profile, err := os.MkdirTemp("", "millweb-chromium-")
	if err != nil {
		return fail(err)
	}
	defer removeProfile(profile)
	r, w, err := os.Pipe()
	if err != nil {
		return fail(err)
	}
	cmd := exec.Command(args[0], append(args[1:], "--user-data-dir="+profile, "--remote-debugging-port=0", "about:blank")...)
	cmd.Env = withoutEnv(os.Environ(), supervisorEnv)
	cmd.Stderr = w
	// Its own process group: a Ctrl-C at the terminal reaches the
	// supervisor, which ends the browser in order.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		return fail(err)
	}
	w.Close()
	exited := make(chan struct{})
	go func() {
		_ = cmd.Wait()
		close(exited)
	}()
	defer endBrowser(cmd, exited, profile)

	// The browser says where it listens on stderr, then is drained.
	addr := make(chan string, 1)
	go func() {
		var tail []string
		sc := bufio.NewScanner(r)
		for sc.Scan() {
			if u, ok := strings.CutPrefix(sc.Text(), "DevTools listening on "); ok {
				addr <- u
				_, _ = io.Copy(io.Discard, r)
				return
			}
			tail = append(tail, sc.Text())
			if len(tail) > 5 {
				tail = tail[1:]
			}
		}
		addr <- "no DevTools address from the browser; it said: " + strings.Join(tail, " | ")
	}()
	gone := make(chan struct{})
	go func() {
		_, _ = io.Copy(io.Discard, os.Stdin)
		close(gone)
	}()
	select {
	case a := <-addr:
		if !strings.HasPrefix(a, "ws://") {
			return fail(errors.New(a))
		}
		fmt.Println(a)
	case <-gone:
		return 0
	case <-sig:
		return 0
	case <-time.After(60 * time.Second): // a hang guard
		return fail(errors.New("the browser gave no DevTools address in 60 s"))
	}
	select {
	case <-gone:
	case <-sig:
	case <-exited:
	}
	return 0
}

// endBrowser asks the browser to end (SIGTERM), kills it if it has not
// within 10 s, then kills its helpers: those left in its process group
// and any other process that runs with its profile.
func endBrowser(cmd *exec.Cmd, exited <-chan struct{}, profile string) {
	pid := cmd.Process.Pid
	_ = syscall.Kill(pid, syscall.SIGTERM)
	select {
	case <-exited:
	case <-time.After(10 * time.Second):
		_ = syscall.Kill(pid, syscall.SIGKILL)
		<-exited
	}
	_ = syscall.Kill(-pid, syscall.SIGKILL)
	// A helper can fork as the browser ends: look until three passes find
	// none (at most 2 s).
	deadline := time.Now().Add(2 * time.Second)
	for quiet := 0; quiet < 3 && time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if killProfileUsers(profile) == 0 {
			quiet++
		} else {
			quiet = 0
		}
	}
}

// killProfileUsers kills the processes whose command line names the
// profile as their user data directory (chromium passes it to every
// helper) and returns how many it found.
func killProfileUsers(profile string) int {
	want := "--user-data-dir=" + profile
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return 0
	}
	n := 0
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == os.Getpid() {
			continue
		}
		cmdline, err := os.ReadFile("/proc/" + e.Name() + "/cmdline")
		if err != nil {
			continue
		}
		for _, arg := range strings.Split(string(cmdline), "\x00") {
			if arg == want {
				_ = syscall.Kill(pid, syscall.SIGKILL)
				n++
				break
			}
		}
	}
	return n
}

// removeProfile removes the browser's profile, trying again for a while: a
// helper that was ending can still write in it.
func removeProfile(dir string) {
	for range 50 {
		if os.RemoveAll(dir) == nil {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// withoutEnv returns env without the variable name.
func withoutEnv(env []string, name string) []string {
	var out []string
	for _, kv := range env {
		if !strings.HasPrefix(kv, name+"=") {
			out = append(out, kv)
		}
	}
	return out
}

// newTab opens a tab on url in the shared browser: a browser context of its
// own, closed with its window when the test ends.
func newTab(t *testing.T, url string) *tab {
	t.Helper()
	alloc := browserAllocator(t)
	ctx, cancel := chromedp.NewContext(alloc, chromedp.WithNewBrowserContext())
	t.Cleanup(cancel)
	// The first action opens the window; it lives as long as ctx.
	start := time.Now()
	if err := chromedp.Do(ctx, chromedp.Navigate("about:blank")); err != nil {
		t.Fatalf("opening a tab in the browser: %v", err)
	}
	t.Logf("tab opened in %v", time.Since(start).Round(time.Millisecond))
	return &tab{t: t, ctx: ctx, url: url, shots: artifactDir(t)}
}
