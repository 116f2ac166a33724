"""Orca reads a Dear PyGui app: a private headless Orca (the `screen_reader` fixture; Orca 43, and Orca 48.1 on
at-spi2-core 2.56 — the test runs on both, orca_stacks.on_both_orcas) listens to the server;
dpgapps/settings_app.py runs unmodified (with ImGui's keyboard navigation, --nav) under `python3 -m
axclient.dearpygui` on a private Xvfb; keys go through X into Dear PyGui (xdotool), as a user types, so they reach
Orca only the way the adapter forwards them, and Orca follows ImGui's navigation focus (Specs/dearpygui-adapter.md
§Focus and keys). Expected words are the app's labels and Orca's role words, never the adapter's output."""
import os
import re
import shutil
import subprocess

import pytest

from axclient import expect
from axclient.errors import ClientTimeout
from axclient.screen_reader import missing_prerequisite
from orca_stacks import ROLE_WORDS, on_both_orcas
from dpgapps.dpg_support import needs_dpg, start_app
from tk_support import xvfb_display  # noqa: F401

pytestmark = [needs_dpg,
              pytest.mark.skipif(missing_prerequisite() is not None, reason=str(missing_prerequisite())),
              pytest.mark.skipif(shutil.which("xdotool") is None, reason="needs xdotool (Tools/install-deps.sh)")]


class Keyboard:
    """Real X keys (xdotool) into the app's display; each press is a step of the screen reader's transcript."""

    def __init__(self, reader, display):
        self.reader = reader
        self.env = dict(os.environ, DISPLAY=display)

    def click(self, x, y):
        subprocess.run(["xdotool", "mousemove", str(x), str(y), "click", "1"], env=self.env, check=True, timeout=20)

    def press(self, chord, what=None):
        self.reader._begin_step(what or chord)
        subprocess.run(["xdotool", "key", "--delay", "40", chord], env=self.env, check=True, timeout=20)


@on_both_orcas(demo=False)
def test_orca_follows_imgui_navigation_a_checkbox_a_slider_typing_and_a_modal_popup(stack, axserver, screen_reader,
                                                                                   xvfb_display):
    app = start_app(axserver, xvfb_display, "settings_app.py", args=["--nav"])
    ax = axserver.client(client_name="dpg-orca", app=app.app_id, timeout=15)
    reader = screen_reader
    button = ROLE_WORDS[reader.version]["push button"]   # Orca 43 "push button", Orca 48 "button"
    keys = Keyboard(reader, xvfb_display)
    try:
        keys.click(300, 520)  # the window's empty lower part: the X focus, nothing activated
        reader.wait_until_quiet()
        keys.press("Tab")
        expect(ax.get_by_id("name")).to_be_focused()
        keys.press("Tab")
        expect(reader).to_say(re.compile(r"Password"), timeout=10)
        keys.press("Down")
        expect(reader).to_say(re.compile(r"Dark mode"), timeout=10)
        keys.press("space")
        app.wait_line("changed dark True")
        expect(reader).to_say(re.compile(r"checked|on|pressed", re.IGNORECASE), timeout=10)
        keys.press("Down")
        expect(reader).to_say(re.compile(r"Volume.*40"), timeout=10)
        keys.press("space")  # ImGui: activate the slider; arrows then move it
        keys.press("Right")
        app.wait_line("changed volume 41")
        expect(reader).to_say(re.compile(r"41"), timeout=10)
        keys.press("Return")
        keys.press("Up")
        keys.press("Up")
        keys.press("Up")
        expect(reader).to_say(re.compile(r"Name"), timeout=10)
        keys.press("Return")  # edit the text field, type at its end
        keys.press("End")
        keys.press("x")
        app.wait_line("changed name 'Adax'")
        keys.press("Return")
        # A modal popup: the Files tab's Delete button opens "Delete?"; Orca hears the dialog and its button.
        reader._begin_step("Files tab, Delete (axclient)")
        ax.get_by_role("tab", name="Files").click()
        ax.get_by_id("delete").click()
        app.wait_line("asked")
        expect(reader).to_say(re.compile(r"Delete\? dialog"), timeout=10)
        expect(reader).to_say(re.compile(r"Delete file %s" % button), timeout=10)
        keys.press("Tab")
        expect(reader).to_say(re.compile(r"Keep %s" % button), timeout=10)
        keys.press("space")
        app.wait_line("confirm False")
        expect(ax.get_by_id("confirm")).to_be_hidden()
    finally:
        print("Orca transcript:\n" + reader.transcript_text())
        print("all speech:", reader.said)
        ax.close()
        app.stop()


@on_both_orcas(demo=False)
def test_shift_tab_goes_back_every_time(stack, axserver, screen_reader, xvfb_display):
    """Twelve rounds of Tab then shift+Tab between the Name and Password fields: every shift+Tab goes back to Name
    (Orca says it after the last). Before the key gate (D-IMGUI-KEYS-1), one run in four on Orca 48 had a shift+Tab reach ImGui as
    Tab (the focus went on to "Dark mode"): its Tab press and Shift release were taken by one frame."""
    app = start_app(axserver, xvfb_display, "settings_app.py", args=["--nav"])
    ax = axserver.client(client_name="dpg-orca", app=app.app_id, timeout=15)
    keys = Keyboard(screen_reader, xvfb_display)
    name = ax.get_by_id("name")
    try:
        keys.click(300, 520)  # the window's empty lower part: the X focus, nothing activated
        screen_reader.wait_until_quiet()
        keys.press("Tab")
        expect(name).to_be_focused()
        for round_number in range(12):
            keys.press("Tab")
            ax.wait_until(lambda: not name.is_focused(), timeout=5)
            keys.press("shift+Tab")
            try:
                ax.wait_until(name.is_focused, timeout=3, description="Name focused")
            except ClientTimeout:
                raise AssertionError("round %d: shift+Tab went to %r" % (
                    round_number, [e.label for e in ax.query_all(":focused")])) from None
        expect(screen_reader).to_say(re.compile(r"Name"), timeout=10)
    finally:
        print("Orca transcript:\n" + screen_reader.transcript_text())
        app.stop()
