"""Orca reads an imgui_bundle app: a private headless Orca (the `screen_reader` fixture; Orca 43, and Orca 48.1 on
at-spi2-core 2.56 — the test runs on both, orca_stacks.on_both_orcas) listens to the server; the
unmodified app (imguiapps/settings_form.py) runs under `python3 -m axclient.imgui` on a private Xvfb; keys go
through X into GLFW (xdotool) as a user types, so they reach Orca only the way the adapter forwards them, and
ImGui's own keyboard navigation moves the focus Orca follows (Specs/imgui-adapter.md §Focus and keys). Expected
words are the app's labels and Orca's role words."""
import re
import shutil

import pytest

from axclient import expect
from axclient.errors import ClientTimeout
from axclient.screen_reader import missing_prerequisite
from orca_stacks import on_both_orcas
from test_imgui_adapter import start_app
from test_tk_orca import Keyboard
from tk_support import needs_tk, wait_for_app, xvfb_display  # noqa: F401

pytest.importorskip("imgui_bundle", reason="Tools/requirements-test.txt installs imgui_bundle")
pytestmark = [needs_tk,
              pytest.mark.skipif(missing_prerequisite() is not None, reason=str(missing_prerequisite())),
              pytest.mark.skipif(shutil.which("xdotool") is None, reason="needs xdotool (Tools/install-deps.sh)")]


def focused_label(ax):
    focused = ax.query_all(":focused")
    return focused[0].label if focused else None


def press_until(ax, keys, reader, chord, label, most=25):
    """Presses ``chord`` (ImGui's own focus order) until the mirror's focus is the item ``label`` (each press
    waits for the focus to move: ImGui moves its nav focus in the frame after the key), then for Orca to say it."""
    for _ in range(most):
        before = focused_label(ax)
        keys.press(chord)
        try:
            ax.wait_until(lambda: focused_label(ax) != before, timeout=3)
        except ClientTimeout:  # ImGui's first Tab only shows its nav cursor on the item it already had
            pass
        if focused_label(ax) == label:
            expect(reader).to_say(re.compile(re.escape(label)), timeout=10)
            return
    raise AssertionError("ImGui's focus never reached %r: %r" % (label, reader.transcript_text()))


@on_both_orcas(demo=False)
def test_orca_hears_tabbing_a_checkbox_typing_and_a_modal_popup(stack, xvfb_display, axserver, screen_reader):
    app = start_app(xvfb_display, axserver.socket, "settings_form.py", "20")
    ax = axserver.client(client_name="imgui-orca", timeout=10.0)
    try:
        wait_for_app(ax, "settings_form")
        ax.close()
        ax = axserver.client(client_name="imgui-orca", app="settings_form", timeout=10.0)
        keys = Keyboard(screen_reader, xvfb_display)
        keys.focus_window(r"^Settings form$")
        press_until(ax, keys, screen_reader, "Tab", "Password")
        press_until(ax, keys, screen_reader, "shift+Tab", "Name")  # tabbing into an input activates it
        keys.type("Ada")
        expect(ax.get_by_role("textField", name="Name")).to_have_value("Ada")
        press_until(ax, keys, screen_reader, "Tab", "Volume")
        keys.type("42")  # tabbing into an ImGui slider opens its text input (all selected): the new value
        keys.press("Return")
        expect(ax.get_by_role("adjustable", name="Volume")).to_have_value("42")
        expect(screen_reader).to_say(re.compile(r"42"), timeout=10)
        press_until(ax, keys, screen_reader, "Tab", "Dark mode")
        keys.press("space")
        expect(ax.get_by_role("switch", name="Dark mode")).to_have_value("on")
        expect(screen_reader).to_say(re.compile(r"on|checked|pressed", re.I), timeout=10)
        press_until(ax, keys, screen_reader, "Tab", "Delete...")
        keys.press("space")
        expect(ax.get_by_role("window", name="Confirm delete")).to_be_attached()
        expect(screen_reader).to_say(re.compile(r"Confirm delete|Delete everything|OK"), timeout=10)
    finally:
        print("Orca transcript:\n" + screen_reader.transcript_text())
        ax.close()
        app.stop()
