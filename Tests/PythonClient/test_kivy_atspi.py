"""axclient.kivy on AT-SPI: a screen reader's view of a Kivy app. The server runs with a private AT-SPI stack;
pyatspi (Debian's python3-pyatspi through /usr/bin/python3, as Orca uses it) finds the Kivy app's controls with
roles, names, states and actions; real X keys (xdotool into Xvfb) typed into the Kivy window reach a keystroke
listener registered like Orca's before Kivy, and a key it consumes never reaches the app (Specs/kivy-adapter.md
§Keys)."""
import json
import os
import shutil
import subprocess
import sys
import threading
import time

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "kivyapps"))
from kivy_support import kivy_display, needs_kivy, shared_server, start_app  # noqa: E402,F401

from test_tk_atspi import LISTENER, SYSTEM_PYTHON, WALK, Lines, have_pyatspi  # noqa: E402

pytestmark = [needs_kivy, pytest.mark.skipif(not have_pyatspi(), reason="needs python3-pyatspi")]

ACTIONS = WALK.replace('rows.append({"role": node.getRoleName(), "name": node.name, "states": states})', '''
    try:
        action = node.queryAction()
        actions = [action.getName(i) for i in range(action.nActions)]
    except NotImplementedError:
        actions = []
    rows.append({"role": node.getRoleName(), "name": node.name, "states": states, "actions": actions})''')


@pytest.fixture(scope="module")
def atspi_app(axserver_pool, kivy_display):
    server = shared_server(axserver_pool, atspi=True)
    app = start_app(server, kivy_display, "settings_app.py")
    client = server.client(client_name="kivy-atspi", app=app.app_id, timeout=8)
    try:
        yield app, client, server
    finally:
        client.close()
        app.stop()


def test_pyatspi_sees_roles_names_states_and_actions(atspi_app):
    app, ax, server = atspi_app
    out = subprocess.run([SYSTEM_PYTHON, "-c", ACTIONS, "settings_app"], env=server.stack.env(),
                         capture_output=True, text=True, timeout=60)
    rows = json.loads(out.stdout.strip().splitlines()[-1])
    by_name = {}
    for row in rows:
        by_name.setdefault(row["name"], []).append(row)
    assert any(r["role"] == "frame" and r["name"] == "Kivy Settings" for r in rows), rows[:5]
    assert any(r["role"] == "push button" and "click" in r["actions"] for r in by_name.get("Save", [])), \
        by_name.get("Save")
    assert any(r["role"] in ("text", "entry") for r in by_name.get("Name", [])), by_name.get("Name")
    assert any(r["role"] == "password text" for r in by_name.get("Password", [])), by_name.get("Password")
    assert any(r["role"] == "slider" for r in by_name.get("Volume", [])), by_name.get("Volume")
    assert any(r["role"] == "radio button" and "checked" in r["states"] for r in by_name.get("Red", [])), \
        by_name.get("Red")
    assert any("enabled" not in r["states"] for r in by_name.get("Disabled", [])), by_name.get("Disabled")
    assert any(r["role"] in ("check box", "toggle button", "switch") for r in by_name.get("Newsletter", [])), \
        by_name.get("Newsletter")
    assert by_name.get("Oslo"), "the RecycleView row"


@pytest.mark.skipif(shutil.which("xdotool") is None, reason="needs xdotool (Tools/install-deps.sh)")
def test_real_keys_reach_the_screen_reader_first(atspi_app, kivy_display):
    app, ax, server = atspi_app
    listener = subprocess.Popen([SYSTEM_PYTHON, LISTENER, "--consume", "F9"], env=server.stack.env(),
                                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        heard = Lines(listener)
        heard.wait(lambda line: line == "READY", timeout=30)
        name = ax.locator('textField[label="Name"]')
        name.fill("")
        name.click()  # Kivy's focus on the TextInput
        assert ax.wait_until(lambda: name.is_focused(), timeout=5)
        env = dict(os.environ, DISPLAY=kivy_display)
        window = subprocess.run(["xdotool", "search", "--pid", str(app.process.pid)], env=env, capture_output=True,
                                text=True, timeout=10).stdout.split()
        assert window, "no X window for the Kivy app"
        subprocess.run(["xdotool", "windowfocus", "--sync", window[-1]], env=env, capture_output=True, timeout=10)
        subprocess.run(["xdotool", "type", "--delay", "30", "ok"], env=env, check=True, timeout=30)
        subprocess.run(["xdotool", "key", "F9"], env=env, check=True, timeout=30)
        heard.wait(lambda line: '"event_string": "o"' in line and '"press"' in line)
        heard.wait(lambda line: '"event_string": "F9"' in line and '"press"' in line)
        assert ax.wait_until(lambda: name.value() == "ok", timeout=5), name.value()
        subprocess.run(["xdotool", "key", "F8"], env=env, check=True, timeout=30)
        heard.wait(lambda line: '"event_string": "F8"' in line)
        app.wait_line("app key f8")  # not consumed: it reached the app's own handler…
        assert "app key f9" not in app.lines  # …the consumed F9 (pressed before it) never did
        assert "app key o" in app.lines
        # Typed into the password field, the characters are never forwarded (they would spell the secret); the
        # key after them is, so the listener's silence about "q" is not a lost connection.
        password = ax.get_by_role("secureTextField", name="Password")
        password.click()
        assert ax.wait_until(lambda: password.is_focused(), timeout=5)
        subprocess.run(["xdotool", "type", "--delay", "30", "qq"], env=env, check=True, timeout=30)
        subprocess.run(["xdotool", "key", "F7"], env=env, check=True, timeout=30)
        heard.wait(lambda line: '"event_string": "F7"' in line)
        app.wait_line("app key q")  # the app got them
        assert not [line for line in heard.lines if '"event_string": "q"' in line], heard.lines[-6:]
    finally:
        listener.terminate()
        listener.wait(10)
