"""Orca reads the demo app (issue "AT-SPI2 bridge", part 6): the real screen reader, headless.

Recipe (Tools/orca_capture.sh): private stack with Xvfb and a private home, `axserver --demo` on it, Orca 43
started with SPEECHD_CMD=/bin/false, private prefs, a debug file and the orca-customizations.py hook that
appends every utterance to $A11Y_STACK_DIR/orca-speech.log; stopped by PID (never `orca -r`).

Focus is moved the way Orca's own structural navigation does it: Component.GrabFocus through pyatspi. The
bridge must then set FOCUSED and emit object:state-changed:focused, and Orca speaks the new locus of focus
with its speech generator. Expected lines follow Orca 43's formatting.py / speech_generator.py for the roles
of Specs/atspi-mapping.md:
  push button  'labelOrName + roleName …' + suffix description  → "Reset All Settings push button" … "Asks before resetting"
  toggle button 'labelOrName + roleName + toggleState'          → "Wi-Fi toggle button pressed" (CHECKED or PRESSED → "pressed")
               focused format 'toggleState' when it changes      → "not pressed"
  slider       'labelOrName + roleName + value' (valuetext first, roleName "horizontal slider") → "Text Size horizontal slider 50%"
  text         'labelOrName + readOnly + textRole + (text or placeholder ≠ name)' → "Device Name text"
Orca 43.1 registers no listener for object:announcement (scripts/default.py getListeners); what it speaks on
its own is a NOTIFICATION whose state-changed:showing(1) arrives ('roleName + labelOrName' → "notification
<text>"), so the announcement test only requires that the posted text is spoken.

Both stacks (harness.ORCA_STACKS): OrcaReadsTheDemo on Orca 43, OrcaReadsTheDemoOnOrca48 on Orca 48.1 with
at-spi2-core / libatspi 2.56 (ot.on_orca48). Where Orca 48 words a role differently (D-SPEECH-3, Specs/python-client.md
"Across Orca versions"), PHRASES holds each version's line, from Orca's own generators: PUSH_BUTTON is "button" on
libatspi 2.56's localized role names, a switch is "switch" (AXUtilitiesRole.is_switch), a slider adds its value as a
percentage of its range ("50 percent"). Orca 48 listens for object:announcement and speaks it once (D-ATSPI-ANNOUNCE-2:
the bridge then shows no notification object for the same text, else it was said twice).
"""
import os
import re
import shutil
import subprocess
import time
import unittest

import orca_transcript as ot
from atspi_helpers import AtspiClient
from harness import ROOT, RPC, A11yStack, start_server

APP = "axserver-demo"
# AX_ORCA_CAPTURE: another copy of the recipe (e.g. one that launches Orca differently); default Tools/orca_capture.sh
ORCA_CAPTURE = os.environ.get("AX_ORCA_CAPTURE") or os.path.join(ROOT, "Tools", "orca_capture.sh")
# Each Orca's whole line where the versions differ (regular expressions, anchored by the tests).
PHRASES = {
    "orca-43": {"reset": r"Reset All Settings push button", "wifi": r"Wi-Fi toggle button pressed",
                "slider": r"Text Size horizontal slider 50%", "slider60": r"60%"},
    "orca-48": {"reset": r"Reset All Settings button", "wifi": r"Wi-Fi switch pressed",
                "slider": r"Text Size horizontal slider 50% 50 percent", "slider60": r"60%( 60 percent)?"},
}


@unittest.skipIf(shutil.which("orca") is None, "orca is not installed (apt-get install orca): Orca tests skipped")
class OrcaReadsTheDemo(unittest.TestCase):
    #: The screen-reader stack (harness.ORCA_STACKS): "43" here, "48" in the …OnOrca48 variant.
    orca = "43"

    @classmethod
    def setUpClass(cls):
        cls.stack = A11yStack(xvfb=True, private_home=True, orca=cls.orca)
        cls.said = PHRASES[cls.stack.orca_name]
        cls.server = cls.client = None
        cls.orca_started = False
        try:
            cls.server, cls.sock, cls.tmp = start_server("--demo", env=cls.stack.env, atspi=True)
            ready = cls.server.lines[-1]
            if "atspi=off" in ready or "atspi=" not in ready:
                raise AssertionError("the server did not register on the AT-SPI bus: " + ready)
            cls.client = AtspiClient(cls.stack.env)
            cls.client.call("node", app=APP, where={"name": "Settings"})   # the app is on the desktop
            # Orca allows one instance per user (it pgreps for 'orca'); orca_capture.sh gives it a `pgrep` that sees
            # only Orcas on this stack, so a person's own Orca neither blocks nor is touched. Should an Orca of this
            # stack still run, wait for it rather than failing; never replace it (`orca -r` kills other Orcas).
            deadline = time.time() + 180
            while True:
                out = subprocess.run([ORCA_CAPTURE, "start"], env=cls.stack.env, capture_output=True, text=True, timeout=60)
                if out.returncode == 0 and "ORCA_PID=" in out.stdout:
                    break
                busy = "Another screen reader process is already running" in out.stdout + out.stderr
                if not busy or time.time() > deadline:
                    others = subprocess.run(["pgrep", "-u", str(os.getuid()), "-x", "orca"], capture_output=True, text=True).stdout.split()
                    raise AssertionError("orca_capture.sh start failed: %s %s%s" % (
                        out.stdout, out.stderr, " (other Orca PIDs of this user: %s)" % ", ".join(others) if busy else ""))
                try:   # our own failed attempt left its pid file (the process has exited)
                    os.remove(os.path.join(cls.stack.dir, "orca.pid"))
                except FileNotFoundError:
                    pass
                time.sleep(2)
            cls.orca_started = True
            cls.speech_log = os.path.join(cls.stack.dir, "orca-speech.log")
            # Orca announces itself; after that it is listening (Orca 48: once its device watches the keyboard).
            cls.wait_speech_cls(r"Screen reader on", 0, 15)
            ot.Orca._wait_for_keyboard(cls.stack)
        except BaseException:
            cls._cleanup()
            raise

    @classmethod
    def _cleanup(cls):
        if cls.orca_started:
            subprocess.run([ORCA_CAPTURE, "stop"], env=cls.stack.env, capture_output=True, timeout=60)
        if cls.client:
            cls.client.close()
        if cls.server:
            cls.server.stop()
        cls.stack.stop()

    @classmethod
    def tearDownClass(cls):
        if os.environ.get("AX_ORCA_SHOW"):   # print everything Orca said (for reports)
            print("\n--- Orca said:\n" + "\n".join(cls.lines()))
        cls._cleanup()

    # -- speech log -----------------------------------------------------------------------------------------

    @classmethod
    def lines(cls, start=0):
        try:
            with open(cls.speech_log, encoding="utf-8", errors="replace") as f:
                return [l.rstrip("\n") for l in f][start:]
        except FileNotFoundError:
            return []

    @classmethod
    def wait_speech_cls(cls, regex, start, timeout=8.0):
        r = re.compile(regex)
        deadline = time.time() + timeout
        while True:
            got = cls.lines(start)
            hit = [l for l in got if r.search(l)]
            if hit or time.time() > deadline:
                return hit, got
            time.sleep(0.05)

    def mark(self):
        return len(self.lines())

    def expect_speech(self, regex, start, what, timeout=8.0):
        hit, got = self.wait_speech_cls(regex, start, timeout)
        if not hit:
            self.fail("Orca did not say /%s/ after %s; it said: %r\n(orca debug log: %s/orca.log)" % (
                regex, what, got, self.stack.dir))
        return hit

    def focus(self, name, role=None):
        where = {"name": name}
        if role:
            where["role"] = role
        start = self.mark()
        self.assertTrue(self.client.call("grab_focus", app=APP, where=where), "GrabFocus(%r) returned false" % name)
        return start

    # -- tests --------------------------------------------------------------------------------------------------

    def test_1_push_button(self):
        start = self.focus("Reset All Settings")
        self.expect_speech(r"^%s\.?$" % self.said["reset"], start, "GrabFocus on 'Reset All Settings'")
        self.expect_speech(r"^Asks before resetting\.?$", start, "GrabFocus on 'Reset All Settings' (its accessibilityHint)")

    def test_2_switch(self):
        start = self.focus("Wi-Fi")
        self.expect_speech(r"^%s\.?$" % self.said["wifi"], start, "GrabFocus on the Wi-Fi switch (on)")
        # toggling the focused switch: Orca presents the new state of the locus of focus
        start = self.mark()
        self.assertTrue(self.client.call("action", app=APP, where={"name": "Wi-Fi"}, index=0))
        try:
            self.expect_speech(r"^not pressed\.?$", start, "DoAction(0) on the focused Wi-Fi switch (now off)")
        finally:
            start = self.mark()
            self.client.call("action", app=APP, where={"name": "Wi-Fi"}, index=0)
        self.expect_speech(r"^pressed\.?$", start, "DoAction(0) again (back on)")

    def test_3_slider(self):
        start = self.focus("Text Size")
        self.expect_speech(r"^%s\.?$" % self.said["slider"], start, "GrabFocus on the Text Size slider")
        start = self.mark()
        try:
            self.client.call("set_value", app=APP, where={"name": "Text Size"}, value=0.6)
            self.expect_speech(r"^%s\.?$" % self.said["slider60"], start, "Value.CurrentValue = 0.6 on the focused slider")
        finally:
            self.client.call("set_value", app=APP, where={"name": "Text Size"}, value=0.5)

    def test_4_text_field(self):
        start = self.focus("Device Name")
        self.expect_speech(r"^Device Name text\.?$", start, "GrabFocus on the Device Name text field")

    def test_6_alert_is_read(self):
        # DemoApp: activating "Reset All Settings" presents a modal alert titled "Reset All Settings?" with the
        # message "This cannot be undone." and buttons Cancel / Reset. A screen reader user must hear the alert
        # (title and message), not only the button that gets focus.
        # test_5 leaves focus on the button (it returns there when the alert goes, D-FOCUS-7): focus elsewhere
        # first, so that GrabFocus on the button is a focus change Orca presents.
        self.focus("Wi-Fi")
        time.sleep(0.3)
        start = self.focus("Reset All Settings")
        self.expect_speech(r"^Asks before resetting\.?$", start, "GrabFocus on 'Reset All Settings'")
        start = self.mark()
        self.assertTrue(self.client.call("action", app=APP, where={"name": "Reset All Settings"}, index=0))
        try:
            self.expect_speech(r"Reset All Settings\?", start, "DoAction(0) on 'Reset All Settings' (the alert title)")
            self.expect_speech(r"This cannot be undone", start, "DoAction(0) on 'Reset All Settings' (the alert message)")
        finally:
            self.client.call("action", app=APP, where={"name": "Cancel"}, index=0)
            time.sleep(0.5)

    def test_5_announcement(self):
        # The demo announces "Alert dismissed" when its alert is cancelled (an app's own UIAccessibility.post;
        # a test client may not post for the app, D-TRUST-1).
        self.focus("Reset All Settings")
        self.assertTrue(self.client.call("action", app=APP, where={"name": "Reset All Settings"}, index=0))
        time.sleep(0.5)
        start = self.mark()
        self.assertTrue(self.client.call("action", app=APP, where={"name": "Cancel"}, index=0))
        self.expect_speech(r"Alert dismissed", start,
                           "the demo's announcement after Cancel (Orca 43 has no object:announcement listener; it "
                           "speaks a NOTIFICATION on state-changed:showing)")
        # Focus returns to the button that presented the alert, and Orca says so (D-FOCUS-7; before, focus was
        # cleared and Orca said nothing about where the user is).
        self.expect_speech(r"^%s\.?$" % self.said["reset"], start,
                           "Cancel on the alert (focus returns to 'Reset All Settings')")
        # Said once: Orca 48 speaks the announcement and would speak a notification object with the same text again.
        said = [line for line in self.lines(start) if "Alert dismissed" in line]
        self.assertEqual(len(said), 1, "the announcement was said %d times: %r" % (len(said), self.lines(start)))


OrcaReadsTheDemoOnOrca48 = ot.on_orca48(OrcaReadsTheDemo)


if __name__ == "__main__":
    unittest.main()
