// Package buildinfo names the build of a command for its version output:
// the version stamped by the build (go build -ldflags "-X main.version=…"),
// else what the Go toolchain recorded in the binary, else "dev".
package buildinfo

import "runtime/debug"

// Version returns stamped when it is set. Otherwise it asks read (pass
// debug.ReadBuildInfo) for the main module's version, as `go install
// …@v1.2.3` records it, or else the VCS revision of the checkout the binary
// was built in: its first 12 hex digits, with "-dirty" when the tree had
// uncommitted changes. Without either it returns "dev".
func Version(stamped string, read func() (*debug.BuildInfo, bool)) string {
	if stamped != "" {
		return stamped
	}
	bi, ok := read()
	if !ok || bi == nil {
		return "dev"
	}
	if v := bi.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	var rev string
	modified := false
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			modified = s.Value == "true"
		}
	}
	if rev == "" {
		return "dev"
	}
	rev = rev[:min(len(rev), 12)]
	if modified {
		rev += "-dirty"
	}
	return rev
}
