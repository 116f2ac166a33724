"""axclient.tk on AT-SPI: a screen reader's view of a Tk app. The server runs with a private AT-SPI stack; pyatspi
(Debian's python3-pyatspi, in /usr/bin/python3 with the stack's environment, as Orca uses it) finds the Tk app's
controls with roles, names and states; real X keys (xdotool into Xvfb) typed into the Tk app reach a keystroke
listener registered like Orca's, and a key it consumes never reaches Tk (Specs/tk-adapter.md §Focus and keys)."""
import json
import os
import shutil
import subprocess
import sys
import threading
import time

import pytest

from tk_support import needs_tk, tk_app, tk_client, xvfb_display  # noqa: F401

HERE = os.path.dirname(os.path.abspath(__file__))
LISTENER = os.path.join(HERE, "..", "Integration", "key_listener.py")
SYSTEM_PYTHON = "/usr/bin/python3"


def have_pyatspi():
    return subprocess.run([SYSTEM_PYTHON, "-c", "import pyatspi"], capture_output=True, timeout=30).returncode == 0


pytestmark = [needs_tk, pytest.mark.axserver(demo=False, atspi=True, fresh=True),
              pytest.mark.skipif(not have_pyatspi(), reason="needs python3-pyatspi (Tools/install-deps.sh)")]

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
    rows.append({"role": node.getRoleName(), "name": node.name, "states": states})
    for index in range(node.childCount):
        walk(node.getChildAtIndex(index), depth + 1)
if found is not None:
    walk(found, 0)
print(json.dumps(rows))
"""


def test_pyatspi_sees_the_tk_controls(tk_app, axserver):
    app = tk_app("form_app.py")
    out = subprocess.run([SYSTEM_PYTHON, "-c", WALK, "form_app"], env=axserver.stack.env(), capture_output=True,
                         text=True, timeout=60)
    rows = json.loads(out.stdout.strip().splitlines()[-1])
    by_name = {}
    for row in rows:
        by_name.setdefault(row["name"], []).append(row)
    assert any(r["role"] == "push button" for r in by_name.get("Submit", [])), rows[:40]
    assert any(r["role"] in ("text", "entry") for r in by_name.get("Name", [])), by_name.get("Name")
    assert any(r["role"] == "password text" for r in by_name.get("Password", [])), by_name.get("Password")
    assert any("enabled" not in r["states"] for r in by_name.get("Disabled", []))
    assert any(r["role"] == "slider" for r in by_name.get("Volume", [])), by_name.get("Volume")
    assert by_name.get("Newsletter"), "the check button"
    assert any(r["role"] == "page tab" for r in by_name.get("General", [])), by_name.get("General")
    assert any(r["role"] == "frame" and r["name"] == "Form App" for r in rows)


class Lines:
    def __init__(self, process):
        self.process = process
        self.lines = []
        self.cond = threading.Condition()
        threading.Thread(target=self.read, daemon=True).start()

    def read(self):
        for line in self.process.stdout:
            with self.cond:
                self.lines.append(line.strip())
                self.cond.notify_all()

    def wait(self, predicate, timeout=15):
        deadline = time.monotonic() + timeout
        with self.cond:
            while not any(predicate(line) for line in self.lines):
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    raise AssertionError("no such line in %r" % self.lines)
                self.cond.wait(remaining)


@pytest.mark.skipif(shutil.which("xdotool") is None, reason="needs xdotool (Tools/install-deps.sh)")
def test_real_keys_reach_the_screen_reader_first(tk_app, tk_client, axserver, xvfb_display):
    app = tk_app("form_app.py")
    ax = tk_client(app.app_id)
    listener = subprocess.Popen([SYSTEM_PYTHON, LISTENER, "--consume", "F9"], env=axserver.stack.env(),
                                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        heard = Lines(listener)
        heard.wait(lambda line: line == "READY", timeout=30)
        name = ax.get_by_id(".account.name")
        name.set_value("")
        name.click()  # Tk focus (and the X focus) on the entry
        assert ax.wait_until(lambda: name.is_focused(), timeout=5)
        env = dict(os.environ, DISPLAY=xvfb_display)
        subprocess.run(["xdotool", "type", "--delay", "30", "ok"], env=env, check=True, timeout=30)
        subprocess.run(["xdotool", "key", "F9"], env=env, check=True, timeout=30)
        # The listener heard the Tk app's keys (forwarded by the adapter through the server's bridge)…
        heard.wait(lambda line: '"event_string": "o"' in line and '"press"' in line)
        heard.wait(lambda line: '"event_string": "F9"' in line and '"press"' in line)
        # …the keys it did not consume reached Tk, the one it consumed did not.
        assert ax.wait_until(lambda: name.value() == "ok", timeout=5)
        time.sleep(0.5)
        assert "event: F9" not in app.lines
        subprocess.run(["xdotool", "key", "F8"], env=env, check=True, timeout=30)
        heard.wait(lambda line: '"event_string": "F8"' in line)
        # Tk names Page Up and keypad 9 "Prior"/"KP_Prior" (X's older names): the server takes them as Page_Up and
        # KP_Page_Up (D-KEY-1; they were refused as unknown, so Orca's flat review and paging were dead).
        subprocess.run(["xdotool", "key", "Prior", "KP_Prior"], env=env, check=True, timeout=30)
        heard.wait(lambda line: '"event_string": "Page_Up"' in line and '"press"' in line)
        heard.wait(lambda line: '"event_string": "KP_Page_Up"' in line and '"press"' in line)
    finally:
        listener.terminate()
        listener.wait(10)


SET_CARET = r"""
import sys, time
import pyatspi
deadline = time.time() + 20
def find(node, depth=0):
    if node is None or depth > 40:
        return None
    if node.getRoleName() == "text" and node.name == sys.argv[2]:
        return node
    for index in range(node.childCount):
        hit = find(node.getChildAtIndex(index), depth + 1)
        if hit is not None:
            return hit
    return None
found = None
while found is None and time.time() < deadline:
    desktop = pyatspi.Registry.getDesktop(0)
    for index in range(desktop.childCount):
        app = desktop.getChildAtIndex(index)
        if app is not None and app.name == sys.argv[1]:
            found = find(app)
    if found is None:
        time.sleep(0.2)
text = found.queryText()
print("caret before", text.caretOffset, flush=True)
print("set", text.setCaretOffset(int(sys.argv[3])), flush=True)
print("caret after", text.caretOffset, flush=True)
print("select", text.setSelection(0, int(sys.argv[3]), int(sys.argv[3]) + 4), flush=True)
print("selection", text.getSelection(0), flush=True)
"""


def test_a_screen_reader_moves_the_tk_caret(tk_app, tk_client, axserver):
    """AT-SPI SetCaretOffset / SetSelection on a Tk Text reach Tk (the setSelectedTextRange action, D-TEXT-APP-2):
    Tk's insert mark moves there, so a typed character lands at that offset."""
    app = tk_app("big_text_app.py", args=["30"])
    ax = tk_client(app.app_id)
    # The editor has no label: the script finds the app's one unnamed text.
    out = subprocess.run([SYSTEM_PYTHON, "-c", SET_CARET, "big_text_app", "", "20"], env=axserver.stack.env(),
                         capture_output=True, text=True, timeout=60)
    assert "set True" in out.stdout and "caret after 20" in out.stdout, (out.stdout, out.stderr[-2000:])
    assert "select True" in out.stdout and "selection (20, 24)" in out.stdout, out.stdout
    editor = ax.get_by_id(".editor")
    assert editor.element().get("selectedTextRange") == [20, 4]
    text = editor.value()
    editor.type_text("#")  # Tk replaces the selection at its insert mark
    assert ax.wait_until(lambda: editor.value() == text[:20] + "#" + text[24:], timeout=5), editor.value()[:60]
