"""Both screen-reader stacks: Debian 12's Orca 43 on at-spi2-core 2.46, and Orca 48.1 on at-spi2-core / libatspi 2.56
from bookworm-backports (Tools/install-orca48.sh; issue 39). Orca 48 on libatspi >= 2.55 takes keys through an
Atspi.Device, not registry keystroke listeners: on the private stack the server owns org.freedesktop.a11y.Manager
and Orca 48 uses the a11y-manager device (D-KEY-MONITOR-1). What is checked comes from the demo's source
(Sources/AXDemo/DemoApp.swift: Tab stops Edit, then the Wi-Fi switch, on at start) and from Orca's key map
(KP_Enter is where-am-I in Orca's desktop layout), never from this module's output.
"""
import os
import re
import subprocess

import pytest

from axclient import expect
from axclient import orca_stack
from axclient.screen_reader import missing_prerequisite

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
INSTALL = os.path.join(ROOT, "Tools", "install-orca48.sh")

needs_orca = pytest.mark.skipif(missing_prerequisite() is not None, reason=str(missing_prerequisite()))
STACKS = [pytest.param("43", id="orca43"), pytest.param("48", id="orca48")]


def _wifi(ax):
    return ax.get_by_role("switch", name="Wi-Fi")


@needs_orca
@pytest.mark.parametrize("stack", STACKS)
def test_where_am_i_speaks_and_never_acts_on_the_app(request, stack, axserver_pool):
    """KP_Enter on the Wi-Fi switch: Orca's where-am-I. Orca takes it (consumed, answered by the assistive
    technology) and speaks; the switch stays on. Space, not an Orca command, still operates the app."""
    options = axserver_pool.options(None)
    options.update(fresh=True, screen_reader=True, orca=stack)
    server = axserver_pool.start(options)
    try:
        session = axserver_pool.session_for(server)
        with server.client() as ax:
            reader = session.reader(ax)
            assert session.orca_stack.name == "orca-" + stack
            reader.press("Tab")
            reader.press("Tab")
            expect(reader).to_say("Wi-Fi")
            expect(_wifi(ax)).to_have_value("on")
            step = reader.press("KP_Enter")
            press = step.answers[0]
            assert press["consumed"] is True and press["handledBy"] == "assistive-technology", press
            expect(reader).to_say("Wi-Fi")                     # where-am-I names the focused control
            expect(_wifi(ax)).to_have_value("on")              # and did not toggle it
            step = reader.press("space")
            assert step.answers[0]["consumed"] is False, step.answers[0]
            expect(_wifi(ax)).to_have_value("off")             # ordinary keys operate the app
            expect(reader).to_say(re.compile(r"not pressed|off"))
    finally:
        axserver_pool.stop(server)


@needs_orca
def test_orca48_stack_runs_orca_48_on_libatspi_256(tmp_path):
    stack = orca_stack.resolve("48")
    version = subprocess.run(["/usr/bin/python3", "-c", "from orca import orca_platform; print(orca_platform.version)"],
                             capture_output=True, text=True, timeout=60, env=stack.orca_env(dict(os.environ)))
    assert version.stdout.startswith("48."), version.stdout + version.stderr
    probe = subprocess.run(["/usr/bin/python3", "-c", "import gi; gi.require_version('Atspi', '2.0'); "
                            "from gi.repository import Atspi; print(tuple(Atspi.get_version()))"],
                           capture_output=True, text=True, timeout=60, env=stack.orca_env(dict(os.environ)))
    assert probe.stdout.strip().startswith("(2, 56"), probe.stdout + probe.stderr
    assert stack.a11y_stack_args[0] == "--atspi-root"
    assert stack.server_env() == {"AXSERVER_A11Y_KEYBOARD_MONITOR": "1"}
    assert orca_stack.resolve("43").server_env() == {}


def test_a_missing_prefix_says_what_is_missing(tmp_path):
    env = dict(os.environ, AXSERVER_ORCA48_PREFIX=str(tmp_path / "nothing"))
    check = subprocess.run([INSTALL, "--check"], capture_output=True, text=True, timeout=30, env=env)
    assert check.returncode == 1
    assert "nothing/READY is missing" in check.stderr and "Tools/install-orca48.sh" in check.stderr, check.stderr
    broken = tmp_path / "broken"
    broken.mkdir()
    (broken / "READY").write_text("orca 48.1\n")
    with pytest.raises(orca_stack.OrcaStackUnavailable, match="env.sh is missing"):
        orca_stack.resolve(str(broken))
    with pytest.raises(orca_stack.OrcaStackUnavailable, match="use 43"):
        orca_stack.resolve("47")


# The demo's Tab stops (Sources/AXDemo/DemoApp.swift, in its focus order): the navigation bar's Edit, the cells'
# Wi-Fi and Bluetooth switches, Display & Brightness and About, Text Size, Copies, the Appearance segments, Device
# Name, Reset All Settings, Help and the three tab bar items.
DEMO_TAB_STOPS = 14


@needs_orca
@pytest.mark.parametrize("stack", STACKS)
def test_the_speech_preview_agrees_with_each_orca_on_every_tab_stop(stack, axserver_pool):
    """Issue 39 item 5 (D-SPEECH-3): on every Tab stop of the demo, each line ``speech.describe`` predicts in the
    running Orca's phrasing (``screenReader`` "orca-43" / "orca-48", which ``to_match_preview`` passes) is one of the
    lines that Orca said, word for word. Before, the preview spoke Orca 43's phrasing to Orca 48 ("Edit push
    button" where Orca 48 says "Edit button") and the comparison took a line found inside a longer one as said.
    No stop says a line twice: Orca 48 spoke "Reset All Settings"'s hint twice while the bridge served it as both
    Description and HelpText (D-ATSPI-HELP-1)."""
    options = axserver_pool.options(None)
    options.update(fresh=True, screen_reader=True, orca=stack)
    server = axserver_pool.start(options)
    try:
        session = axserver_pool.session_for(server)
        with server.client() as ax:
            reader = session.reader(ax)
            assert session.orca_stack.name == "orca-" + stack
            disagreements, seen, repeated = [], [], []
            for _ in range(DEMO_TAB_STOPS):
                reader.press("Tab")
                focused = ax.focused()
                assert focused is not None and focused.id not in seen, "Tab did not move on from %s" % seen
                seen.append(focused.id)
                reader.wait_for_speech(re.compile(r"\w"))          # Orca spoke for this stop (bounded)
                comparison = reader.compare_with_preview({"id": focused.id})
                lines = [" ".join(line.split()).rstrip(".") for line in comparison["orca"]]
                repeated += ["%s: %r" % (focused.id, line) for line in set(lines) if line and lines.count(line) > 1]
                if not comparison["agree"]:
                    disagreements.append("%s: Orca %r, preview %r" % (focused.id, comparison["orca"],
                                                                     comparison["preview"]))
            assert disagreements == [], "\n".join(disagreements)
            assert repeated == [], "Orca said these lines twice at one stop: %s" % repeated
            assert len(seen) == DEMO_TAB_STOPS
    finally:
        axserver_pool.stop(server)
