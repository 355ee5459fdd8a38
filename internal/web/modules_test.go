package web

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The page is ES modules (static/*.js): app.js starts it and imports the
// modules of its parts (game.js the controller, board.js, clock.js, …),
// which share uci.js (the engine's protocol) and notation.js (the board's
// notation). Their unit tests (jstest/*.test.mjs) run under Node's test
// runner, without a browser; internal/web/package.json makes the .js files
// modules for Node.

// nodePath returns Node's path. Without Node the test skips, or fails when
// MILLWEB_REQUIRE_NODE is set (make test sets it).
func nodePath(t *testing.T) string {
	t.Helper()
	p, err := exec.LookPath("node")
	if err != nil {
		if os.Getenv("MILLWEB_REQUIRE_NODE") != "" {
			t.Fatalf("no node on the PATH (%v): make test needs Node.js 18 or later (make node installs Debian's nodejs)", err)
		}
		t.Skip("no node on the PATH: the page's module tests skipped")
	}
	return p
}

// TestJSModules runs the modules' unit tests with node --test and fails if
// one fails (or none ran).
func TestJSModules(t *testing.T) {
	node := nodePath(t)
	out, err := exec.Command(node, "--version").Output()
	if err != nil {
		t.Fatalf("%s --version: %v", node, err)
	}
	version := strings.TrimSpace(string(out))
	major, _ := strconv.Atoi(strings.SplitN(strings.TrimPrefix(version, "v"), ".", 2)[0])
	if major < 18 {
		t.Fatalf("node %s has no test runner: the page's module tests need Node.js 18 or later", version)
	}
	files, err := filepath.Glob("jstest/*.test.mjs")
	if err != nil || len(files) == 0 {
		t.Fatalf("no module tests in jstest (%v)", err)
	}
	// A hang guard, far above the second or so the tests take.
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, append([]string{"--test", "--test-reporter=tap"}, files...)...)
	cmd.Env = append(os.Environ(), "NO_COLOR=1")
	start := time.Now()
	out, err = cmd.CombinedOutput()
	elapsed := time.Since(start)
	counts := map[string]int{}
	for _, line := range strings.Split(string(out), "\n") {
		var name string
		var n int
		if _, e := fmt.Sscanf(line, "# %s %d", &name, &n); e == nil {
			counts[name] = n
		}
	}
	t.Logf("node %s --test %s: %d tests, %d passed, %d failed, %d skipped, %d todo (%v)", version, strings.Join(files, " "),
		counts["tests"], counts["pass"], counts["fail"], counts["skipped"], counts["todo"], elapsed.Round(time.Millisecond))
	if err != nil || counts["fail"] != 0 || counts["pass"] == 0 || counts["pass"] != counts["tests"] {
		t.Fatalf("node --test: %v\n%s", err, out)
	}
}

// Every script module of the page is served as JavaScript, without the
// token (a module's import carries none); the modules import only served
// modules; index.html loads app.js as a module; the static directory holds
// nothing that is not served.
func TestModulesServed(t *testing.T) {
	const tok = "00112233445566778899aabbccddeeff"
	_, hs := startServer(t, Config{Engine: []string{"/bin/false"}, Token: tok})
	sub, err := fs.Sub(staticFiles, "static")
	if err != nil {
		t.Fatal(err)
	}
	mods, err := fs.Glob(sub, "*.js")
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range []string{"app.js", "uci.js", "notation.js"} {
		if !slices.Contains(mods, m) {
			t.Errorf("no %s among the page's modules %q", m, mods)
		}
	}
	// import … from '…', import '…', export … from '…'.
	importRE := regexp.MustCompile(`(?m)^\s*(?:import\s+(?:[\w$*{}\s,]+?\s*from\s*)?|export\s+(?:\*(?:\s+as\s+[\w$]+)?|\{[^}]*\})\s*from\s*)['"]([^'"]+)['"]`)
	imported := map[string]bool{}
	for _, m := range mods {
		src, err := fs.ReadFile(sub, m)
		if err != nil {
			t.Fatal(err)
		}
		resp, body := get(t, hs.URL+"/"+m)
		if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/javascript; charset=utf-8" || body != string(src) {
			t.Errorf("GET /%s without the token: %d %q (%d bytes of %d)", m, resp.StatusCode, resp.Header.Get("Content-Type"), len(body), len(src))
		}
		for _, im := range importRE.FindAllStringSubmatch(string(src), -1) {
			spec := im[1]
			imported[spec] = true
			name, ok := strings.CutPrefix(spec, "./")
			if !ok || !publicFiles["/"+name] || !slices.Contains(mods, name) {
				t.Errorf("%s imports %q: not a served module of the page (%q)", m, spec, publicPaths)
			}
		}
	}
	if !imported["./uci.js"] || !imported["./notation.js"] {
		t.Errorf("the modules import %v: the imports were not read", imported)
	}
	_, page := get(t, hs.URL+"/?token="+tok)
	if !strings.Contains(page, `<script type="module" src="/app.js"></script>`) {
		t.Errorf("index.html does not load app.js as a module")
	}
	for _, pre := range regexp.MustCompile(`<link rel="modulepreload" href="([^"]+)">`).FindAllStringSubmatch(page, -1) {
		if !publicFiles[pre[1]] {
			t.Errorf("index.html preloads %s, which is not served", pre[1])
		}
	}
	// The static directory is the page and its public files, nothing more.
	var embedded []string
	if err := fs.WalkDir(sub, ".", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			embedded = append(embedded, "/"+p)
		}
		return err
	}); err != nil {
		t.Fatal(err)
	}
	want := append([]string{"/index.html"}, publicPaths...)
	slices.Sort(embedded)
	slices.Sort(want)
	if !slices.Equal(embedded, want) {
		t.Errorf("the static directory holds %q, the server serves %q", embedded, want)
	}
	for _, p := range []string{"/package.json", "/jstest/uci.test.mjs", "/index.html", "/static/uci.js"} {
		if resp, _ := get(t, hs.URL+p+"?token="+tok); resp.StatusCode != 404 {
			t.Errorf("GET %s: %d, want 404", p, resp.StatusCode)
		}
	}
}

// TestEveryModuleTestedUnderNode: each of the page's modules is imported by
// the node tests (jstest/*.mjs: a test file or the harness it uses), so a
// new module comes with its tests.
func TestEveryModuleTestedUnderNode(t *testing.T) {
	mods, err := filepath.Glob("static/*.js")
	if err != nil || len(mods) == 0 {
		t.Fatalf("no modules in static (%v)", err)
	}
	tests, err := filepath.Glob("jstest/*.mjs")
	if err != nil || len(tests) == 0 {
		t.Fatalf("no node tests in jstest (%v)", err)
	}
	var all strings.Builder
	for _, f := range tests {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		all.Write(b)
	}
	for _, m := range mods {
		if !strings.Contains(all.String(), "'../static/"+filepath.Base(m)+"'") {
			t.Errorf("%s: no node test imports it", m)
		}
	}
}
