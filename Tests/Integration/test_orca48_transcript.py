"""The demo key by key under Orca 48.1 on at-spi2-core / libatspi 2.56 (issue 39), beside the GTK 4 twin under the
same Orca 48 — the key script of test_orca_transcript.py (Orca 43) on the second stack (Tools/install-orca48.sh).

Orca 48 takes keys through an Atspi.Device: for the GTK 4 twin its X11 device reads xdotool's X keys; for
`axserver --demo` the server owns org.freedesktop.a11y.Manager on the private session bus and Orca 48 uses the
a11y-manager device (D-KEY-MONITOR-1), so the keys `input.key` delivers reach Orca first and its grabs consume its
commands. Counted per key, against GTK 4: Orca commands that acted on the app (a command key the server did not
report consumed), keys after which Orca's locus left the operated control, keys that acted on GTK 4 and not on ours,
Tab stops. Transcripts go to $AX_TEST_OUTPUT_DIR/orca48-transcripts/ (printed). AX_ORCA_STACK=43 runs the same on
Orca 43 (a figure for the note; the Orca 43 test is test_orca_transcript.py).
"""
import json
import os
import sys
import time
import unittest

import orca_transcript as ot
from harness import RPC, ROOT, A11yStack, start_server

sys.path.insert(0, os.path.join(ROOT, "Sources", "PythonClient"))
from axclient import orca_stack  # noqa: E402

SKIP = ot.prerequisites()
STACK_CHOICE = os.environ.get("AX_ORCA_STACK", "48")
# Orca commands in the key script (Orca's desktop layout): they must never reach the app.
COMMAND_SECTIONS = ("where-am-i", "flat-review", "actions")


def resolve_stack():
    try:
        return orca_stack.resolve(STACK_CHOICE), None
    except orca_stack.OrcaStackUnavailable as error:
        return None, str(error)


def stack_for(chosen, keys_from_x):
    return A11yStack(xvfb=True, private_home=True, orca=chosen.prefix or "43", keys_from_x=keys_from_x)


def run_gtk4(chosen):
    stack = stack_for(chosen, keys_from_x=True)
    app = orca = None
    try:
        app = ot.start_twin(stack)
        orca = ot.Orca(stack)
        return ot.run_key_script(ot.Transcript(orca, ot.XKeys(stack.env), "gtk4"))
    finally:
        if orca:
            orca.stop()
        if app:
            app.stop()
        stack.stop()


def run_ours(chosen):
    stack = stack_for(chosen, keys_from_x=False)
    server = orca = rpc = None
    try:
        server, sock, _tmp = start_server("--demo", env=stack.env, atspi=True)
        rpc = RPC(sock, timeout=20)
        rpc.result("initialize", {"role": "automation"})
        orca = ot.Orca(stack)   # on Orca 48: returns once its device watches the keyboard
        return ot.run_key_script(ot.Transcript(orca, ot.RpcKeys(rpc), "ours"))
    finally:
        if orca:
            orca.stop()
        if rpc:
            rpc.close()
        if server:
            server.stop()
        stack.stop()


def command_counts(steps):
    """Orca command keys in the script (Orca+… and keypad keys that Orca ran a command for: its debug log names the
    handler; Orca 43.1 has no Orca+Shift+A), and those the server did not report consumed (they reached the app)."""
    commands = [s for s in steps if s["section"] in COMMAND_SECTIONS and s.get("answers") and s["handlers"]
                and any(key.startswith(("Orca+", "KP_")) for key in s["keys"])]
    acted = [s["what"] for s in commands if not all(a.get("consumed") for a in s["answers"] if a)]
    return len(commands), acted


def tab_stops(steps):
    return [s["locus"][1] for s in steps if s["section"] == "tab" and s["locus"]]


@unittest.skipIf(SKIP, "Orca transcripts need Orca, xdotool, Xvfb and GTK 4: %s" % SKIP)
class Orca48Transcripts(unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        cls.stack, cls.unavailable = resolve_stack()
        if cls.stack is None:
            return
        cls.folder = ot.output_dir("orca48-transcripts")
        started = time.time()
        cls.gtk = run_gtk4(cls.stack)
        cls.gtk_seconds = time.time() - started
        started = time.time()
        cls.ours = run_ours(cls.stack)
        cls.ours_seconds = time.time() - started
        for name, steps, title in (("gtk4", cls.gtk, "GTK4 twin, %s (xdotool)" % cls.stack.name),
                                   ("ours", cls.ours, "AXServer demo, %s (input.key)" % cls.stack.name)):
            with open(os.path.join(cls.folder, name + ".json"), "w") as f:
                json.dump(steps, f, indent=1)
            with open(os.path.join(cls.folder, name + ".txt"), "w") as f:
                f.write(ot.format_transcript(steps, title) + "\n")
        cls.operate_rows, cls.operate_counts = ot.operate_comparison(cls.gtk, cls.ours)
        cls.commands, cls.acted = command_counts(cls.ours)
        summary = {"stack": cls.stack.name, "keys_ours": sum(len(s["keys"]) for s in cls.ours),
                   "tab_stops_gtk": len(tab_stops(cls.gtk)), "tab_stops_ours": len(tab_stops(cls.ours)),
                   "gtk_only_stops": sorted(set(tab_stops(cls.gtk)) - set(tab_stops(cls.ours))),
                   "orca_commands": cls.commands, "commands_acting_on_app": cls.acted,
                   "operate": cls.operate_counts, "seconds": [round(cls.gtk_seconds, 1), round(cls.ours_seconds, 1)]}
        text = ot.format_operate(cls.operate_rows, cls.operate_counts) + "\nsummary: " + json.dumps(summary)
        with open(os.path.join(cls.folder, "operate.txt"), "w") as f:
            f.write(text + "\n")
        print("\n%s\norca48 transcripts: %s" % (text, cls.folder), flush=True)

    def setUp(self):
        if self.stack is None:
            self.skipTest("the Orca 48 stack is unavailable: %s" % self.unavailable)

    def test_1_gtk4_reference_under_the_same_orca(self):
        self.assertGreaterEqual(len(set(tab_stops(self.gtk))), 10, "GTK4: Tab reached %r" % tab_stops(self.gtk))

    def test_2_orca_commands_never_act_on_the_app(self):
        self.assertGreater(self.commands, 5, "the script pressed too few Orca commands on ours")
        self.assertEqual(self.acted, [], "Orca commands that reached the app instead of Orca")
        where = [s for s in self.ours if s["section"] == "where-am-i" and s["what"].startswith("KP_Enter")]
        self.assertTrue(where and where[0]["spoken"], "where-am-I said nothing: %r" % where)
        self.assertNotIn("Reset All Settings?", " ".join(line for s in self.ours if s["section"] == "where-am-i"
                                                         for line in s["spoken"]))

    def test_3_operating_keys_match_gtk4(self):
        counts = self.operate_counts
        self.assertEqual(counts["acts_on_gtk_not_ours"], 0, self.operate_rows)
        self.assertEqual(counts["jumps_ours"], 0, self.operate_rows)

    def test_4_tab_reaches_the_demos_controls(self):
        # The demo's controls (Sources/AXDemo/DemoApp.swift), as test_orca_transcript.py checks them on GTK 4.
        reached = set(tab_stops(self.ours))
        for name in ("Edit", "Wi-Fi", "Text Size", "Copies", "Device Name", "Reset All Settings", "Help", "Home",
                     "Profile"):
            self.assertIn(name, reached, "ours under %s: Tab never reached %r" % (self.stack.name, name))


if __name__ == "__main__":
    unittest.main()
