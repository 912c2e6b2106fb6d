//go:build linux

package mcp_test

import (
	"bufio"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/cgt-tools/cgt/internal/loadaware"
)

// prSetChildSubreaper makes orphaned descendants children of this process, so the test can
// collect the exit status of a server whose parent it killed.
const prSetChildSubreaper = 36

func TestExitsCleanlyWhenParentDies(t *testing.T) {
	if _, _, errno := syscall.RawSyscall(syscall.SYS_PRCTL, prSetChildSubreaper, 1, 0); errno != 0 {
		t.Skipf("cannot become a subreaper: %v", errno)
	}
	// The shell is the server's parent; it reports the server's pid and then waits forever. The
	// server reads the shell's stdin (our pipe), which stays open after the shell dies.
	parent := exec.Command("sh", "-c", `exec 3<&0; "$0" <&3 3<&- & echo $!; exec sleep 60`, serverBinary)
	// Our own pipe, not StdinPipe: Wait would close that when the shell dies, and the server
	// must notice its parent's death, not the end of its input.
	serverIn, stdin, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer stdin.Close()
	parent.Stdin = serverIn
	out, _ := parent.StdoutPipe()
	if err := parent.Start(); err != nil {
		t.Fatal(err)
	}
	serverIn.Close()
	stdout := bufio.NewReader(out)
	pidLine, err := stdout.ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(pidLine))
	if err != nil {
		t.Fatalf("pid line %q", pidLine)
	}
	defer syscall.Kill(pid, syscall.SIGKILL)

	stdin.Write([]byte(`{"jsonrpc":"2.0","id":1,"method":"ping"}` + "\n"))
	if _, err := stdout.ReadString('\n'); err != nil {
		t.Fatalf("server did not answer: %v", err)
	}
	parent.Process.Kill()
	parent.Wait()
	killed := time.Now()

	status, err := waitPid(pid, 2*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if took := time.Since(killed); !status.Exited() || status.ExitStatus() != 0 || took > loadaware.Bound(time.Second) {
		t.Errorf("server ended %v after its parent with status %v (exited=%v)", took, status.ExitStatus(), status.Exited())
	}
}

// waitPid reaps pid, which became our child when its parent died.
func waitPid(pid int, limit time.Duration) (syscall.WaitStatus, error) {
	deadline := time.Now().Add(limit)
	for {
		var ws syscall.WaitStatus
		got, err := syscall.Wait4(pid, &ws, syscall.WNOHANG, nil)
		if err != nil {
			return ws, err
		}
		if got == pid {
			return ws, nil
		}
		if time.Now().After(deadline) {
			return ws, &timeoutError{pid}
		}
		time.Sleep(10 * time.Millisecond)
	}
}

type timeoutError struct{ pid int }

func (e *timeoutError) Error() string { return "server " + strconv.Itoa(e.pid) + " still running" }
