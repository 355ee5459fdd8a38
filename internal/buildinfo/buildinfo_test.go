package buildinfo

import (
	"runtime/debug"
	"testing"
)

func TestVersion(t *testing.T) {
	build := func(mainVersion string, settings ...string) func() (*debug.BuildInfo, bool) {
		return func() (*debug.BuildInfo, bool) {
			bi := &debug.BuildInfo{Main: debug.Module{Path: "example.com/cmd", Version: mainVersion}}
			for i := 0; i+1 < len(settings); i += 2 {
				bi.Settings = append(bi.Settings, debug.BuildSetting{Key: settings[i], Value: settings[i+1]})
			}
			return bi, true
		}
	}
	noInfo := func() (*debug.BuildInfo, bool) { return nil, false }
	const rev = "89abcdef0123456789abcdef0123456789abcdef"
	cases := []struct {
		name    string
		stamped string
		read    func() (*debug.BuildInfo, bool)
		want    string
	}{
		{"stamped wins over everything", "v2.0.0", build("v1.0.0", "vcs.revision", rev), "v2.0.0"},
		{"module version (go install …@v1.0.0)", "", build("v1.0.0", "vcs.revision", rev), "v1.0.0"},
		{"clean checkout", "", build("(devel)", "vcs.revision", rev, "vcs.modified", "false"), "89abcdef0123"},
		{"modified checkout", "", build("(devel)", "vcs.revision", rev, "vcs.modified", "true"), "89abcdef0123-dirty"},
		{"short revision kept whole", "", build("", "vcs.revision", "89ab"), "89ab"},
		{"no revision", "", build("(devel)", "vcs.modified", "true"), "dev"},
		{"no build info", "", noInfo, "dev"},
		{"nil build info", "", func() (*debug.BuildInfo, bool) { return nil, true }, "dev"},
	}
	for _, c := range cases {
		if got := Version(c.stamped, c.read); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}
