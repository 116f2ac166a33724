"""Orca transcripts, GTK4 vs AXServer (issue 10 §6; Specs/orca-transcripts.md).

One key script (orca_transcript.run_key_script: Tab and Shift+Tab through the whole app, arrows in the tab bar,
the alert and Escape, where am I on the text field, Orca+KP_Enter, flat review, Orca+Shift+A) runs twice, each
time on its own private stack (Xvfb, session bus, AT-SPI bus, registry, private HOME) with its own isolated Orca
43 (speech captured by Tools/orca_capture.sh's hook):

  1. against Tools/gtk4_demo_twin.py (the GTK4 reference: the demo's controls with the demo's names), keys as
     real X input (xdotool, XTEST, on the stack's Xvfb);
  2. against `axserver --demo`, keys through JSON-RPC `input.key` (the server forwards them to the registry's
     DeviceEventController, so Orca hears them as it hears X keys; keys Orca does not consume are handled by the
     server's focus engine).

Then, per control, Orca's speech for ours must carry at least what it carries for GTK4 (name, role, state, value,
position; the rules are Specs/orca-transcripts.md §4). The transcripts and the comparison are written to
$AX_TEST_OUTPUT_DIR/orca-transcripts/ (default: a fresh directory under /tmp, printed) and printed.

The AXServer half is skipped only when the server has no `input.key` (JSON-RPC −32601).
"""
import json
import os
import time
import unittest

import orca_transcript as ot
from harness import RPC, A11yStack, start_server

SKIP = ot.prerequisites()


def save(folder, name, steps, title):
    text = ot.format_transcript(steps, title)
    with open(os.path.join(folder, name + ".json"), "w") as f:
        json.dump(steps, f, indent=1)
    with open(os.path.join(folder, name + ".txt"), "w") as f:
        f.write(text + "\n")
    print("\n" + text, flush=True)


def run_gtk4():
    stack = A11yStack(xvfb=True, private_home=True)
    app = orca = None
    try:
        app = ot.start_twin(stack)
        orca = ot.Orca(stack)
        keys = ot.XKeys(stack.env)
        return ot.run_key_script(ot.Transcript(orca, keys, "gtk4"))
    finally:
        if orca:
            orca.stop()
        if app:
            app.stop()
        stack.stop()


def run_ours():
    """The AXServer transcript, or the reason it could not run (str) when the server has no input.key."""
    stack = A11yStack(xvfb=True, private_home=True)
    server = orca = rpc = None
    try:
        server, sock, _tmp = start_server("--demo", env=stack.env, atspi=True)
        rpc = RPC(sock, timeout=20)
        rpc.result("initialize", {"role": "automation"})
        # Probe without side effects: an empty key name is −32602 when the method exists, −32601 when it does not.
        probe = rpc.call("input.key", {"key": ""})
        if probe.get("error", {}).get("code") == -32601:
            return "the server has no input.key (JSON-RPC -32601: %s)" % probe["error"].get("message")
        orca = ot.Orca(stack)
        keys = ot.RpcKeys(rpc)
        try:
            return ot.run_key_script(ot.Transcript(orca, keys, "ours"))
        except ot.InputKeyMissing as missing:
            return "the server has no input.key (JSON-RPC -32601: %s)" % missing
    finally:
        if orca:
            orca.stop()
        if rpc:
            rpc.close()
        if server:
            server.stop()
        stack.stop()


@unittest.skipIf(SKIP, "Orca transcripts need Orca, xdotool, Xvfb and GTK 4: %s" % SKIP)
class OrcaTranscripts(unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        cls.folder = ot.output_dir("orca-transcripts")
        print("\norca transcripts: %s" % cls.folder, flush=True)
        started = time.time()
        cls.gtk = run_gtk4()
        save(cls.folder, "gtk4", cls.gtk, "GTK4 twin (Tools/gtk4_demo_twin.py, keys: xdotool)")
        cls.gtk_seconds = time.time() - started
        started = time.time()
        cls.ours = run_ours()
        cls.ours_seconds = time.time() - started
        if isinstance(cls.ours, list):
            save(cls.folder, "ours", cls.ours, "AXServer demo (axserver --demo, keys: input.key)")
            rows, cls.problems, notes = ot.compare(cls.gtk, cls.ours)
            text = ot.format_comparison(rows, notes)
            with open(os.path.join(cls.folder, "comparison.txt"), "w") as f:
                f.write(text + "\n")
            print("\n" + text, flush=True)
            cls.operate_rows, cls.operate_counts = ot.operate_comparison(cls.gtk, cls.ours)
            text = ot.format_operate(cls.operate_rows, cls.operate_counts)
            with open(os.path.join(cls.folder, "operate.txt"), "w") as f:
                f.write(text + "\n")
            print("\n" + text, flush=True)
        print("orca transcripts: GTK4 %.1f s, ours %.1f s; files in %s" % (cls.gtk_seconds, cls.ours_seconds,
                                                                            cls.folder), flush=True)

    def section(self, steps, name):
        return [s for s in steps if s["section"] == name]

    def spoken(self, steps):
        return [line for s in steps for line in s["spoken"]]

    # -- the reference: the driver works against GTK4 -----------------------------------------------------------

    def test_1_gtk4_reference(self):
        tab = self.section(self.gtk, "tab")
        reached = [s["locus"][1] for s in tab if s["locus"]]
        for name in ("Edit", "Wi-Fi", "Text Size", "Copies", "Device Name", "Reset All Settings", "Help", "Home",
                     "Profile"):
            self.assertIn(name, reached, "GTK4: Tab never reached %r (reached %r)" % (name, reached))
        self.assertIn("Reset All Settings push button.", self.spoken(tab))
        escape = [s for s in self.section(self.gtk, "alert") if s["what"].startswith("Escape")]
        self.assertTrue(escape and escape[0]["locus"] and escape[0]["locus"][1] == "Reset All Settings",
                        "GTK4: Escape on the alert did not return focus to Reset All Settings: %r" % escape)
        where = [s for s in self.section(self.gtk, "where-am-i") if s["what"].startswith("KP_Enter")]
        self.assertTrue(where and "Perform the basic Where Am I operation" in where[0]["handlers"],
                        "GTK4: KP_Enter did not run Orca's where am I: %r" % where)

    # -- ours ---------------------------------------------------------------------------------------------------

    def require_ours(self):
        if isinstance(self.ours, str):
            self.skipTest(self.ours)

    def test_2_ours_reaches_every_section(self):
        self.require_ours()
        for name in ("tab", "arrows", "alert", "where-am-i", "flat-review", "actions", "shift-tab"):
            self.assertTrue(self.section(self.ours, name), "ours: the key script never ran section %r" % name)
        tab = self.section(self.ours, "tab")
        self.assertTrue(any(s["spoken"] for s in tab), "ours: Orca said nothing while Tab moved through the demo")
        escape = [s for s in self.section(self.ours, "alert") if s["what"].startswith("Escape")]
        self.assertTrue(escape, "ours: the key script never reached the alert (no 'Reset All Settings' by Tab)")

    def test_3_ours_carries_what_gtk4_carries(self):
        self.require_ours()
        self.assertEqual(self.problems, [], "Orca's speech for AXServer lacks what it says for GTK4 "
                                            "(Specs/orca-transcripts.md §4; files in %s)" % self.folder)


    def test_4_ours_operates_every_control_as_gtk4_does(self):
        """Issue 21 §7: per key on the slider, stepper, segmented control and text field, no key that makes Orca
        speak on GTK4 is silent on ours, and no key moves Orca's locus away from the control being operated."""
        self.require_ours()
        operated = {what.split(":")[0] for what, *_ in self.operate_rows}
        self.assertEqual(operated, {control for control, _names, _keys in ot.OPERATE},
                         "the operate section did not reach every control: %r" % sorted(operated))
        counts = self.operate_counts
        self.assertEqual(counts["jumps_ours"], 0, "keys moved focus away from the operated control on ours "
                                                  "(operate.txt in %s): %r" % (self.folder, counts))
        self.assertEqual(counts["acts_on_gtk_not_ours"], 0, "keys that act on GTK4 did nothing on ours "
                                                            "(operate.txt in %s): %r" % (self.folder, counts))


if __name__ == "__main__":
    unittest.main()
