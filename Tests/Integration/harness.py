"""Shared helpers for the integration suite: processes started and ended by PID, a JSON-RPC client over the
Unix socket, and the private accessibility stack from Tools/a11y-stack.sh."""
import json
import os
import select
import signal
import socket
import subprocess
import sys
import tempfile
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
BIN = os.environ.get("AXSERVER_BIN") or os.path.join(ROOT, ".build", "debug")
AXSERVER = os.path.join(BIN, "axserver")
AXQUERY = os.path.join(BIN, "axquery")

sys.path.insert(0, os.path.join(ROOT, "Sources", "PythonClient"))
from axclient import orca_stack  # noqa: E402

#: The screen-reader stacks every real-Orca test runs on (axclient.orca_stack's choices): Debian 12's Orca 43 on
#: at-spi2-core 2.46, and Orca 48.1 on at-spi2-core / libatspi 2.56 from Tools/install-orca48.sh.
ORCA_STACKS = ("43", "48")


def orca48_missing():
    """None when the Orca 48 prefix is installed, else why a test on it is skipped (with the install command)."""
    prefix = os.environ.get("AXSERVER_ORCA48_PREFIX") or os.path.join(ROOT, ".build", "orca48")
    if os.path.exists(os.path.join(prefix, "READY")):
        return None
    return "no Orca 48 stack in %s (Tools/install-orca48.sh installs it)" % prefix


class Proc:
    """A child process whose stdout is read line by line; stopped by PID."""

    def __init__(self, args, env=None, cwd=None):
        self.args = args
        self.p = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, cwd=cwd,
                                  text=True, bufsize=1)
        self.lines = []

    def wait_line(self, prefix, timeout=30):
        deadline = time.time() + timeout
        while time.time() < deadline:
            r, _, _ = select.select([self.p.stdout], [], [], 0.2)
            if r:
                line = self.p.stdout.readline()
                if not line:
                    break
                self.lines.append(line.rstrip("\n"))
                if line.startswith(prefix):
                    return line.rstrip("\n")
            elif self.p.poll() is not None:
                break
        err = ""
        try:
            if self.p.poll() is not None:
                err = self.p.stderr.read()
        except Exception:
            pass
        raise AssertionError("no line starting with %r from %s (exit %s): %s %s" % (prefix, self.args[0], self.p.poll(), self.lines, err))

    def stop(self, sig=signal.SIGTERM, timeout=10):
        if self.p.poll() is None:
            self.p.send_signal(sig)
            try:
                self.p.wait(timeout)
            except subprocess.TimeoutExpired:
                self.p.kill()
                self.p.wait(5)
        for f in (self.p.stdout, self.p.stderr):
            try:
                f.close()
            except Exception:
                pass
        return self.p.returncode


class RPC:
    """A newline-delimited JSON-RPC client over a Unix socket."""

    def __init__(self, path, timeout=30):
        self.s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.s.settimeout(timeout)
        self.s.connect(path)
        self.buf = b""
        self.next_id = 1
        self.notifications = []
        self.on_request = None

    def send_raw(self, data: bytes):
        self.s.sendall(data)

    def read_msg(self):
        while b"\n" not in self.buf:
            chunk = self.s.recv(65536)
            if not chunk:
                raise EOFError("connection closed")
            self.buf += chunk
        line, self.buf = self.buf.split(b"\n", 1)
        return json.loads(line)

    def call(self, method, params=None):
        i = self.next_id
        self.next_id += 1
        msg = {"jsonrpc": "2.0", "id": i, "method": method}
        if params is not None:
            msg["params"] = params
        self.s.sendall((json.dumps(msg) + "\n").encode())
        while True:
            m = self.read_msg()
            if "method" in m and "id" in m:   # a server->client request
                result = self.on_request(m["method"], m.get("params")) if self.on_request else {"handled": False}
                self.s.sendall((json.dumps({"jsonrpc": "2.0", "id": m["id"], "result": result}) + "\n").encode())
                continue
            if "method" in m:
                self.notifications.append(m)
                continue
            if m.get("id") == i:
                return m

    def result(self, method, params=None):
        m = self.call(method, params)
        if "error" in m:
            raise AssertionError("%s failed: %s" % (method, m["error"]))
        return m["result"]

    def close(self):
        try:
            self.s.close()
        except Exception:
            pass


def start_server(*extra, env=None, atspi=False):
    """Starts `axserver serve` on a private socket; returns (proc, socket_path, tmpdir)."""
    tmp = tempfile.mkdtemp(prefix="axit-")
    sock = os.path.join(tmp, "ax.sock")
    args = [AXSERVER, "serve", "--socket", sock] + list(extra)
    if not atspi:
        args.append("--no-atspi")
    e = dict(os.environ if env is None else env)
    p = Proc(args, env=e)
    p.wait_line("READY", timeout=60)
    return p, sock, tmp


class A11yStack:
    """The private session bus + AT-SPI bus + registry (optionally Xvfb) from Tools/a11y-stack.sh."""

    def __init__(self, xvfb=False, private_home=False, extra_args=(), orca=None, keys_from_x=False):
        """`orca` ("43", "48", a prefix; None: no screen reader chosen) starts that stack's bus launcher and registry
        and gives the environment that Orca (AX_ORCA_BIN for Tools/orca_capture.sh, its libraries) and, on Orca 48,
        the server's keyboard monitor (D-KEY-MONITOR-1); `keys_from_x` keeps Orca 48 on its X11 device (an app that
        reads X keys itself, such as the GTK 4 twin driven by xdotool)."""
        #: The chosen axclient.orca_stack.OrcaStack (None when `orca` is None).
        self.orca_stack = orca_stack.resolve(orca) if orca is not None else None
        self.keys_from_x = keys_from_x
        if self.orca_stack is not None and not extra_args:
            extra_args = self.orca_stack.a11y_stack_args
        # AX_ATSPI_ROOT (e.g. .build/orca48/root of Tools/install-orca48.sh): every stack runs that at-spi2-core's
        # bus launcher and registry, and its clients (pyatspi) load that libatspi and typelib.
        atspi_root = os.environ.get("AX_ATSPI_ROOT")
        if atspi_root and not extra_args:
            extra_args = ["--atspi-root", os.path.abspath(atspi_root)]
        args = [os.path.join(ROOT, "Tools", "a11y-stack.sh"), "start"] + list(extra_args)
        if xvfb:
            args.append("--xvfb")
        if private_home:
            args.append("--private-home")
        out = subprocess.run(args, capture_output=True, text=True, timeout=60)
        if out.returncode != 0:
            raise AssertionError("a11y-stack start failed: " + out.stderr)
        self.env = dict(os.environ)
        for line in out.stdout.splitlines():
            if line.startswith("export "):
                k, v = line[len("export "):].split("=", 1)
                self.env[k] = v.strip("'")
        self.dir = self.env["A11Y_STACK_DIR"]
        root = self.env.get("A11Y_STACK_ATSPI_ROOT")
        if root:
            for key, folder in (("LD_LIBRARY_PATH", "usr/lib/x86_64-linux-gnu"),
                                ("GI_TYPELIB_PATH", "usr/lib/x86_64-linux-gnu/girepository-1.0")):
                rest = self.env.get(key)
                self.env[key] = os.path.join(root, folder) + (os.pathsep + rest if rest else "")
        if self.orca_stack is not None:
            self.env = self.orca_stack.orca_env(self.env, keys_from_x=keys_from_x)
            self.env.update(self.orca_stack.server_env())
            self.env["AX_ORCA_BIN"] = self.orca_stack.orca

    @property
    def orca_name(self):
        """"orca-43" / "orca-48": the running Orca as the speech preview names it (None: no Orca chosen)."""
        return self.orca_stack.name if self.orca_stack is not None else None

    def stop(self):
        subprocess.run([os.path.join(ROOT, "Tools", "a11y-stack.sh"), "stop", self.dir], capture_output=True, timeout=60)


class ProviderStack:
    """A private stack with the real server (AT-SPI on, `server_args` such as "--demo"), provider apps started as
    `python3 SCRIPT SOCKET NAME` and waited for READY, and an automation JSON-RPC client. `keep(stop)` adds more to
    end (an Orca, an AT-SPI client); `close()` ends all of it, newest first, the stack last — also when start-up
    failed half way."""

    def __init__(self, *server_args, providers=(), xvfb=False, private_home=False, env=None, rpc_timeout=30,
                 client_name=None, orca=None):
        self.stack = A11yStack(xvfb=xvfb, private_home=private_home, orca=orca)
        self.stack.env.update(env or {})
        self.env = self.stack.env
        self._stops = []
        self.providers = {}
        try:
            self.server, self.sock, self.tmp = start_server(*server_args, env=self.env, atspi=True)
            self.keep(self.server.stop)
            for script, name in providers:
                proc = Proc(["/usr/bin/python3", script, self.sock, name], env=self.env)
                self.keep(proc.stop)
                proc.wait_line("READY", timeout=30)
                self.providers[name] = proc
            self.rpc = RPC(self.sock, timeout=rpc_timeout)
            self.keep(self.rpc.close)
            params = {"role": "automation"}
            if client_name:
                params["clientInfo"] = {"name": client_name}
            self.rpc.result("initialize", params)
        except BaseException:
            self.close()
            raise

    def keep(self, stop):
        """Ends `stop` at `close()`, before everything kept earlier."""
        self._stops.append(stop)

    def close(self):
        try:
            while self._stops:
                self._stops.pop()()
        finally:
            self.stack.stop()
