"""Helpers for the axclient.kivy tests: Kivy apps run by ``python3 -m axclient.kivy`` under a private Xvfb, mirrored
into a real axserver. Kivy gets its own KIVY_HOME (no ~/.kivy) and no argument parsing; its console log stays (Kivy routes
sys.stderr through its logger: the adapter's lines reach stderr as Kivy warnings)."""
import importlib.util
import os
import shutil
import sys
import tempfile

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
TESTS = os.path.dirname(HERE)
if TESTS not in sys.path:
    sys.path.insert(0, TESTS)

from tk_support import TkApp, Xvfb, wait_for_app  # noqa: E402

# Found, not imported: importing Kivy in the test process would parse pytest's arguments and write ~/.kivy.
HAVE_KIVY = importlib.util.find_spec("kivy") is not None

needs_kivy = pytest.mark.skipif(not HAVE_KIVY or shutil.which("Xvfb") is None,
                                reason="needs kivy (Tools/requirements-test.txt) and Xvfb (Tools/install-deps.sh)")


def examples_dir():
    """share/kivy-examples of the venv (PyPI kivy-examples), or None."""
    path = os.path.join(sys.prefix, "share", "kivy-examples")
    return path if os.path.isdir(path) else None


class KivyApp(TkApp):
    """A Kivy program started with ``python3 -m axclient.kivy --socket S [--name N] ARGS``."""

    def __init__(self, args, display, socket, name=None, env=None, cwd=None, runner=True):
        self.home = tempfile.mkdtemp(prefix="axkivy-home-")
        kivy_env = {"KIVY_HOME": self.home, "KIVY_NO_ARGS": "1",
                    "KIVY_NO_FILELOG": "1", "KIVY_NO_CONFIG": "1", "SDL_AUDIODRIVER": "dummy"}
        kivy_env.update(env or {})
        prefix = ["-m", "axclient.kivy", "--socket", socket] + (["--name", name] if name else []) if runner else []
        super().__init__(prefix + list(args), display, socket, env=kivy_env, cwd=cwd, runner=False)

    def stop(self):
        super().stop()
        shutil.rmtree(self.home, ignore_errors=True)


def start_app(pool_server, display, script, name=None, args=(), env=None, wait_ready=True, runner=True):
    """Starts ``kivyapps/<script>`` (or an absolute path) and waits until the server has its first snapshot."""
    path = script if os.path.isabs(script) else os.path.join(HERE, script)
    app = KivyApp([path] + list(args), display, pool_server.socket, name=name, env=env, runner=runner)
    app.name = name or os.path.splitext(os.path.basename(path))[0]
    client = pool_server.client(client_name="kivy-support")
    try:
        app.app_id = wait_for_app(client, app.name, timeout=30)
    except AssertionError:
        message = "%s; app stderr: %s" % (sys.exc_info()[1], app.stderr_text()[-3000:])
        app.stop()
        raise AssertionError(message)
    finally:
        client.close()
    if wait_ready:
        app.wait_line("ready", 20)
    return app


def shared_server(pool, atspi=False):
    """The pool's shared server without the demo (one per module's options)."""
    options = pool.options(None)
    options.update(demo=False, shared=True, atspi=atspi)
    return pool.shared(options)


@pytest.fixture(scope="module")
def kivy_display():
    if not HAVE_KIVY or shutil.which("Xvfb") is None:
        pytest.skip("needs kivy and Xvfb")
    server = Xvfb()
    try:
        yield server.display
    finally:
        server.stop()
