"""Orca reads real IDLE: a private headless Orca (the `screen_reader` fixture; Orca 43, and Orca 48.1 on at-spi2-core
2.56 — each test runs on both, orca_stacks.on_both_orcas) listens to the server; IDLE runs
unmodified under `python3 -m axclient.tk -m idlelib FILE` on a private Xvfb; keys go through X into IDLE (xdotool),
as a user types, so they reach Orca only the way a Tk app's keys do — forwarded by the adapter (Specs/tk-adapter.md
§Focus and keys). Expected words come from IDLE's own widgets (window titles, menu labels, dialog buttons, the
file's text) and Orca's role words (per version, orca_stacks.ROLE_WORDS), never from the adapter's output. On Orca 48
the adapter's forwarded keys reach Orca through the server's keyboard monitor (D-KEY-MONITOR-1); IDLE's own X
display is not Orca's, so no key is heard twice."""
import os
import re
import shutil
import subprocess
import tempfile
import time

import pytest

from axclient import expect
from axclient.screen_reader import missing_prerequisite
from orca_stacks import ROLE_WORDS, on_both_orcas
from tk_support import needs_tk, tk_app, tk_client, xvfb_display  # noqa: F401

try:
    import idlelib  # noqa: F401
    HAVE_IDLE = True
except ImportError:  # pragma: no cover - Tools/install-deps.sh installs idle-python3.11
    HAVE_IDLE = False

pytestmark = [needs_tk,
              pytest.mark.skipif(missing_prerequisite() is not None, reason=str(missing_prerequisite())),
              pytest.mark.skipif(shutil.which("xdotool") is None, reason="needs xdotool (Tools/install-deps.sh)"),
              pytest.mark.skipif(not HAVE_IDLE, reason="needs idlelib (Tools/install-deps.sh: idle-python3.11)")]

SOURCE = "first = 'alpha line'\nsecond = 'beta line'\nthird = 'gamma line'\n"


class Keyboard:
    """Real X keys (xdotool) into the Tk app's display; each press is a step of the screen reader's transcript."""

    def __init__(self, reader, display):
        self.reader = reader
        self.env = dict(os.environ, DISPLAY=display)

    def focus_window(self, title_regex):
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline:
            out = subprocess.run(["xdotool", "search", "--name", title_regex], env=self.env, capture_output=True,
                                 text=True, timeout=10)
            if out.stdout.split():
                window = out.stdout.split()[-1]
                subprocess.run(["xdotool", "windowfocus", "--sync", window], env=self.env, capture_output=True,
                               timeout=10)
                return window
            time.sleep(0.1)
        raise AssertionError("no X window titled %r" % title_regex)

    def press(self, chord, what=None):
        self.reader._begin_step(what or chord)  # a step of the transcript, as ScreenReader.press makes one
        subprocess.run(["xdotool", "key", "--delay", "40", chord], env=self.env, check=True, timeout=20)

    def type(self, text):
        self.reader._begin_step("type %r" % text)
        subprocess.run(["xdotool", "type", "--delay", "40", text], env=self.env, check=True, timeout=30)


@pytest.fixture
def idle_with_orca(tk_app, tk_client, screen_reader, xvfb_display):
    home = tempfile.mkdtemp(prefix="axtk-idle-orca-")
    try:
        path = os.path.join(home, "lines.py")
        with open(path, "w") as handle:
            handle.write(SOURCE)
        app = tk_app("idlelib", module=True, args=[path], env={"HOME": home})
        ax = tk_client(app.app_id, timeout=15)
        expect(ax.locator('window[label*="lines.py - "]')).to_be_visible(timeout=20)
        keys = Keyboard(screen_reader, xvfb_display)
        yield app, ax, screen_reader, keys
    finally:
        print("Orca transcript:\n" + screen_reader.transcript_text())
        shutil.rmtree(home, ignore_errors=True)


@on_both_orcas(demo=False)
def test_orca_hears_typing_menus_and_a_dialog_in_idle(stack, idle_with_orca):
    app, ax, reader, keys = idle_with_orca
    switch = ROLE_WORDS[reader.version]["switch"]
    button = " " + ROLE_WORDS[reader.version]["push button"]   # Orca 43 "push button", Orca 48 "button"
    editor = ax.locator('window[label*="lines.py - "] >> textView').first()
    keys.focus_window(r"^lines\.py - ")
    editor.click()  # Tk's focus on the editor's text
    assert ax.wait_until(lambda: editor.is_focused(), timeout=5)
    # Typing: the characters reach IDLE through X; Orca hears them through the adapter's forwarding.
    keys.press("ctrl+End", "Ctrl+End")
    keys.type("x = 1")
    expect(editor).to_have_value(re.compile(r"gamma line'\nx = 1$"))
    # Menus: Alt+F posts IDLE's File menu (Tk's own traversal); Orca names the focused entries.
    keys.press("alt+f", "Alt+F")
    expect(reader).to_say(re.compile(r"New File"), timeout=10)
    # As in GTK (D-MENU-1): the posted menu is a menu and its entries menu items, which Orca names without a role;
    # before, Orca said "File frame.", "New File push button.".
    expect(reader).to_say(re.compile(r"^File menu"), timeout=10)
    assert not any(button in line for line in reader.spoken), reader.spoken
    keys.press("Down")
    expect(reader).to_say(re.compile(r"Open"), timeout=10)
    assert not any(button in line for line in reader.spoken), reader.spoken
    keys.press("Escape")
    keys.press("Escape")
    # A dialog: Ctrl+F opens IDLE's Search Dialog with the focus in its entry ("Find:" beside it); Tab moves on.
    keys.press("ctrl+f", "Ctrl+F")
    expect(reader).to_say(re.compile(r"^Find text"), timeout=10)
    # The dialog's title comes first: its new window is activated as a window manager activates a GTK dialog
    # (D-ATSPI-ACTIVE-1, windows within one app); before, Orca said only "Find text.".
    expect(reader).to_say(re.compile(r"Search Dialog"), timeout=10)
    spoken = reader.spoken
    title = next(i for i, line in enumerate(spoken) if "Search Dialog" in line)
    field = next(i for i, line in enumerate(spoken) if re.search(r"^Find text", line))
    assert title < field, spoken
    keys.press("Tab")
    expect(reader).to_say(re.compile(r"Regular expression %s not pressed" % switch), timeout=10)
    keys.press("Tab")
    expect(reader).to_say(re.compile(r"Match case %s" % switch), timeout=10)
    keys.press("space")
    expect(reader).to_say(re.compile(r"pressed"), timeout=10)
    expect(ax.get_by_role("switch", name="Match case")).to_be_checked()
    keys.press("Escape")
    expect(ax.locator('window[label="Search Dialog"]')).to_be_hidden()
    expect(reader).to_say(re.compile(r"text"), timeout=10)  # back in the editor


@on_both_orcas(demo=False)
def test_orca_reads_idle_by_line(stack, idle_with_orca):
    """Up and Down move IDLE's insert mark (Tk's own bindings); the adapter publishes it as the text's
    selectedTextRange and Orca reads the line the caret lands on (D-TEXT-APP-1)."""
    app, ax, reader, keys = idle_with_orca
    editor = ax.locator('window[label*="lines.py - "] >> textView').first()
    keys.focus_window(r"^lines\.py - ")
    editor.click()
    assert ax.wait_until(lambda: editor.is_focused(), timeout=5)
    keys.press("ctrl+Home", "Ctrl+Home")
    reader.wait_until_quiet()
    keys.press("Down")
    expect(reader).to_say(re.compile(r"second = 'beta line'"), timeout=10)
    keys.press("Down")
    expect(reader).to_say(re.compile(r"third = 'gamma line'"), timeout=10)
    keys.press("Up")
    expect(reader).to_say(re.compile(r"second = 'beta line'"), timeout=10)
