"""What Orca gets over AT-SPI from a Tk app, as GTK users get it (issue 32; Specs/tk-adapter.md §Concepts UIKit
lacks): radio buttons are checked radio buttons, a modal Toplevel is a dialog, a vertical scroll bar is vertical,
a read-only Combobox is a push button, and Tab into an entry with text announces the field before its selection.
Real server with its private AT-SPI stack; pyatspi from Debian in /usr/bin/python3, as Orca uses it."""
import json
import subprocess
import threading
import time

import pytest

from tk_support import needs_tk, tk_app, tk_client, xvfb_display  # noqa: F401
from test_tk_atspi import SYSTEM_PYTHON, WALK, have_pyatspi

pytestmark = [needs_tk, pytest.mark.axserver(demo=False, atspi=True, fresh=True),
              pytest.mark.skipif(not have_pyatspi(), reason="needs python3-pyatspi (Tools/install-deps.sh)")]

EVENTS = r"""
import json, sys
import pyatspi
def heard(event):
    try:
        name = event.source.name
    except Exception:
        name = None
    print(json.dumps({"type": event.type, "name": name, "detail1": event.detail1}), flush=True)
for kind in ("object:state-changed:focused", "object:text-caret-moved", "object:text-selection-changed"):
    pyatspi.Registry.registerEventListener(heard, kind)
print("READY", flush=True)
pyatspi.Registry.start()
"""


def walk(axserver, app_name):
    out = subprocess.run([SYSTEM_PYTHON, "-c", WALK, app_name], env=axserver.stack.env(), capture_output=True,
                         text=True, timeout=60)
    rows = json.loads(out.stdout.strip().splitlines()[-1])
    by_name = {}
    for row in rows:
        by_name.setdefault(row["name"], []).append(row)
    return rows, by_name


def test_radio_buttons_scroll_bar_and_readonly_combobox_roles(tk_app, axserver):
    tk_app("form_app.py")
    rows, by_name = walk(axserver, "form_app")
    red, green = by_name.get("Red", []), by_name.get("Green", [])
    assert [r["role"] for r in red] == ["radio button"], red
    assert "checked" in red[0]["states"] and "checkable" in red[0]["states"], red
    assert "checked" not in green[0]["states"], green
    scroll = by_name.get("Vertical scroll bar", [])
    assert scroll and "vertical" in scroll[0]["states"] and "horizontal" not in scroll[0]["states"], scroll
    fruit = by_name.get("Fruit", [])
    assert [r["role"] for r in fruit if r["role"] != "label"] == ["push button"], fruit


def test_a_modal_toplevel_is_a_dialog(tk_app, tk_client, axserver):
    app = tk_app("form_app.py")
    ax = tk_client(app.app_id)
    ax.get_by_id(".open").click()
    ax.get_by_id(".dialog.ok").element(timeout=10)
    rows, _ = walk(axserver, "form_app")
    assert any(r["role"] == "dialog" and r["name"] == "Confirm" for r in rows), [r for r in rows if r["name"]][:5]
    assert any(r["role"] == "frame" and r["name"] == "Form App" for r in rows)


def test_tab_into_an_entry_with_text_announces_the_field_before_its_selection(tk_app, tk_client, axserver):
    app = tk_app("form_app.py", env={"AXCLIENT_TK_DEBUG": "1"})  # its log shows the patches
    ax = tk_client(app.app_id)
    listener = subprocess.Popen([SYSTEM_PYTHON, "-c", EVENTS], env=axserver.stack.env(), stdout=subprocess.PIPE,
                                stderr=subprocess.DEVNULL, text=True)
    lines, cond = [], threading.Condition()

    def read():
        for line in listener.stdout:
            with cond:
                lines.append(line.strip())
                cond.notify_all()
    threading.Thread(target=read, daemon=True).start()

    def wait_for(predicate, timeout=15):
        deadline = time.monotonic() + timeout
        with cond:
            while not any(predicate(line) for line in lines):
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    raise AssertionError("not heard; heard %r" % lines)
                cond.wait(remaining)
    try:
        wait_for(lambda line: line == "READY", timeout=30)
        ax.get_by_id(".account.password").click()  # focus the field after Name
        assert ax.wait_until(lambda: ax.get_by_id(".account.password").is_focused(), timeout=5)
        with cond:
            del lines[:]
        ax.call("input.key", {"key": "Tab", "modifiers": ["shift"]})  # Tk selects "Ada" as it tabs in
        wait_for(lambda line: '"name": "Name"' in line and "focused" in line and '"detail1": 1' in line)
        wait_for(lambda line: '"name": "Name"' in line and "text-" in line)
        with cond:
            heard = [json.loads(line) for line in lines if line.startswith("{")]
        about_name = [e for e in heard if e["name"] == "Name"]
        first = about_name[0]
        assert first["type"].startswith("object:state-changed:focused") and first["detail1"] == 1, (
            about_name, app.stderr_text()[-3000:])
    finally:
        listener.terminate()
        listener.wait(10)
