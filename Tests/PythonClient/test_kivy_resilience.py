"""axclient.kivy under issue 33's bad input (Specs/kivy-adapter.md §Bad input): 50 popups, no window, a server that is
not there yet and then restarts; and the in-process entry with the custom-class registry. (A stalled loop, a removed
target, a replaced root: test_kivy_live.py; a raising callback: test_kivy_adapter.py.)"""
import os
import subprocess
import sys
import tempfile
import time

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "kivyapps"))
from kivy_support import HERE, KivyApp, kivy_display, needs_kivy, shared_server, start_app  # noqa: E402,F401

import axclient  # noqa: E402
from axclient import expect  # noqa: E402
from test_tk_resilience import start_server, stop_server  # noqa: E402
from tk_support import PACKAGE_DIR, wait_for_app  # noqa: E402

pytestmark = [needs_kivy]


def test_fifty_popups_are_fifty_modal_windows(axserver_pool, kivy_display):
    server = shared_server(axserver_pool)
    app = start_app(server, kivy_display, "settings_app.py", name="popups")
    ax = server.client(client_name="kivy-popups", app=app.app_id, timeout=10)
    try:
        ax.get_by_role("button", name="Many popups").click()
        app.wait_line("50 popups")
        # The server shows the top modal window only: each escape dismisses the front popup and the one below
        # it comes to the front (once: Kivy redraws all 50 on llvmpipe, seconds a frame under load).
        for index in (49,):
            front = ax.locator('window[label="Popup %d"]' % index)
            expect(front).to_be_visible(timeout=20)
            front.locator('staticText[label="n%d"]' % index).escape()
        expect(ax.locator('window[label="Popup 48"]')).to_be_visible(timeout=20)
        assert app.process.poll() is None
    finally:
        ax.close()
        app.stop()


def test_no_window_is_one_line_and_the_program_goes_on(kivy_display):
    env = dict(os.environ, KIVY_WINDOW="none", KIVY_NO_ARGS="1", KIVY_HOME=tempfile.mkdtemp(prefix="axkivy-"),
               PYTHONPATH=PACKAGE_DIR, DISPLAY=kivy_display)
    out = subprocess.run([sys.executable, os.path.join(HERE, "no_window.py")], env=env, capture_output=True,
                         text=True, timeout=60)
    assert out.returncode == 0, out.stderr[-2000:]
    assert "mirror returned None" in out.stdout and "still running" in out.stdout
    assert "axclient.kivy: cannot mirror this Kivy app: Kivy has no window" in out.stderr
    assert "Traceback" not in out.stderr


def test_server_not_running_then_started_then_restarted(kivy_display):
    folder = tempfile.mkdtemp(prefix="axkivy-")
    socket_path = os.path.join(folder, "ax.sock")
    app = KivyApp([os.path.join(HERE, "list_app.py"), "20"], kivy_display, socket_path)
    server = None
    try:
        app.wait_line("ready", 20)  # the app runs without a server
        deadline = time.monotonic() + 10
        while "retries every" not in app.stderr_text() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert "cannot connect" in app.stderr_text() and "retries every" in app.stderr_text()
        server = start_server(socket_path)
        with axclient.Client(socket_path) as ax:
            app_id = wait_for_app(ax, "list_app", timeout=15)
            client = axclient.Client(socket_path, app=app_id)
            client.get_by_role("button", name="Rename").click()
            client.close()
        app.wait_line("renamed 1")
        stop_server(server)
        server = start_server(socket_path)
        with axclient.Client(socket_path) as ax:
            app_id = wait_for_app(ax, "list_app", timeout=15)
            client = axclient.Client(socket_path, app=app_id)
            try:  # re-published with the state the app kept while the server was away
                assert client.query_count('staticText[label="renamed 1"]') == 1
            finally:
                client.close()
        assert "reconnecting" in app.stderr_text()
        assert app.process.poll() is None
    finally:
        app.stop()
        if server is not None:
            stop_server(server)


def test_in_process_mirror_and_a_registered_custom_widget(axserver_pool, kivy_display):
    server = shared_server(axserver_pool)
    app = start_app(server, kivy_display, "inprocess_app.py", runner=False)
    ax = server.client(client_name="kivy-inprocess", app=app.app_id, timeout=8)
    try:
        assert ax.query_one("window").label == "In-process"
        fuel = ax.get_by_role("adjustable", name="Fuel")
        assert fuel.value() == "25%"
        fuel.increment()
        app.wait_line("gauge 0.50")
        expect(fuel).to_have_value("50%")
        ax.get_by_role("button", name="Fill").click()
        expect(fuel).to_have_value("100%")
    finally:
        ax.close()
        app.stop()
