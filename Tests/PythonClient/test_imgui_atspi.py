"""axclient.imgui on AT-SPI: a screen reader's view of an imgui_bundle app. The server runs with a private AT-SPI
stack; pyatspi (Debian's python3-pyatspi, as Orca uses it) finds the ImGui controls with roles, names, states and
actions; real X keys (xdotool into Xvfb → GLFW → the adapter's key callback) reach a keystroke listener registered
like Orca's before ImGui sees them, a key it consumes never reaches the app, and Tab moves ImGui's nav focus,
which is the mirror's focus (Specs/imgui-adapter.md §Focus and keys)."""
import json
import os
import shutil
import subprocess
import time

import pytest

from test_imgui_adapter import start_app
from test_tk_atspi import LISTENER, SYSTEM_PYTHON, WALK, Lines, have_pyatspi
from tk_support import needs_tk, wait_for_app, xvfb_display  # noqa: F401

pytest.importorskip("imgui_bundle", reason="Tools/requirements-test.txt installs imgui_bundle")
pytestmark = [needs_tk, pytest.mark.axserver(demo=False, atspi=True, fresh=True),
              pytest.mark.skipif(not have_pyatspi(), reason="needs python3-pyatspi (Tools/install-deps.sh)"),
              pytest.mark.skipif(shutil.which("xdotool") is None, reason="needs xdotool (Tools/install-deps.sh)")]

ACTIONS = r"""
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
    time.sleep(0.1) if found is None else None
def find(node, depth=0):
    if node is None or depth > 40:
        return None
    if node.name == sys.argv[2] and node.getRoleName() == "push button":
        return node
    for index in range(node.childCount):
        hit = find(node.getChildAtIndex(index), depth + 1)
        if hit is not None:
            return hit
greet = find(found)
action = greet.queryAction()
names = [action.getName(i) for i in range(action.nActions)]
action.doAction(names.index("click") if "click" in names else 0)
print(json.dumps(names))
"""


def _focused(locator, timeout=0.5):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if locator.is_focused():
            return True
        time.sleep(0.05)
    return False


@pytest.fixture
def form(xvfb_display, axserver):
    app = start_app(xvfb_display, axserver.socket, "settings_form.py", "50")
    client = axserver.client(client_name="imgui-atspi", timeout=5.0)
    try:
        app_id = wait_for_app(client, "settings_form")
        client.close()
        client = axserver.client(client_name="imgui-atspi", app=app_id, timeout=5.0)
        yield app, client
    finally:
        client.close()
        app.stop()


def test_pyatspi_sees_roles_names_states_and_clicks_a_button(form, axserver):
    app, ax = form
    out = subprocess.run([SYSTEM_PYTHON, "-c", WALK, "settings_form"], env=axserver.stack.env(),
                         capture_output=True, text=True, timeout=60)
    rows = json.loads(out.stdout.strip().splitlines()[-1])
    by_name = {}
    for row in rows:
        by_name.setdefault(row["name"], []).append(row)
    assert any(r["role"] == "push button" for r in by_name.get("Greet", [])), rows[:40]
    assert any(r["role"] in ("text", "entry") for r in by_name.get("Name", [])), by_name.get("Name")
    assert any(r["role"] == "password text" for r in by_name.get("Password", [])), by_name.get("Password")
    assert any(r["role"] == "slider" for r in by_name.get("Volume", [])), by_name.get("Volume")
    assert any(r["role"] in ("check box", "toggle button", "switch") for r in by_name.get("Dark mode", []))
    assert any("checked" in r["states"] or "selected" in r["states"] for r in by_name.get("Medium", []))
    assert any(r["role"] == "frame" and r["name"] == "Settings" for r in rows)
    assert any("collapsed" in r["states"] or "expandable" in r["states"] for r in by_name.get("Files", []))
    out = subprocess.run([SYSTEM_PYTHON, "-c", ACTIONS, "settings_form", "Greet"], env=axserver.stack.env(),
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    app.wait_line("greeted ")  # the AT-SPI click ran the app's own code (name empty)


def test_real_keys_reach_the_screen_reader_first_and_tab_moves_the_nav_focus(form, axserver, xvfb_display):
    app, ax = form
    listener = subprocess.Popen([SYSTEM_PYTHON, LISTENER, "--consume", "F9"], env=axserver.stack.env(),
                                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    env = dict(os.environ, DISPLAY=xvfb_display)
    try:
        heard = Lines(listener)
        heard.wait(lambda line: line == "READY", timeout=30)
        window = subprocess.run(["xdotool", "search", "--sync", "--name", "Settings form"], env=env,
                                capture_output=True, text=True, timeout=20).stdout.split()[-1]
        subprocess.run(["xdotool", "windowfocus", "--sync", window], env=env, capture_output=True, timeout=10)
        for _ in range(10):  # the window has the keyboard once a key reached the listener (CI under load lost a first)
            subprocess.run(["xdotool", "key", "F8"], env=env, check=True, timeout=30)
            try:
                heard.wait(lambda line: '"event_string": "F8"' in line and '"press"' in line, timeout=2)
                break
            except AssertionError:
                continue
        app.wait_line("key F8")  # not consumed: ImGui got it

        def f8_presses():
            return sum('"event_string": "F8"' in line and '"press"' in line for line in heard.lines)

        warm = f8_presses()
        subprocess.run(["xdotool", "key", "F9"], env=env, check=True, timeout=30)
        subprocess.run(["xdotool", "key", "F8"], env=env, check=True, timeout=30)
        heard.wait(lambda line: '"event_string": "F9"' in line and '"press"' in line)
        heard.wait(lambda _line: f8_presses() > warm)  # the F8 after F9 reached the listener
        deadline = time.monotonic() + 15
        while app.lines.count("key F8") < f8_presses() and time.monotonic() < deadline:
            time.sleep(0.05)  # ... and ImGui: every F8 the listener passed on, F9 had its turn before the last
        assert app.lines.count("key F8") >= f8_presses(), (app.lines, heard.lines)
        assert "key F9" not in app.lines  # consumed by the listener: ImGui never saw it
        before = ax.focused_element() if hasattr(ax, "focused_element") else None
        focused = [ax.query_all(":focused")]
        presses = 0
        # Three Tabs, each moving the focus; one more allowed because ImGui's first Tab may only show its nav cursor
        # on the item that already had the nav focus (a Tab then moves nothing).
        while len(focused) < 4 and presses < 4:
            subprocess.run(["xdotool", "key", "Tab"], env=env, check=True, timeout=30)
            presses += 1
            heard.wait(lambda line: '"event_string": "Tab"' in line)
            deadline = time.monotonic() + 5
            while time.monotonic() < deadline:
                now = ax.query_all(":focused")
                if now and [e.id for e in now] != [e.id for e in focused[-1]]:
                    focused.append(now)
                    break
                time.sleep(0.05)
        ids = [[e.id for e in group] for group in focused[1:]]
        assert len(ids) == 3 and len({tuple(group) for group in ids}) == 3, (before, presses, ids)
        name = ax.get_by_role("textField", name="Name")
        for _ in range(20):  # round ImGui's tab order to the Name field
            if _focused(name):
                break
            subprocess.run(["xdotool", "key", "Tab"], env=env, check=True, timeout=30)
        assert name.is_focused()
        subprocess.run(["xdotool", "type", "--delay", "40", "Ada"], env=env, check=True, timeout=30)
        heard.wait(lambda line: '"event_string": "a"' in line and '"press"' in line)
        assert ax.wait_until(lambda: name.value() == "Ada", timeout=5), (name.value(), app.stderr_text())
    finally:
        listener.terminate()
        listener.wait(10)
