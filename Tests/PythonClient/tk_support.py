"""Fixtures for the axclient.tk tests: a private Xvfb display and Tk apps run by ``python3 -m axclient.tk``.

Import the fixtures into a test module: ``from tk_support import xvfb_display, tk_app  # noqa: F401``.
The apps are real Tk programs in Tests/PythonClient/tkapps (they know nothing of AXServer) mirrored into the
``axserver`` fixture's server.
"""
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
APPS = os.path.join(HERE, "tkapps")
PACKAGE_DIR = os.path.abspath(os.path.join(HERE, "..", "..", "Sources", "PythonClient"))

try:
    import tkinter  # noqa: F401
    HAVE_TK = True
except ImportError:  # pragma: no cover - Tools/install-deps.sh installs python3-tk
    HAVE_TK = False

needs_tk = pytest.mark.skipif(not HAVE_TK or shutil.which("Xvfb") is None,
                              reason="needs python3-tk and Xvfb (Tools/install-deps.sh installs both)")


class Xvfb:
    """A private X display (Xvfb -displayfd), stopped by :meth:`stop`."""

    def __init__(self) -> None:
        read_fd, write_fd = os.pipe()
        self.process = subprocess.Popen(
            ["Xvfb", "-displayfd", str(write_fd), "-screen", "0", "1280x1024x24", "-nolisten", "tcp", "-noreset"],
            pass_fds=(write_fd,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL)
        os.close(write_fd)
        data = b""
        deadline = time.monotonic() + 20
        while not data.endswith(b"\n") and time.monotonic() < deadline:
            chunk = os.read(read_fd, 64)
            if not chunk:
                break
            data += chunk
        os.close(read_fd)
        if not data.strip():
            self.stop()
            raise RuntimeError("Xvfb did not start")
        self.display = ":" + data.decode().strip()

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


@pytest.fixture(scope="session")
def xvfb_display():
    """The DISPLAY of a private Xvfb shared by the session's Tk tests."""
    if not HAVE_TK or shutil.which("Xvfb") is None:
        pytest.skip("needs python3-tk and Xvfb (Tools/install-deps.sh installs both)")
    server = Xvfb()
    try:
        yield server.display
    finally:
        server.stop()


class TkApp:
    """A Tk program started with ``python3 -m axclient.tk``; ``lines`` collects its stdout, ``stderr_text()`` its
    stderr. ``wait_line(prefix)`` waits for a stdout line."""

    def __init__(self, args, display, socket, name=None, env=None, cwd=None, runner=True):
        if runner:
            command = [sys.executable, "-m", "axclient.tk", "--socket", socket]
            if name:
                command += ["--name", name]
        else:
            command = [sys.executable]  # the script calls axclient.tk.mirror() itself; $AXSERVER_SOCKET
        command += list(args)
        process_env = dict(os.environ)
        process_env.update({"DISPLAY": display, "PYTHONUNBUFFERED": "1",
                            "PYTHONPATH": PACKAGE_DIR + os.pathsep + process_env.get("PYTHONPATH", "")})
        process_env["AXSERVER_SOCKET"] = socket
        if env:
            process_env.update(env)
        self.stderr_file = tempfile.TemporaryFile()
        self.process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=self.stderr_file,
                                        stdin=subprocess.DEVNULL, env=process_env, cwd=cwd, text=True)
        self.lines = []
        self._cond = threading.Condition()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self):
        for line in self.process.stdout:
            with self._cond:
                self.lines.append(line.rstrip("\n"))
                self._cond.notify_all()
        with self._cond:
            self._cond.notify_all()

    def wait_line(self, text, timeout=15.0):
        """Waits until a stdout line equals ``text`` (or starts with it when it ends with '*')."""
        deadline = time.monotonic() + timeout
        with self._cond:
            while True:
                for line in self.lines:
                    if line == text or (text.endswith("*") and line.startswith(text[:-1])):
                        return line
                remaining = deadline - time.monotonic()
                if remaining <= 0 or (self.process.poll() is not None and not self._reader.is_alive()):
                    raise AssertionError("no line %r; stdout %r; stderr %r"
                                         % (text, self.lines, self.stderr_text()))
                self._cond.wait(min(remaining, 0.2))

    def stderr_text(self):
        self.stderr_file.seek(0)
        return self.stderr_file.read().decode("utf-8", "replace")

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.stderr_file.close()


def wait_for_app(ax, name, timeout=20.0):
    """Waits until the server lists an app called ``name`` and has its first snapshot; returns the app id."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for entry in ax.apps():
            if entry.get("name") == name and entry.get("revision", 0) > 0 and entry.get("windows"):
                return entry["id"]
        time.sleep(0.05)
    raise AssertionError("the app %r did not appear; apps %r" % (name, ax.apps()))


@pytest.fixture
def tk_app(xvfb_display, axserver):
    """A factory: ``tk_app("form_app.py", name=None, args=(), module=False)`` starts a tkinter app from
    Tests/PythonClient/tkapps (or ``-m MODULE`` with ``module=True``) mirrored into the ``axserver`` fixture's
    server, and waits until it published its tree. Every app is stopped after the test."""
    started = []

    def start(target, name=None, args=(), module=False, wait=True, env=None):
        argv = ["-m", target] if module else [os.path.join(APPS, target)]
        app = TkApp(argv + list(args), xvfb_display, axserver.socket, name=name, env=env)
        started.append(app)
        app.name = name or (target if module else os.path.splitext(os.path.basename(target))[0])
        app.app_id = None
        if wait:
            ax = axserver.client(client_name="tk-support")
            try:
                app.app_id = wait_for_app(ax, app.name)
            except AssertionError:
                raise AssertionError("%s; app stderr: %s" % (sys.exc_info()[1], app.stderr_text()))
            finally:
                ax.close()
            app.wait_line("ready", 15) if not module else None
        return app

    try:
        yield start
    finally:
        for app in started:
            app.stop()


@pytest.fixture
def tk_client(axserver):
    """A factory: ``tk_client(app)`` is a :class:`axclient.Client` whose queries default to the app ``app``
    (closed after the test)."""
    clients = []

    def make(app_id, timeout=5.0):
        client = axserver.client(client_name="tk-test", app=app_id, timeout=timeout)
        clients.append(client)
        return client

    try:
        yield make
    finally:
        for client in clients:
            client.close()
