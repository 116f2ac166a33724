"""axclient.pygame_gui on AT-SPI: a screen reader's view of an unmodified pygame_gui app. The server runs with a
private AT-SPI stack; pyatspi (Debian's python3-pyatspi, as Orca uses it) finds the app's controls with roles,
names, states and actions; real X keys (xdotool into Xvfb) typed into the app reach a keystroke listener registered
like Orca's before the app sees them, a key it consumes never reaches the app, and a character typed into the
password field is never sent (Specs/pygame-gui-adapter.md §Focus and keys)."""
import json
import os
import shutil
import subprocess
import time

import pytest

from pgui_support import needs_pgui, pgui_app, pgui_client, pgui_display  # noqa: F401
from test_tk_atspi import LISTENER, SYSTEM_PYTHON, Lines, have_pyatspi

pytestmark = [needs_pgui, pytest.mark.axserver(demo=False, atspi=True, fresh=True),
              pytest.mark.skipif(not have_pyatspi(), reason="needs python3-pyatspi (Tools/install-deps.sh)"),
              pytest.mark.skipif(shutil.which("xdotool") is None, reason="needs xdotool (Tools/install-deps.sh)")]

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


def xdotool(display, *args):
    subprocess.run(["xdotool"] + list(args), env=dict(os.environ, DISPLAY=display), check=True, timeout=30,
                   capture_output=True)


def focus_window(display, app):
    """Gives the app's X window the keyboard focus (found by its _NET_WM_PID: SDL's UTF-8 WM_NAME escapes
    xdotool's --name)."""
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:
        out = subprocess.run(["xdotool", "search", "--pid", str(app.process.pid)],
                             env=dict(os.environ, DISPLAY=display), capture_output=True, text=True, timeout=10)
        if out.stdout.split():
            xdotool(display, "windowfocus", "--sync", out.stdout.split()[-1])
            return
        time.sleep(0.1)
    raise AssertionError("no X window of the app (pid %d)" % app.process.pid)


def test_pyatspi_sees_roles_names_states_and_actions(pgui_app, axserver):
    pgui_app("settings_form.py")
    out = subprocess.run([SYSTEM_PYTHON, "-c", WALK, "settings_form"], env=axserver.stack.env(),
                         capture_output=True, text=True, timeout=60)
    rows = json.loads(out.stdout.strip().splitlines()[-1])
    by_name = {}
    for row in rows:
        by_name.setdefault(row["name"], []).append(row)
    save = [r for r in by_name.get("Save", []) if r["role"] == "push button"]
    assert save and save[0]["actions"], rows[:30]
    assert any(r["role"] in ("text", "entry") and "editable" in r["states"] for r in by_name.get("Name", []))
    assert any(r["role"] == "password text" for r in by_name.get("Password", [])), by_name.get("Password")
    assert any(r["role"] == "slider" for r in by_name.get("Volume", [])), by_name.get("Volume")
    assert any(r["role"] == "check box" or r["role"] == "toggle button" for r in by_name.get("Newsletter", []))
    export = by_name.get("Export", [])
    assert export and all("enabled" not in r["states"] for r in export)
    assert any(r["role"] == "progress bar" for r in by_name.get("Upload", [])), by_name.get("Upload")
    assert any(r["role"] == "frame" and r["name"] == "Settings" for r in rows)


def test_real_keys_reach_the_screen_reader_first_and_a_consumed_one_never_the_app(pgui_app, pgui_client, axserver,
                                                                                 pgui_display):
    app = pgui_app("settings_form.py")
    ax = pgui_client(app.app_id)
    listener = subprocess.Popen([SYSTEM_PYTHON, LISTENER, "--consume", "F9"], env=axserver.stack.env(),
                                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        heard = Lines(listener)
        heard.wait(lambda line: line == "READY", timeout=30)
        focus_window(pgui_display, app)
        ax.get_by_id("name").fill("")
        ax.get_by_id("name").click()  # pygame_gui's focus on the entry
        assert ax.wait_until(lambda: ax.get_by_id("name").is_focused(), timeout=5)
        xdotool(pgui_display, "type", "--delay", "30", "ok")
        xdotool(pgui_display, "key", "F9")
        heard.wait(lambda line: '"event_string": "o"' in line and '"press"' in line)
        heard.wait(lambda line: '"event_string": "F9"' in line and '"press"' in line)
        assert ax.wait_until(lambda: ax.get_by_id("name").value() == "ok", timeout=5)
        xdotool(pgui_display, "key", "F8")
        app.wait_line("key f8")  # keys are in order: F9 before F8, and F9 never reached the app
        assert "key f9" not in app.lines
        # Tab is the app's own focus traversal: the mirror's focus follows pygame_gui's.
        xdotool(pgui_display, "key", "Tab")
        assert ax.wait_until(lambda: ax.get_by_id("password").is_focused(), timeout=5)
        heard_before = len(heard.lines)
        xdotool(pgui_display, "type", "--delay", "30", "zq")
        app.wait_line("text **********")  # the app got both characters (hunter2 + zq)
        xdotool(pgui_display, "key", "F7")
        heard.wait(lambda line: '"event_string": "F7"' in line)
        typed = [line for line in heard.lines[heard_before:] if '"event_string": "z"' in line
                 or '"event_string": "q"' in line]
        assert typed == []  # keys typed into a masked field are not forwarded: they would spell the secret
        # A key a client sends (input.key → the listener, then the app as the `key` action) reaches the app once
        # and is not forwarded back to the server: the listener hears its press once.
        ax.keyboard.press("F6", app=app.app_id)
        app.wait_line("key f6")
        xdotool(pgui_display, "key", "F5")
        heard.wait(lambda line: '"event_string": "F5"' in line and '"press"' in line)
        assert len([line for line in heard.lines if '"event_string": "F6"' in line and '"press"' in line]) == 1
    finally:
        listener.terminate()
        listener.wait(10)
