// Package testexec lets a test run its own test binary again as a child
// process (to set an environment variable read at start-up, to watch a
// crash, to check an exit status), also where the binary runs under a
// user-mode emulator: scripts/test-arm64 runs the arm64 tests with
// qemu-user, which cannot start an arm64 child by itself, and sets
// CORELANE_TEST_EMULATOR to the emulator's command line so the child runs
// under it too.
package testexec

import (
	"os"
	"os/exec"
	"strings"
)

// EmulatorEnv is the environment variable naming the emulator command
// line ("qemu-aarch64 -cpu max") a child must run under; empty or unset
// means run the binary directly.
const EmulatorEnv = "CORELANE_TEST_EMULATOR"

// Self returns a command that runs this test binary again with args.
func Self(args ...string) *exec.Cmd {
	return Command(os.Args[0], args...)
}

// Command returns a command that runs the program name (built for this
// test's GOARCH) with args, through the emulator when there is one.
func Command(name string, args ...string) *exec.Cmd {
	if emu := strings.Fields(os.Getenv(EmulatorEnv)); len(emu) > 0 {
		return exec.Command(emu[0], append(append(emu[1:], name), args...)...)
	}
	return exec.Command(name, args...)
}

// Emulated reports whether the test binary runs under a user-mode emulator
// (EmulatorEnv is set), where it is an order of magnitude slower than on
// hardware: tests may then trim sweeps that another run covers.
func Emulated() bool { return os.Getenv(EmulatorEnv) != "" }
