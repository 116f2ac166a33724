"""axclient.dearpygui on AT-SPI: pyatspi (Debian's, in /usr/bin/python3 with the private stack's environment, as
Orca uses it) sees a Dear PyGui app's items with roles, names, states and actions; real X keys (xdotool into
Xvfb) typed into the app reach a keystroke listener registered like Orca's — except the characters typed into a
password field — before Dear PyGui sees them: a key the listener consumes never reaches the app
(Specs/dearpygui-adapter.md §Focus and keys, D-DPG-KEYS-1)."""
import json
import os
import shutil
import subprocess
import threading
import time

import pytest

from dpgapps.dpg_support import module_server, needs_dpg, start_app, wait_until
from tk_support import xvfb_display  # noqa: F401

HERE = os.path.dirname(os.path.abspath(__file__))
LISTENER = os.path.join(HERE, "..", "Integration", "key_listener.py")
SYSTEM_PYTHON = "/usr/bin/python3"


def have_pyatspi():
    return subprocess.run([SYSTEM_PYTHON, "-c", "import pyatspi"], capture_output=True, timeout=30).returncode == 0


pytestmark = [needs_dpg, pytest.mark.skipif(not have_pyatspi(), reason="needs python3-pyatspi (install-deps)")]

WALK = r"""
import json, sys, time
import pyatspi
deadline = time.time() + 20
found = None
while found is None and time.time() < deadline:
    desktop = pyatspi.Registry.getDesktop(0)
    for index in range(desktop.childCount):
        app = desktop.getChildAtIndex(index)
        if app is not None and app.name == sys.argv[1]:
            found = app
    if found is None:
        time.sleep(0.2)
rows = []
def walk(node, depth):
    if node is None or depth > 40:
        return
    states = [pyatspi.stateToString(s) for s in node.getState().getStates()]
    try:
        action = node.queryAction()
        actions = [action.getName(i) for i in range(action.nActions)]
    except NotImplementedError:
        actions = []
    rows.append({"role": node.getRoleName(), "name": node.name, "states": states, "actions": actions})
    for index in range(node.childCount):
        walk(node.getChildAtIndex(index), depth + 1)
if found is not None:
    walk(found, 0)
print(json.dumps(rows))
"""


@pytest.fixture(scope="module")
def server(axserver_pool):
    srv = module_server(axserver_pool, atspi=True)
    yield srv
    axserver_pool.release(srv)


@pytest.fixture(scope="module")
def app(server, xvfb_display):
    started = start_app(server, xvfb_display, "settings_app.py", args=("--keys",))
    yield started
    started.stop()


def test_pyatspi_sees_roles_names_states_and_actions(server, app):
    out = subprocess.run([SYSTEM_PYTHON, "-c", WALK, "settings_app"], env=server.stack.env(), capture_output=True,
                         text=True, timeout=60)
    rows = json.loads(out.stdout.strip().splitlines()[-1])
    by_name = {}
    for row in rows:
        by_name.setdefault(row["name"], []).append(row)
    assert any(r["role"] == "frame" for r in by_name.get("Settings", [])), rows[:10]
    apply = by_name.get("Apply", [])
    assert any(r["role"] == "push button" and r["actions"] for r in apply), apply
    assert any(r["role"] in ("text", "entry") for r in by_name.get("Name", [])), by_name.get("Name")
    assert any(r["role"] == "password text" for r in by_name.get("Password", [])), by_name.get("Password")
    assert any(r["role"] == "slider" for r in by_name.get("Volume", [])), by_name.get("Volume")
    assert any(r["role"] in ("toggle button", "check box", "switch") for r in by_name.get("Dark mode", []))
    general = by_name.get("General", [])
    assert any(r["role"] == "page tab" and "selected" in r["states"] for r in general), general
    assert any("expandable" in r["states"] or "collapsed" in r["states"] for r in by_name.get("Advanced", []))


class Lines:
    def __init__(self, process):
        self.lines, self.cond = [], threading.Condition()
        threading.Thread(target=self.read, args=(process,), daemon=True).start()

    def read(self, process):
        for line in process.stdout:
            with self.cond:
                self.lines.append(line.strip())
                self.cond.notify_all()

    def wait(self, predicate, timeout=15):
        deadline = time.monotonic() + timeout
        with self.cond:
            while not any(predicate(line) for line in self.lines):
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    raise AssertionError("no such line in %r" % self.lines[-40:])
                self.cond.wait(remaining)

    def heard(self, name):
        with self.cond:
            return [line for line in self.lines if '"event_string": "%s"' % name in line]


def click_into(server, app, display, view_id):
    client = server.client(client_name="dpg-keys", app=app.app_id)
    try:
        frame = client.get_by_id(view_id).element()["frame"]
    finally:
        client.close()
    x, y = int(frame["x"] + frame["width"] / 2), int(frame["y"] + frame["height"] / 2)
    env = dict(os.environ, DISPLAY=display)
    subprocess.run(["xdotool", "mousemove", str(x), str(y), "click", "1"], env=env, check=True, timeout=20)
    return env


@pytest.mark.skipif(shutil.which("xdotool") is None, reason="needs xdotool (Tools/install-deps.sh)")
def test_real_keys_reach_the_screen_reader_but_not_a_passwords_characters(server, app, xvfb_display):
    listener = subprocess.Popen([SYSTEM_PYTHON, LISTENER], env=server.stack.env(), stdout=subprocess.PIPE,
                                stderr=subprocess.DEVNULL, text=True)
    try:
        heard = Lines(listener)
        heard.wait(lambda line: line == "READY", timeout=30)
        env = click_into(server, app, xvfb_display, "name")
        subprocess.run(["xdotool", "key", "--delay", "60", "End", "o", "k"], env=env, check=True, timeout=30)
        app.wait_line("changed name 'Adaok'")  # Dear PyGui got the keys…
        heard.wait(lambda line: '"event_string": "o"' in line and '"press"' in line)  # …and so did the listener
        heard.wait(lambda line: '"event_string": "k"' in line and '"release"' in line)
        click_into(server, app, xvfb_display, "password")
        subprocess.run(["xdotool", "key", "--delay", "60", "End", "q", "Tab"], env=env, check=True, timeout=30)
        app.wait_line("changed password 's3cret-pinq'")  # the app has the character…
        heard.wait(lambda line: '"event_string": "Tab"' in line)
        assert heard.heard("q") == []  # …the screen reader never heard it (it would spell the secret)
    finally:
        listener.terminate()
        listener.wait(10)


@pytest.mark.skipif(shutil.which("xdotool") is None, reason="needs xdotool (Tools/install-deps.sh)")
def test_a_key_the_screen_reader_consumes_never_reaches_the_app(server, app, xvfb_display):
    listener = subprocess.Popen([SYSTEM_PYTHON, LISTENER, "--consume", "F9,z"], env=server.stack.env(),
                                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        heard = Lines(listener)
        heard.wait(lambda line: line == "READY", timeout=30)
        env = click_into(server, app, xvfb_display, "name")
        subprocess.run(["xdotool", "key", "--delay", "60", "F9", "F8"], env=env, check=True, timeout=30)
        heard.wait(lambda line: '"event_string": "F9"' in line and '"press"' in line)  # heard and consumed…
        heard.wait(lambda line: '"event_string": "F8"' in line and '"release"' in line)
        app.wait_line("key F8")  # …F8 was not consumed: the app got it, after F9 (typed first)
        assert "key F9" not in app.lines, app.lines[-20:]  # the consumed F9 never reached Dear PyGui
        assert "keys are forwarded after" not in app.stderr_text()  # the GLFW path, not the fallback
        subprocess.run(["xdotool", "key", "--delay", "60", "End", "z", "x"], env=env, check=True, timeout=30)
        heard.wait(lambda line: '"event_string": "z"' in line and '"press"' in line)
        typed = wait_until(lambda: [line for line in app.lines if line.startswith("changed name") and
                                    line.endswith("x'")], what="the x typed into Name")
        assert "z" not in typed[0], typed  # a consumed letter's character never reached the text field either
    finally:
        listener.terminate()
        listener.wait(10)


@pytest.mark.skipif(shutil.which("xdotool") is None, reason="needs xdotool (Tools/install-deps.sh)")
def test_the_fallback_forwards_keys_after_dear_pygui_and_says_so_once(server, xvfb_display):
    fallback = start_app(server, xvfb_display, "settings_app.py", args=("--keys",), name="settings_fallback",
                         env={"AXCLIENT_DPG_GLFW_KEYS": "0"})
    listener = subprocess.Popen([SYSTEM_PYTHON, LISTENER, "--consume", "F9"], env=server.stack.env(),
                                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        heard = Lines(listener)
        heard.wait(lambda line: line == "READY", timeout=30)
        env = click_into(server, fallback, xvfb_display, "name")
        subprocess.run(["xdotool", "key", "--delay", "60", "F9", "F8"], env=env, check=True, timeout=30)
        heard.wait(lambda line: '"event_string": "F9"' in line and '"press"' in line)  # still forwarded…
        heard.wait(lambda line: '"event_string": "F8"' in line and '"release"' in line)
        fallback.wait_line("key F8")
        assert "key F9" in fallback.lines  # …but after Dear PyGui saw it: the consumed key reached the app
        warned = [line for line in fallback.stderr_text().splitlines() if "keys are forwarded after" in line]
        assert len(warned) == 1 and "AXCLIENT_DPG_GLFW_KEYS=0" in warned[0], warned
    finally:
        listener.terminate()
        listener.wait(10)
        fallback.stop()
