"""axclient.pygame_gui under bad conditions (Specs/pygame-gui-adapter.md §Bad input): a loop stalled for seconds,
a UIManager replaced by another, 50 windows at once, an element killed while an action targets it, an app's
adapter that raises, no window (SDL's dummy video driver), no server yet and a server that restarts. Each has a
defined behaviour, a stderr line where something is lost, and the app keeps running."""
import os
import subprocess
import tempfile
import threading
import time

import pytest

import axclient
from axclient import expect
from axclient.errors import RPCError
from axclient.server import find_axserver
from pgui_support import (ModuleApp, needs_pgui, pgui_app, pgui_client, pgui_display, start_app,  # noqa: F401
                          wait_published)
from tk_support import PACKAGE_DIR, wait_for_app

pytestmark = [needs_pgui, pytest.mark.axserver(demo=False)]


@pytest.fixture(scope="module")
def hostile(axserver_pool, pgui_display):
    module = ModuleApp(axserver_pool, pgui_display, "hostile_app.py")
    try:
        yield module.app, module.client()
    finally:
        module.stop()


def test_fifty_windows_at_once(hostile):
    app, ax = hostile
    ax.get_by_id("popups").click()
    app.wait_line("popups")
    assert ax.wait_until(lambda: len([e for e in ax.apps() if e["id"] == ax.app][0]["windows"]) == 51, timeout=10)
    assert ax.locator('window[label="Popup 49"] >> staticText[label="Label in popup 49"]').count() == 1
    assert 'window "Popup 49" [activeWindow]' in ax.tree_text()  # the front-most is the key window
    expect(ax.get_by_id("state")).to_have_label("50 popups")


def test_a_stalled_loop_fails_the_next_action_which_never_runs_later(hostile):
    app, ax = hostile
    ax.get_by_id("stall").click()  # answered once the click is in the app's queue
    app.wait_line("stalling")
    started = time.monotonic()
    with pytest.raises(RPCError) as caught:
        ax.call("action.activate", {"target": {"id": ax.get_by_id("victim").element()["id"]}})
    assert "busy" in str(caught.value) and time.monotonic() - started < 10
    app.wait_line("unstalled", timeout=15)
    expect(ax.get_by_id("state")).to_have_label("unstalled")
    ax.get_by_id("kill").click()  # the loop runs again: the next action works
    app.wait_line("killed")
    assert "victim pressed" not in app.lines  # the refused action was not performed afterwards


def test_a_killed_element_leaves_the_tree(hostile):
    app, ax = hostile
    expect(ax.get_by_id("victim")).to_be_hidden()
    expect(ax.get_by_id("state")).to_have_label("victim killed")
    with pytest.raises(RPCError):
        ax.call("action.activate", {"target": {"id": "screen/victim"}})
    assert app.process.poll() is None


def test_a_replaced_manager_replaces_the_tree_under_the_same_app(hostile):
    app, ax = hostile
    ax.get_by_id("replace").click()
    app.wait_line("replaced")
    second = ax.get_by_role("button", name="Second screen")
    expect(second).to_be_visible()  # the new manager's elements, in the same app
    expect(ax.get_by_id("replace")).to_be_hidden()  # the old manager is no longer drawn
    assert ax.query_count('window[label^="Popup"]') == 0
    second.click()
    app.wait_line("second pressed")
    assert [e["id"] for e in ax.apps()] == [ax.app]


def test_an_action_on_an_element_killed_before_it_ran_is_target_gone(pgui_display):
    """In process, the real pygame_gui: the action's element was killed after the tree was published and before
    the action ran — it is answered "target gone" and no click lands where the element was."""
    script = r"""
import os, sys
os.environ["SDL_VIDEODRIVER"] = "dummy"
import pygame, pygame_gui
from pygame_gui.elements import UIButton
from axclient.pygame_gui.walker import Mirror
from axclient.kit import TargetGone
from axclient.provider import ActionRequest
pygame.init(); pygame.display.set_mode((300, 200))
manager = pygame_gui.UIManager((300, 200))
victim = UIButton(pygame.Rect(10, 10, 100, 30), "Victim", manager, object_id="#victim")
mirror = Mirror(manager, name="t", address="/nonexistent/ax.sock", retry_interval=60)
mirror.build()
victim.kill()
UIButton(pygame.Rect(10, 10, 100, 30), "Decoy", manager)
pygame.event.clear()
try:
    mirror.perform(ActionRequest({"action": "activate", "target": "screen/victim"}))
    print("performed")
except TargetGone as error:
    print("gone:", error)
print("posted", len([e for e in pygame.event.get() if e.type == pygame.MOUSEBUTTONDOWN]))
"""
    out = subprocess.run([os.sys.executable, "-c", script], capture_output=True, text=True, timeout=60,
                         env=dict(os.environ, SDL_AUDIODRIVER="dummy", PYGAME_HIDE_SUPPORT_PROMPT="1",
                                  PYTHONPATH=PACKAGE_DIR))
    assert "gone: the pygame_gui element 'screen/victim' was killed" in out.stdout, out.stdout + out.stderr
    assert "posted 0" in out.stdout


def test_the_apps_own_adapters_and_one_that_raises(pgui_app, pgui_client):
    app = pgui_app("custom_app.py", runner=False)  # axclient.pygame_gui.mirror(manager) from inside
    ax = pgui_client(app.app_id)
    fuel = ax.get_by_role("progressIndicator", name="Fuel")
    assert fuel.value() == "80%"  # register_adapter(Gauge, …)
    assert ax.get_by_id("plain").role() == "button"
    fancy = ax.get_by_id("fancy")  # the app's adapter raised: its base class's (UIButton's) mapping
    assert fancy.role() == "button" and fancy.label() == "Fancy"
    assert ("the Fancy adapter failed (RuntimeError: this adapter is broken on purpose); using the button mapping"
            in app.stderr_text())
    assert app.process.poll() is None


def test_no_window_dummy_driver_is_mirrored_for_tests(pgui_app, pgui_client):
    app = pgui_app("settings_form.py", name="headless", env={"SDL_VIDEODRIVER": "dummy"})
    ax = pgui_client(app.app_id)
    assert "no window on a screen (SDL video driver 'dummy')" in app.stderr_text()
    assert ax.query_one("window").frame["x"] == 0
    ax.get_by_id("save").click()
    app.wait_line("saved Ada")


def start_server(socket_path):
    process = subprocess.Popen([find_axserver(), "serve", "--socket", socket_path, "--no-atspi"],
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL,
                               text=True)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        line = process.stdout.readline()
        if not line or line.startswith("READY"):
            break
    threading.Thread(target=process.stdout.read, daemon=True).start()
    return process


def stop_server(process):
    process.terminate()
    try:
        process.wait(10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def test_no_server_yet_then_a_server_that_restarts(pgui_display):
    folder = tempfile.mkdtemp(prefix="axpgui-")
    socket_path = os.path.join(folder, "ax.sock")
    app = start_app(pgui_display, socket_path, "settings_form.py")
    server = None
    try:
        app.wait_line("ready")  # the app runs without a server
        deadline = time.monotonic() + 10
        while "retries every" not in app.stderr_text() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert "cannot connect" in app.stderr_text()
        server = start_server(socket_path)
        with axclient.Client(socket_path) as ax:
            app_id = wait_for_app(ax, "settings_form", timeout=15)
            client = axclient.Client(socket_path, app=app_id)
            client.get_by_id("save").click()
            client.close()
        app.wait_line("saved Ada")
        stop_server(server)
        server = start_server(socket_path)
        with axclient.Client(socket_path) as ax:
            app_id = wait_for_app(ax, "settings_form", timeout=15)
            client = axclient.Client(socket_path, app=app_id)
            try:
                expect(client.get_by_id("status")).to_have_label("Saved Ada")  # the state kept meanwhile
            finally:
                client.close()
        assert app.process.poll() is None
    finally:
        app.stop()
        if server is not None:
            stop_server(server)
