//go:build unix

package match

import (
	"os/exec"
	"syscall"
)

// ownProcessGroup starts the engine in a process group of its own, so that
// killing it also kills what it started (an engine behind a wrapper script),
// and a Ctrl-C at the terminal reaches millmatch only, which then quits the
// engines in order.
func ownProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// killProcess kills the engine's process group.
func killProcess(cmd *exec.Cmd) {
	if cmd.Process == nil {
		return
	}
	_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	_ = cmd.Process.Kill()
}
