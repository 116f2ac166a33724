"""Fixtures for the axclient.pygame_gui tests: a private Xvfb display and pygame_gui apps run by
``python3 -m axclient.pygame_gui`` (Tests/PythonClient/pguiapps; they know nothing of AXServer), mirrored into the
``axserver`` fixture's server. Import into a test module:
``from pgui_support import needs_pgui, pgui_app, pgui_client, pgui_display  # noqa: F401``."""
import os
import shutil
import sys

import pytest

from tk_support import TkApp, Xvfb, wait_for_app

HERE = os.path.dirname(os.path.abspath(__file__))
APPS = os.path.join(HERE, "pguiapps")

try:
    import pygame_gui  # noqa: F401
    HAVE_PGUI = True
except ImportError:  # pragma: no cover - Tools/requirements-test.txt installs pygame_gui into the test venv
    HAVE_PGUI = False

needs_pgui = pytest.mark.skipif(not HAVE_PGUI or shutil.which("Xvfb") is None,
                                reason="needs pygame_gui (Tools/requirements-test.txt) and Xvfb")

#: The environment every app gets: SDL on the private X display, no sound card, no pygame banner.
SDL_ENV = {"SDL_VIDEODRIVER": "x11", "SDL_AUDIODRIVER": "dummy", "PYGAME_HIDE_SUPPORT_PROMPT": "1"}


class PguiApp(TkApp):
    """A pygame_gui program started with ``python3 -m axclient.pygame_gui`` (or plain ``python3`` when the
    script mirrors itself): ``lines`` (stdout), ``wait_line(text)``, ``stderr_text()``, ``stop()``."""

    def __init__(self, args, display, socket, name=None, env=None):
        merged = dict(SDL_ENV)
        merged.update(env or {})
        super().__init__(args, display, socket, name=name, env=merged, runner=False)

    @staticmethod
    def command(args, socket, name, runner):
        command = [sys.executable]
        if runner:
            command += ["-m", "axclient.pygame_gui", "--socket", socket] + (["--name", name] if name else [])
        return command + list(args)


@pytest.fixture(scope="session")
def pgui_display():
    """The DISPLAY of a private Xvfb shared by the session's pygame_gui tests."""
    if not HAVE_PGUI or shutil.which("Xvfb") is None:
        pytest.skip("needs pygame_gui and Xvfb")
    server = Xvfb()
    try:
        yield server.display
    finally:
        server.stop()


def start_app(display, socket, target, name=None, args=(), env=None, runner=True, module=False):
    """Starts an app from pguiapps (or ``-m MODULE``); returns the :class:`PguiApp` (not yet waited for)."""
    argv = ["-m", target] if module else [os.path.join(APPS, target)]
    command = PguiApp.command(argv + list(args), socket, name, runner)
    app = PguiApp(command[1:], display, socket, env=env)
    app.name = name or (target if module else os.path.splitext(os.path.basename(target))[0])
    app.app_id = None
    return app


def wait_published(app, axserver, timeout=20.0):
    """Waits until the app is listed with its first snapshot and printed "ready"; sets ``app.app_id``."""
    ax = axserver.client(client_name="pgui-support")
    try:
        app.app_id = wait_for_app(ax, app.name, timeout)
    except AssertionError:
        raise AssertionError("%s; app stderr: %s" % (sys.exc_info()[1], app.stderr_text()))
    finally:
        ax.close()
    app.wait_line("ready", 15)
    return app


@pytest.fixture
def pgui_app(pgui_display, axserver):
    """A factory: ``pgui_app("settings_form.py", name=None, args=(), env=None, wait=True)`` starts an app
    mirrored into the ``axserver`` fixture's server and waits until it published its tree. Stopped after the
    test."""
    started = []

    def start(target, name=None, args=(), env=None, wait=True, runner=True):
        app = start_app(pgui_display, axserver.socket, target, name, args, env, runner)
        started.append(app)
        return wait_published(app, axserver) if wait else app

    try:
        yield start
    finally:
        for app in started:
            app.stop()


@pytest.fixture
def pgui_client(axserver):
    """A factory: ``pgui_client(app_id)`` is an :class:`axclient.Client` whose queries default to that app."""
    clients = []

    def make(app_id, timeout=5.0):
        client = axserver.client(client_name="pgui-test", app=app_id, timeout=timeout)
        clients.append(client)
        return client

    try:
        yield make
    finally:
        for client in clients:
            client.close()


class ModuleApp:
    """One app (and its own server) for a whole test module: ``app``, ``server``, ``client(**options)``."""

    def __init__(self, pool, display, target, options=None, **start):
        merged = pool.options(None)
        merged.update({"demo": False})
        merged.update(options or {})
        self.pool = pool
        self.server = pool.start(merged)
        self.clients = []
        try:
            self.app = start_app(display, self.server.socket, target, **start)
            wait_published(self.app, self.server)
        except BaseException:
            self.stop()
            raise

    def client(self, timeout=5.0, **options):
        client = self.server.client(client_name="pgui-test", app=self.app.app_id, timeout=timeout, **options)
        self.clients.append(client)
        return client

    def stop(self):
        for client in self.clients:
            client.close()
        app = getattr(self, "app", None)
        if app is not None:
            app.stop()
        self.pool.release(self.server)
