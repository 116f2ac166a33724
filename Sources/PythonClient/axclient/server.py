"""Starting and stopping ``axserver serve`` (and a private AT-SPI stack) from Python — used by the pytest plugin.

Every process is started here and ended by its PID; nothing is looked up or killed by name.
"""
from __future__ import annotations

import os
import select
import shutil
import signal
import subprocess
import tempfile
import threading
import time
from typing import Any, Dict, List, Optional, Sequence

from .errors import AXError


class ServerStartError(AXError):
    """``axserver`` did not print ``READY`` in time, or exited; the message carries its output."""


def find_axserver(bin_dir: Optional[str] = None) -> str:
    """The ``axserver`` executable: in ``bin_dir``, else ``$AXSERVER_BIN`` (a directory), else on ``PATH``."""
    for directory in (bin_dir, os.environ.get("AXSERVER_BIN")):
        if directory:
            candidate = os.path.join(directory, "axserver")
            if os.access(candidate, os.X_OK):
                return candidate
            raise ServerStartError("no executable axserver in %s (set AXSERVER_BIN to the folder holding the "
                                   "built binaries, e.g. $(swift build --show-bin-path))" % directory)
    found = shutil.which("axserver")
    if found:
        return found
    raise ServerStartError("axserver not found: set AXSERVER_BIN to the folder holding it, or put it on PATH")


def find_a11y_stack_script(start: Optional[str] = None) -> Optional[str]:
    """``Tools/a11y-stack.sh``: ``$AXSERVER_A11Y_STACK``, else searched upwards from ``start`` (and from cwd)."""
    explicit = os.environ.get("AXSERVER_A11Y_STACK")
    if explicit:
        return explicit
    for origin in (start, os.getcwd()):
        directory = os.path.abspath(origin) if origin else None
        while directory:
            candidate = os.path.join(directory, "Tools", "a11y-stack.sh")
            if os.path.isfile(candidate):
                return candidate
            parent = os.path.dirname(directory)
            if parent == directory:
                break
            directory = parent
    return None


class A11yStack:
    """A private session bus, AT-SPI bus and registry from ``Tools/a11y-stack.sh`` (stopped by its PIDs);
    ``xvfb`` adds a private X display, ``private_home`` a private HOME and XDG folders (both needed by Orca)."""

    def __init__(self, script: str, xvfb: bool = False, timeout: float = 60.0, private_home: bool = False,
                 extra_args: Sequence[str] = ()) -> None:
        self.script = script
        args = [script, "start"] + (["--xvfb"] if xvfb else []) + (["--private-home"] if private_home else [])
        args += list(extra_args)  # e.g. --atspi-root (axclient.orca_stack)
        out = subprocess.run(args, capture_output=True, text=True, timeout=timeout)
        if out.returncode != 0:
            raise ServerStartError("a11y-stack start failed: %s" % out.stderr.strip())
        #: The variables the stack exports (DBUS_SESSION_BUS_ADDRESS, AT_SPI_BUS_ADDRESS, A11Y_STACK_DIR…).
        self.exports: Dict[str, str] = {}
        for line in out.stdout.splitlines():
            if line.startswith("export ") and "=" in line:
                key, value = line[len("export "):].split("=", 1)
                self.exports[key] = value.strip("'")
        self.dir = self.exports.get("A11Y_STACK_DIR", "")

    def env(self, base: Optional[Dict[str, str]] = None) -> Dict[str, str]:
        """``base`` (default: this process's environment) with the stack's variables."""
        merged = dict(os.environ if base is None else base)
        merged.update(self.exports)
        return merged

    def stop(self, timeout: float = 60.0) -> None:
        """Stops exactly the processes the stack started."""
        if self.dir:
            subprocess.run([self.script, "stop", self.dir], capture_output=True, timeout=timeout)
            self.dir = ""


class ServerProcess:
    """A running ``axserver serve`` on a private socket in a private temporary directory.

    ``ServerProcess(demo=True)`` starts it and waits for ``READY``; ``.socket`` is its socket path, ``.tcp_port``
    its TCP port (with ``tcp=True``), ``.pid`` its PID. ``.client(**options)`` connects a :class:`Client`;
    ``.stop()`` ends it (SIGTERM, then SIGKILL after ``stop_timeout``) and removes the directory. ``stack``: serve
    AT-SPI on this already started :class:`A11yStack` (the caller stops it; the screen reader's session does).
    """

    def __init__(self, binary: Optional[str] = None, demo: bool = True, atspi: bool = False,
                 args: Sequence[str] = (), env: Optional[Dict[str, str]] = None, tcp: bool = False,
                 startup_timeout: float = 30.0, a11y_stack_script: Optional[str] = None,
                 stack: Optional[A11yStack] = None) -> None:
        self.binary = binary or find_axserver()
        self.dir = tempfile.mkdtemp(prefix="axclient-")
        os.chmod(self.dir, 0o700)
        self.socket = os.path.join(self.dir, "ax.sock")
        self.log_path = os.path.join(self.dir, "server.log")
        self.stack: Optional[A11yStack] = None
        # A stack passed in (the screen reader's) belongs to the caller: served on, never stopped here.
        self._borrowed_stack = stack
        self.token: Optional[str] = None
        self.tcp_port: Optional[int] = None
        self.ready_line = ""
        self.stdout_lines: List[str] = []
        command = [self.binary, "serve", "--socket", self.socket]
        if demo:
            command.append("--demo")
        process_env = dict(os.environ if env is None else env)
        try:
            if stack is not None:
                process_env = stack.env(process_env)
            elif atspi:
                script = a11y_stack_script or find_a11y_stack_script(os.path.dirname(self.binary))
                if script is None:
                    raise ServerStartError("atspi=True needs Tools/a11y-stack.sh (set AXSERVER_A11Y_STACK)")
                self.stack = A11yStack(script)
                process_env = self.stack.env(process_env)
            else:
                command.append("--no-atspi")
            if tcp:
                self.token = os.urandom(16).hex()
                token_file = os.path.join(self.dir, "token")
                descriptor = os.open(token_file, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
                with os.fdopen(descriptor, "w") as handle:
                    handle.write(self.token + "\n")
                command += ["--listen", "tcp:127.0.0.1:0", "--token-file", token_file]
            command += list(args)
            self.command = command
            self._log = open(self.log_path, "wb")
            self.process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=self._log, env=process_env,
                                            stdin=subprocess.DEVNULL)
        except BaseException:
            self._cleanup()
            raise
        self.pid = self.process.pid
        try:
            self._wait_ready(startup_timeout)
        except BaseException:
            self.stop()
            raise
        self._drain = threading.Thread(target=self._drain_stdout, name="axserver-stdout", daemon=True)
        self._drain.start()

    def _wait_ready(self, timeout: float) -> None:
        stdout = self.process.stdout
        assert stdout is not None
        deadline = time.monotonic() + timeout
        buffer = b""
        while time.monotonic() < deadline:
            ready, _, _ = select.select([stdout], [], [], 0.2)
            if ready:
                chunk = os.read(stdout.fileno(), 4096)
                if not chunk:
                    break
                buffer += chunk
                while b"\n" in buffer:
                    raw, buffer = buffer.split(b"\n", 1)
                    line = raw.decode("utf-8", "replace")
                    self.stdout_lines.append(line)
                    if line.startswith("READY"):
                        self.ready_line = line
                        for field in line.split():
                            if field.startswith("tcp="):
                                self.tcp_port = int(field[len("tcp="):])
                        return
            elif self.process.poll() is not None:
                break
        try:
            status = self.process.wait(2)
            what = "exited with status %s before printing READY" % status
        except subprocess.TimeoutExpired:
            what = "did not print READY within %.0f s" % timeout
        raise ServerStartError("axserver %s: %s\n%s" % (what, " ".join(self.command), self.log_text()[-4000:]))

    def _drain_stdout(self) -> None:
        stdout = self.process.stdout
        if stdout is None:
            return
        try:
            for raw in iter(stdout.readline, b""):
                if len(self.stdout_lines) < 10000:
                    self.stdout_lines.append(raw.decode("utf-8", "replace").rstrip("\n"))
        except (OSError, ValueError):
            pass

    @property
    def tcp_address(self) -> Optional[str]:
        """``tcp:127.0.0.1:PORT`` when started with ``tcp=True``."""
        return None if self.tcp_port is None else "tcp:127.0.0.1:%d" % self.tcp_port

    def log_text(self) -> str:
        """What the server wrote to stderr so far."""
        try:
            with open(self.log_path, "r", encoding="utf-8", errors="replace") as handle:
                return handle.read()
        except OSError:
            return ""

    def client(self, **options: Any) -> "Any":
        """A connected :class:`axclient.Client` for this server."""
        from .client import Client
        return Client(self.socket, **options)

    def running(self) -> bool:
        """True while the process has not exited."""
        return self.process.poll() is None

    def stop(self, stop_timeout: float = 10.0) -> Optional[int]:
        """SIGTERM by PID (SIGKILL after ``stop_timeout`` s), then the AT-SPI stack; returns the exit status."""
        process = getattr(self, "process", None)
        if process is not None and process.poll() is None:
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(stop_timeout)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(5)
        if process is not None and process.stdout is not None:
            try:
                process.stdout.close()
            except OSError:
                pass
        self._cleanup()
        return None if process is None else process.returncode

    def _cleanup(self) -> None:
        log = getattr(self, "_log", None)
        if log is not None and not log.closed:
            log.close()
        if self.stack is not None:
            self.stack.stop()
            self.stack = None
        shutil.rmtree(self.dir, ignore_errors=True)

    def __enter__(self) -> "ServerProcess":
        return self

    def __exit__(self, *exc_info: Any) -> None:
        self.stop()
