"""One real `peershared` of the chaos run, on a fixed state directory and port, and the
real `peershare` CLI that drives it.

Every wait is bounded; every child is killed on exit by `ProcessTable.cleanup`.
"""

import json
import os
import signal
import socket
import subprocess
import time


class ChaosError(Exception):
    """A failure of the run (the message says what, and the seed to replay it)."""


class ProcessTable:
    """Every child the run started, so that none outlives it."""

    def __init__(self):
        self.procs = []

    def spawn(self, argv, **kw):
        self.procs = [p for p in self.procs if p.poll() is None]  # forget the reaped ones
        proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, **kw)
        self.procs.append(proc)
        return proc

    def cleanup(self):
        for proc in self.procs:
            if proc.poll() is None:
                proc.kill()
        for proc in self.procs:
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                pass


def free_port():
    """A port nobody listens on now; the daemon keeps it across restarts."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class CLIResult:
    """A finished `peershare --json` command."""

    def __init__(self, status, stdout, stderr):
        self.status, self.stdout, self.stderr = status, stdout, stderr
        try:
            self.json = json.loads(stdout) if stdout.strip() else None
        except ValueError:
            self.json = None

    @property
    def error_code(self):
        if isinstance(self.json, dict) and isinstance(self.json.get("error"), dict):
            return self.json["error"].get("code")
        return None

    def describe(self):
        return f"exit {self.status}: {(self.stderr.strip() or self.stdout.strip())[:400]}"


class Daemon:
    """A `peershared` with its own directory (state, control socket, notify socket, log)."""

    def __init__(self, role, work, bin_dir, processes):
        self.role = role
        self.dir = os.path.join(work, role)
        os.makedirs(self.dir)
        self.state = os.path.join(self.dir, "state")
        self.sock = os.path.join(self.dir, "control.sock")
        self.notify_path = os.path.join(self.dir, "notify.sock")
        self.log_path = os.path.join(self.dir, "peershared.log")
        self.bin = bin_dir
        self.processes = processes
        self.port = free_port()
        self.env = {"HOME": work, "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"}
        self.proc = None
        self.starts = 0

    @property
    def library(self):
        return os.path.join(self.state, "library")

    def start(self, timeout=60, kill_after=None):
        """Spawns the daemon and waits for READY=1 on a datagram socket of ours; returns the
        seconds it took. Fails early, with the log's tail, if the daemon exits instead. With
        `kill_after`, returns that many seconds after spawning, READY=1 or not, for the
        caller to kill it during start-up."""
        if os.path.exists(self.notify_path):
            os.unlink(self.notify_path)
        notify = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        notify.bind(self.notify_path)
        self.starts += 1
        with open(self.log_path, "a") as log:
            log.write(f"=== chaos: start {self.starts} of the {self.role} ===\n")
        try:
            with open(self.log_path, "ab") as log:
                t0 = time.monotonic()
                self.proc = self.processes.spawn(
                    [f"{self.bin}/peershared", "--state-dir", self.state, "--control-socket", self.sock,
                     "--listen", f"127.0.0.1:{self.port}"],
                    env=dict(self.env, NOTIFY_SOCKET=self.notify_path), stdout=log, stderr=log)
            if kill_after is not None:
                time.sleep(kill_after)
                return None
            deadline = t0 + timeout
            while True:
                if self.proc.poll() is not None:
                    raise ChaosError(f"the {self.role} exited with status {self.proc.returncode} before READY=1 "
                                     f"(start {self.starts}); log tail:\n{self.log_tail()}")
                left = deadline - time.monotonic()
                if left <= 0:
                    raise ChaosError(f"no READY=1 from the {self.role} within {timeout} s (start {self.starts}); "
                                     f"log tail:\n{self.log_tail()}")
                notify.settimeout(min(left, 0.5))
                try:
                    message = notify.recv(4096).decode(errors="replace")
                except socket.timeout:
                    continue
                if "READY=1" in message.split("\n"):
                    return time.monotonic() - t0
        finally:
            notify.close()

    def alive(self):
        return self.proc is not None and self.proc.poll() is None

    def kill9(self):
        """SIGKILL, then reap it (it may have exited already, when killed during start-up)."""
        if self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait(30)

    def terminate(self, timeout=60):
        """SIGTERM; returns the exit status (or raises if it does not stop in time)."""
        self.proc.send_signal(signal.SIGTERM)
        try:
            return self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(10)
            raise ChaosError(f"the {self.role} did not stop within {timeout} s of SIGTERM; log tail:\n"
                             f"{self.log_tail()}")

    def argv(self, args, timeout=30):
        return [f"{self.bin}/peershare", "--socket", self.sock, "--json", "--timeout", str(timeout), *args]

    def spawn_cli(self, args, timeout=30):
        """A CLI command left running (to be killed under it)."""
        return self.processes.spawn(self.argv(args, timeout), env=self.env, stdout=subprocess.PIPE,
                                    stderr=subprocess.PIPE, text=True)

    def cli(self, *args, timeout=30):
        """Runs a CLI command to completion. The CLI has its own timeout; ours is a backstop."""
        proc = self.spawn_cli(args, timeout)
        return finish(proc, args, timeout + 60)

    def must(self, *args, timeout=30):
        """A CLI command that has to succeed; returns its JSON."""
        result = self.cli(*args, timeout=timeout)
        if result.status != 0:
            raise ChaosError(f"peershare {' '.join(args)} on the {self.role} failed: {result.describe()}")
        return result.json

    def log_tail(self, lines=30):
        try:
            with open(self.log_path, errors="replace") as f:
                return "".join(f.readlines()[-lines:])
        except OSError:
            return "(no log)"


def finish(proc, args, timeout):
    """Waits for a CLI child; a CLI that outlives its own timeout is a hang."""
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        out, err = proc.communicate()
        raise ChaosError(f"peershare {' '.join(args)} hung for {timeout} s (its own --timeout did not end it)")
    return CLIResult(proc.returncode, out, err)
