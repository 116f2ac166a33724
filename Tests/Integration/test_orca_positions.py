"""List rows say their position, as GTK list box rows do (issue 21 item 5, D-ATSPI-POS-1), heard through Orca 43
(and Orca 48.1 on at-spi2-core 2.56 in …OnOrca48, ot.on_orca48) with "speak object position" on (settings.enablePositionSpeaking; Tools/orca_capture.sh ORCA_POSITION_SPEAKING=1),
on a private stack with Xvfb, in the demo and in a second app (the mail client of data/mail_provider.py).

Script per app: F5 routed to the mail client (its window becomes the active one), engine focus on the list's first row (`focus.update`), then Down (a list row moves within its list,
D-KEYOP-1) — Orca speaks each row it reaches. Expected: the mail app's message rows and folder rows say "1 of 3",
"2 of 3"; the AT-SPI rows carry `posinset`/`setsize` (what Orca 45 and later read) counting rows only, also in
the demo's list whose section header and footer are no rows. The transcript goes to
$AX_TEST_OUTPUT_DIR/orca-positions/ (default a fresh folder under /tmp).
"""
import os
import re
import unittest

import orca_transcript as ot
from atspi_helpers import AtspiClient, find
from harness import ProviderStack

SKIP = ot.prerequisites()
HERE = os.path.dirname(os.path.abspath(__file__))
MAIL = os.path.join(HERE, "data", "mail_provider.py")
DEMO = "axserver-demo"


def spoken(step):
    return " ".join(u.strip() for u in step["spoken"])


@unittest.skipIf(SKIP, "Orca transcripts need Orca, xdotool, Xvfb and GTK 4: %s" % SKIP)
class OrcaSpeaksListPositions(unittest.TestCase):
    #: The screen-reader stack (harness.ORCA_STACKS): "43" here, "48" in the …OnOrca48 variant.
    orca = "43"

    @classmethod
    def setUpClass(cls):
        cls.folder = ot.output_dir("orca-positions" if cls.orca == "43" else "orca48-positions")
        session = ProviderStack(
            "--demo", providers=[(MAIL, "mail")], xvfb=True, private_home=True, env={"ORCA_POSITION_SPEAKING": "1"},
            rpc_timeout=20, orca=cls.orca)
        try:
            client = AtspiClient(session.env)
            session.keep(client.close)
            cls.dumps = {app: client.call("dump", app=app, check_links=False)["nodes"] for app in (DEMO, "mail")}
            rpc = session.rpc
            orca = ot.Orca(session.stack)
            session.keep(orca.stop)
            t = ot.Transcript(orca, ot.RpcKeys(rpc, app="mail"), "mail", budget=120.0)
            # F5 (meaningless to the mail client and to Orca) routed to the mail client activates its window
            # (D-ATSPI-ACTIVE-1): Orca 48 presents focus changes only in the active window (Orca 43 presented the
            # row of the inactive mail window too), as no desktop moves focus in a window it did not activate.
            t.press("setup", "F5")
            for section, first in (("messages", "msg0"), ("folders", "folderInbox")):
                rpc.result("focus.update", {"target": {"id": first}, "app": "mail"})
                t.step(section, "focus.update %s" % first, [])
                t.press(section, "Down")
            cls.steps = t.steps
            ot.save_transcript(
                cls.folder, "positions.txt", cls.steps, "mail provider, position speaking on (keys: input.key)")
        finally:
            session.close()

    def section(self, name):
        return [spoken(s) for s in self.steps if s["section"] == name]

    def test_message_rows_say_their_position(self):
        heard = self.section("messages")
        self.assertEqual(len(heard), 2)
        self.assertRegex(heard[0], r"Alice.*\b1 of 3\b", heard)
        self.assertRegex(heard[1], r"Bob.*\b2 of 3\b", heard)

    def test_folder_rows_say_their_position(self):
        heard = self.section("folders")
        self.assertEqual(len(heard), 2)
        self.assertRegex(heard[0], r"Inbox.*\b1 of 3\b", heard)
        self.assertRegex(heard[1], r"Sent.*\b2 of 3\b", heard)

    def test_rows_carry_posinset_and_setsize_counting_rows_only(self):
        mail = self.dumps["mail"]
        sent = find(mail, name="Sent")
        self.assertEqual((sent["attrs"].get("posinset"), sent["attrs"].get("setsize")), ("2", "3"))
        demo = self.dumps[DEMO]
        # The demo's list: a section header, four cells (two fold a switch: toggle buttons), a footer.
        for name, position in (("Wi-Fi", "1"), ("Bluetooth", "2"), ("Display & Brightness", "3"),
                               ("About, AXServer", "4")):
            node = find(demo, name=name)
            self.assertIsNotNone(node, name)
            self.assertEqual((node["attrs"].get("posinset"), node["attrs"].get("setsize")),
                             (position, "4"), name)
        header = find(demo, name="Connectivity")
        self.assertNotIn("posinset", header["attrs"])


OrcaSpeaksListPositionsOnOrca48 = ot.on_orca48(OrcaSpeaksListPositions)


if __name__ == "__main__":
    unittest.main()
