//go:build linux

package memory

import (
	"bufio"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// Available returns how much more memory the process can get: the kernel's
// MemAvailable, less where a cgroup memory limit or an address-space limit
// (ulimit -v) leaves less room. ok is false when nothing is known.
func Available() (uint64, bool) {
	avail, ok := memInfo("MemAvailable")
	if lim, used, ok2 := cgroupLimit(); ok2 {
		room := uint64(0)
		if lim > used {
			room = lim - used
		}
		if !ok || room < avail {
			avail, ok = room, true
		}
	}
	var rl syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_AS, &rl); err == nil && rl.Cur != ^uint64(0) {
		if size, ok2 := Status("VmSize"); ok2 {
			room := uint64(0)
			if rl.Cur > size {
				room = rl.Cur - size
			}
			if !ok || room < avail {
				avail, ok = room, true
			}
		}
	}
	return avail, ok
}

// memInfo reads a "Name: N kB" field of /proc/meminfo in bytes.
func memInfo(field string) (uint64, bool) { return kBField("/proc/meminfo", field) }

// Status reads a "Name: N kB" field of /proc/self/status in bytes: VmRSS
// (resident now), VmHWM (the peak resident size), VmSize.
func Status(field string) (uint64, bool) { return kBField("/proc/self/status", field) }

// Peak returns the process's peak resident size (VmHWM) in bytes.
func Peak() (uint64, bool) { return Status("VmHWM") }

// ResetPeak sets the peak resident size back to the current one (writing 5
// to /proc/self/clear_refs, Linux 4.0+), so that Peak measures one stretch of
// work, such as one endgame sector. It reports whether the kernel took it.
func ResetPeak() bool {
	return os.WriteFile("/proc/self/clear_refs", []byte("5"), 0) == nil
}

func kBField(path, field string) (uint64, bool) {
	f, err := os.Open(path)
	if err != nil {
		return 0, false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		name, rest, ok := strings.Cut(sc.Text(), ":")
		if !ok || name != field {
			continue
		}
		v, err := strconv.ParseUint(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
		return v << 10, err == nil
	}
	return 0, false
}

// cgroupLimit returns the memory limit of the process's cgroup (v2, else v1)
// and its current use, when there is a limit.
func cgroupLimit() (limit, used uint64, ok bool) {
	data, err := os.ReadFile("/proc/self/cgroup")
	if err != nil {
		return 0, 0, false
	}
	for _, line := range strings.Split(string(data), "\n") {
		parts := strings.SplitN(line, ":", 3)
		if len(parts) != 3 {
			continue
		}
		var dir, limFile, useFile string
		switch {
		case parts[0] == "0" && parts[1] == "":
			dir, limFile, useFile = filepath.Join("/sys/fs/cgroup", parts[2]), "memory.max", "memory.current"
		case strings.Contains(parts[1], "memory"):
			dir, limFile, useFile = filepath.Join("/sys/fs/cgroup/memory", parts[2]), "memory.limit_in_bytes", "memory.usage_in_bytes"
		default:
			continue
		}
		lim, err1 := readUint(filepath.Join(dir, limFile))
		use, err2 := readUint(filepath.Join(dir, useFile))
		if err1 == nil && err2 == nil && lim < 1<<62 {
			return lim, use, true
		}
	}
	return 0, 0, false
}

func readUint(path string) (uint64, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, err
	}
	return strconv.ParseUint(strings.TrimSpace(string(b)), 10, 64) // "max" fails: no limit
}
