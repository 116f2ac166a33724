"""D-KIVY-7 (Specs/kivy-adapter.md): the adapter adds no focus to Kivy's Slider and Switch; an app author who mixes
in FocusBehavior (kivyapps/focus_controls_app.py, the spec's recipe) gets them reached by Tab and operated by real
X keys (xdotool into Xvfb) under the adapter, with Kivy's focus as the mirror's focus and the app's callbacks
running."""
import os
import shutil
import subprocess
import sys

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "kivyapps"))
from kivy_support import kivy_display, needs_kivy, shared_server, start_app  # noqa: E402,F401

from axclient import expect  # noqa: E402

pytestmark = [needs_kivy, pytest.mark.skipif(shutil.which("xdotool") is None,
                                             reason="needs xdotool (Tools/install-deps.sh)")]


def press(display, app, key):
    """One real key into the app's X window."""
    env = dict(os.environ, DISPLAY=display)
    window = subprocess.run(["xdotool", "search", "--pid", str(app.process.pid)], env=env, capture_output=True,
                            text=True, timeout=10).stdout.split()
    assert window, "no X window for the Kivy app"
    subprocess.run(["xdotool", "windowfocus", "--sync", window[-1]], env=env, capture_output=True, timeout=10)
    subprocess.run(["xdotool", "key", key], env=env, check=True, timeout=30)


def test_focusbehavior_slider_and_switch_are_reached_and_operated_by_keys(axserver_pool, kivy_display):
    server = shared_server(axserver_pool)
    app = start_app(server, kivy_display, "focus_controls_app.py")
    ax = server.client(client_name="kivy-focus-controls", app=app.app_id, timeout=8)
    try:
        volume = ax.get_by_role("adjustable", name="Volume")  # still a slider: mapped along the MRO
        expect(volume).to_be_focused()
        press(kivy_display, app, "Right")
        app.wait_line("volume 4")
        expect(volume).to_have_value("40%")
        press(kivy_display, app, "Tab")
        dark = ax.get_by_role("switch", name="Dark mode")
        expect(dark).to_be_focused()  # Kivy's focus moved: so did the mirror's
        press(kivy_display, app, "space")
        app.wait_line("dark True")
        expect(dark).to_be_checked()
    finally:
        ax.close()
        app.stop()
