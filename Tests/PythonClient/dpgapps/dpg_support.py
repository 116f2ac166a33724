"""Fixtures for the axclient.dearpygui tests: real Dear PyGui apps (this folder, and Dear PyGui's own demo) run
unmodified under ``python3 -m axclient.dearpygui`` on the private Xvfb (Mesa's software GL), mirrored into a real
axserver. One server and one app process per test module (module-scoped), so a module costs one start-up.

Import: ``from dpgapps.dpg_support import needs_dpg, DpgApp, module_server, start_app``."""
import os
import shutil
import sys
import time

import pytest

from tk_support import TkApp, wait_for_app

HERE = os.path.dirname(os.path.abspath(__file__))

try:
    import dearpygui  # noqa: F401
    HAVE_DPG = True
except ImportError:  # pragma: no cover - Tools/requirements-test.txt installs dearpygui into the test venv
    HAVE_DPG = False

needs_dpg = pytest.mark.skipif(not HAVE_DPG or shutil.which("Xvfb") is None,
                               reason="needs dearpygui (Tools/requirements-test.txt) and Xvfb")

#: Software GL under Xvfb (Mesa llvmpipe), no vsync wait: the tests never depend on a GPU.
GL_ENV = {"LIBGL_ALWAYS_SOFTWARE": "1", "vblank_mode": "0"}


class DpgApp(TkApp):
    """A Dear PyGui program run by ``python3 -m axclient.dearpygui --socket S SCRIPT ARGS`` (``lines``: stdout)."""

    def __init__(self, script, display, socket, args=(), name=None, env=None, runner=True):
        argv = ["-m", "axclient.dearpygui", "--socket", socket] if runner else []
        if runner and name:
            argv += ["--name", name]
        path = script if os.path.isabs(script) else os.path.join(HERE, script)
        merged = dict(GL_ENV)
        merged.update(env or {})
        super().__init__(argv + [path] + list(args), display, socket, env=merged, runner=False)
        self.name = name or os.path.splitext(os.path.basename(script))[0]
        self.app_id = None


def start_app(server, display, script, args=(), name=None, env=None, runner=True, wait=True):
    """Starts an app and (``wait``) waits until the server has its first snapshot (and, for apps that print it,
    the "ready" line: ``wait="ready"``)."""
    app = DpgApp(script, display, server.socket, args=args, name=name, env=env, runner=runner)
    if wait:
        try:
            if wait == "ready":
                app.wait_line("ready", 30)
            if "--no-window" not in args:
                client = server.client(client_name="dpg-support")
                try:
                    app.app_id = wait_for_app(client, app.name)
                finally:
                    client.close()
        except AssertionError:
            stderr = app.stderr_text()[-3000:]
            app.stop()
            raise AssertionError("%s; app stderr: %s" % (sys.exc_info()[1], stderr))
    return app


def module_server(pool, atspi=False):
    """A server of the module's own (demo off), started through the session's pool."""
    options = pool.options(None)
    options.update(demo=False, atspi=atspi, fresh=True)
    return pool.start(options)


def wait_until(check, timeout=10.0, what="condition"):
    """Polls ``check`` (a cheap read) until it is truthy; bounded."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError("timed out waiting for %s" % what)
