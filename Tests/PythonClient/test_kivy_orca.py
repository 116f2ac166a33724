"""Orca reads a Kivy app: a private headless Orca (the `screen_reader` fixture; Orca 43, and Orca 48.1 on at-spi2-core
2.56 — the test runs on both, orca_stacks.on_both_orcas) listens to the server; the app
(kivyapps/keyboard_app.py) runs unmodified under `python3 -m axclient.kivy` on a private Xvfb; keys go through X
into Kivy (xdotool), as a user types, so they reach Orca only the way a Kivy app's keys do — forwarded by the
adapter (Specs/kivy-adapter.md §Keys; on Orca 48 through the server's keyboard monitor, D-KEY-MONITOR-1). Expected
words come from the app's own widgets and Orca's role words."""
import os
import re
import shutil
import subprocess
import sys
import time

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "kivyapps"))
from kivy_support import HERE, KivyApp, kivy_display, needs_kivy  # noqa: E402,F401

from axclient import expect  # noqa: E402
from axclient.screen_reader import missing_prerequisite  # noqa: E402
from orca_stacks import on_both_orcas  # noqa: E402
from test_tk_orca import Keyboard  # noqa: E402
from tk_support import wait_for_app  # noqa: E402

pytestmark = [needs_kivy,
              pytest.mark.skipif(missing_prerequisite() is not None, reason=str(missing_prerequisite())),
              pytest.mark.skipif(shutil.which("xdotool") is None, reason="needs xdotool (Tools/install-deps.sh)")]


@on_both_orcas(demo=False)
def test_orca_tabs_operates_reads_lines_and_a_popup(stack, screen_reader, axserver, kivy_display):
    app = KivyApp([os.path.join(HERE, "keyboard_app.py")], kivy_display, axserver.socket)
    reader = screen_reader
    try:
        ax_all = axserver.client(client_name="kivy-orca")
        app_id = wait_for_app(ax_all, "keyboard_app", timeout=30)
        ax_all.close()
        app.wait_line("ready", 20)
        ax = axserver.client(client_name="kivy-orca", app=app_id, timeout=10)
        keys = Keyboard(reader, kivy_display)
        window = _x_window(app, kivy_display)
        subprocess.run(["xdotool", "windowfocus", "--sync", window], env=keys.env, capture_output=True, timeout=10)
        ax.locator('textField[label="Name"]').click()  # Kivy's focus on the name field
        expect(reader).to_say(re.compile(r"Name"), timeout=10)
        keys.press("Tab")
        expect(reader).to_say(re.compile(r"Notes"), timeout=10)
        keys.press("ctrl+Home", "Ctrl+Home")
        reader.wait_until_quiet()
        keys.press("Down")
        expect(reader).to_say(re.compile(r"beta line"), timeout=10)
        keys.press("Down")
        expect(reader).to_say(re.compile(r"gamma line"), timeout=10)
        keys.press("Tab")
        expect(reader).to_say(re.compile(r"Bold"), timeout=10)
        keys.press("space")
        app.wait_line("bold down")
        keys.press("Tab")
        expect(reader).to_say(re.compile(r"Save"), timeout=10)
        keys.press("Return")
        app.wait_line("saved")
        expect(reader).to_say(re.compile(r"Saved"), timeout=10)
        expect(reader).to_say(re.compile(r"OK"), timeout=10)
        keys.press("Return")
        app.wait_line("popup closed")
    finally:
        print("Orca transcript:\n" + reader.transcript_text())
        app.stop()


def _x_window(app, display):
    """The Kivy app's X window (by its process id)."""
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:
        out = subprocess.run(["xdotool", "search", "--pid", str(app.process.pid)], env=dict(os.environ, DISPLAY=display),
                             capture_output=True, text=True, timeout=10).stdout.split()
        if out:
            return out[-1]
        time.sleep(0.1)
    raise AssertionError("no X window for the Kivy app")
