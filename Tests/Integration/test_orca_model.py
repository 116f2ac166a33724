"""The Orca speech model (speech.describe, D-SPEECH-2, D-SPEECH-3) against real Orca on the demo, control by control:
Orca 43 with `screenReader: "orca-43"`, and Orca 48.1 on at-spi2-core 2.56 (…OnOrca48) with `"orca-48"`.

Same recipe as test_orca.py (Tools/orca_capture.sh: Xvfb, private home, Orca's speech appended to a log, Orca
started and stopped by PID). For each control, focus moves there the way Orca's structural navigation does it
(Component.GrabFocus); every line the model predicts must then be one of the lines Orca speaks, word for word.
Orca may say more (the container it enters, which depends on where focus was before): the model leaves that out
on purpose, so extra lines are allowed.
"""
import os
import re
import time
import unittest

import orca_transcript as ot
import test_orca
from harness import RPC

APP = test_orca.APP

# (accessible name on AT-SPI, node id on JSON-RPC[, AT-SPI role name]): roles the demo shows beyond test_orca.py's four.
CONTROLS = [
    ("Light", "appearance#0"),          # radio button, checked
    ("Dark", "appearance#1"),           # radio button, not checked
    ("Home", "tabHome"),                # page tab
    ("Settings", "tabSettings", "page tab"),   # page tab, selected (the frame is named Settings too)
    ("Automatic", "appearance#2"),      # radio button, not checked
    ("Copies", "copies"),               # spin button
    ("Help", "help"),                   # link
    ("Display & Brightness", "cellDisplay"),   # push button (disclosure cell)
    ("Edit", "editButton"),             # push button
    ("General", "navBar#back"),         # push button (back item)
    ("Bluetooth", "cellBluetooth"),     # toggle button, not pressed
]


class OrcaModelAgreesWithOrca(test_orca.OrcaReadsTheDemo):
    # Only this class's test runs here; the inherited ones run in test_orca.py.
    test_1_push_button = None
    test_2_switch = None
    test_3_slider = None
    test_4_text_field = None
    test_5_announcement = None
    test_6_alert_is_read = None

    def test_model_lines_are_spoken(self):
        rpc = RPC(self.sock)
        rpc.result("initialize", {"role": "automation"})
        differences = []
        heard = []
        try:
            for entry in CONTROLS:
                name, node = entry[0], entry[1]
                where = {"name": name, "role": entry[2]} if len(entry) > 2 else {"name": name}
                model = rpc.result("speech.describe", {"app": APP, "target": {"id": node}, "model": "orca",
                                                       "screenReader": self.stack.orca_name})["orca"]["utterances"]
                start = self.mark()
                if not self.client.call("grab_focus", app=APP, where=where):
                    differences.append("%s: GrabFocus returned false" % name)
                    continue
                first = re.compile("^" + re.escape(model[0]) + r"\.?$")
                self.wait_speech_cls(first.pattern, start, 6)
                time.sleep(0.6)   # the description line follows the object's line
                spoken = [line.rstrip(".") for line in self.lines(start)]
                heard.append("%s -> %r (model %r)" % (name, spoken, model))
                missing = [line for line in model if line not in spoken]
                if missing:
                    differences.append("%s: model %r, Orca said %r" % (name, model, spoken))
        finally:
            rpc.close()
        if os.environ.get("AX_ORCA_SHOW"):
            print("\n" + "\n".join(heard))
        self.assertEqual(differences, [], "\n".join(differences))


OrcaModelAgreesWithOrcaOnOrca48 = ot.on_orca48(OrcaModelAgreesWithOrca)


if __name__ == "__main__":
    unittest.main()
