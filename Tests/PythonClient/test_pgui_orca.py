"""Orca reads an unmodified pygame_gui app: a private headless Orca (the `screen_reader` fixture; Orca 43, and Orca
48.1 on at-spi2-core 2.56 — the test runs on both, orca_stacks.on_both_orcas) listens to the server;
pguiapps/settings_form.py runs under `python3 -m axclient.pygame_gui` on a private Xvfb; real X keys (xdotool) go
into the app's window, so they reach Orca only the way a pygame app's keys do — forwarded by the adapter from the
app's event queue before the app sees them (Specs/pygame-gui-adapter.md §Focus and keys; on Orca 48 through the server's
keyboard monitor, D-KEY-MONITOR-1). Tab is the app's
own focus traversal; the adapter publishes pygame_gui's focus. Expected words are the app's texts and Orca's role
words."""
import os
import re
import shutil
import subprocess

import pytest

from axclient import expect
from axclient.screen_reader import missing_prerequisite
from orca_stacks import on_both_orcas
from pgui_support import needs_pgui, pgui_app, pgui_client, pgui_display  # noqa: F401
from test_pgui_atspi import focus_window

pytestmark = [needs_pgui,
              pytest.mark.skipif(missing_prerequisite() is not None, reason=str(missing_prerequisite())),
              pytest.mark.skipif(shutil.which("xdotool") is None, reason="needs xdotool (Tools/install-deps.sh)")]


class Keyboard:
    """Real X keys into the app's display; each press is a step of the screen reader's transcript."""

    def __init__(self, reader, display):
        self.reader = reader
        self.env = dict(os.environ, DISPLAY=display)

    def press(self, chord, what=None):
        self.reader._begin_step(what or chord)
        subprocess.run(["xdotool", "key", "--delay", "40", chord], env=self.env, check=True, timeout=20)


@on_both_orcas(demo=False)
def test_orca_tabs_through_the_form_operates_controls_and_hears_the_dialog(stack, pgui_app, pgui_client, screen_reader,
                                                                          pgui_display):
    app = pgui_app("settings_form.py")
    ax = pgui_client(app.app_id, timeout=15)
    reader = screen_reader
    keys = Keyboard(reader, pgui_display)
    try:
        focus_window(pgui_display, app)
        keys.press("Tab")
        expect(reader).to_say(re.compile(r"Name"), timeout=10)
        keys.press("Tab")
        expect(reader).to_say(re.compile(r"Password"), timeout=10)
        keys.press("Tab")
        expect(reader).to_say(re.compile(r"Volume"), timeout=10)
        keys.press("Right")
        app.wait_line("volume 55")
        expect(reader).to_say(re.compile(r"55"), timeout=10)
        keys.press("Tab")
        expect(reader).to_say(re.compile(r"Theme"), timeout=10)
        keys.press("Tab")
        expect(reader).to_say(re.compile(r"Newsletter"), timeout=10)
        keys.press("space")
        app.wait_line("news True")
        expect(reader).to_say(re.compile(r"checked|pressed|on"), timeout=10)
        keys.press("Tab")
        expect(reader).to_say(re.compile(r"Save"), timeout=10)
        keys.press("Return")
        app.wait_line("saved Ada")
        expect(ax.get_by_id("status")).to_have_label("Saved Ada")
        keys.press("Tab")
        expect(reader).to_say(re.compile(r"Reset"), timeout=10)
        keys.press("space")
        app.wait_line("dialog open")
        expect(reader).to_say(re.compile(r"Reset settings"), timeout=10)
        keys.press("Escape")
        app.wait_line("dialog closed")
        expect(ax.locator('window[label="Reset settings"]')).to_be_hidden()
        expect(reader).to_say(re.compile(r"Reset"), timeout=10)
    finally:
        print("Orca transcript:\n" + reader.transcript_text())
