"""Orca speaks the second app once keys are routed to it (D-ATSPI-ACTIVE-1), on a private stack with Xvfb and an
isolated Orca 43 (Tests/Integration/orca_transcript.py's driver, keys through `input.key`).

Two apps: `axserver --demo` and the mail client pushed by a plain Python provider
(Tests/Integration/data/mail_provider.py). Script: accessibility focus on the mail client's first message
(`focus.set`), then a key to the demo (Orca follows the demo), then keys routed to the mail client
(`input.key app=mail`): F5 (meaningless to the mail client and to Orca), KP_Enter (Orca's where am I), Down.
Expected: the first key routed to the mail client makes Orca present it ("Mail frame … Alice, Lunch on Friday"),
where am I reads the mail client's row and Down the next one. Orca presents only the window it saw activated; with
no window manager nothing activated the mail client's window, so Orca stayed on the demo (before the fix: F5 silent,
where am I read the demo's Edit button). The transcript goes to $AX_TEST_OUTPUT_DIR/orca-two-apps/ (default a fresh
folder under /tmp).
"""
import os
import unittest

import orca_transcript as ot
from harness import ProviderStack

SKIP = ot.prerequisites()
HERE = os.path.dirname(os.path.abspath(__file__))
MAIL = os.path.join(HERE, "data", "mail_provider.py")


@unittest.skipIf(SKIP, "Orca transcripts need Orca, xdotool, Xvfb and GTK 4: %s" % SKIP)
class OrcaFollowsKeysIntoASecondApp(unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        cls.folder = ot.output_dir("orca-two-apps")
        session = ProviderStack(
            "--demo", providers=[(MAIL, "mail")], xvfb=True, private_home=True, rpc_timeout=20)
        try:
            rpc = session.rpc
            orca = ot.Orca(session.stack)
            session.keep(orca.stop)
            demo_keys = ot.RpcKeys(rpc, app="axserver-demo")
            mail_keys = ot.RpcKeys(rpc, app="mail")
            t = ot.Transcript(orca, demo_keys, "two apps", budget=120.0)
            rpc.result("focus.set", {"target": {"id": "msg0"}, "app": "mail"})
            t.step("setup", "focus.set the mail client's first message", [])
            t.press("demo", "Tab")
            t.keys = mail_keys
            # F5 means nothing to the mail client and to Orca: only the routing can make Orca present the mail client.
            t.press("mail", "F5")
            t.press("mail", "KP_Enter", what="KP_Enter (Orca: where am I)")
            t.press("mail", "Down")
            cls.steps = t.steps
            ot.save_transcript(cls.folder, "two-apps.txt", cls.steps, "demo + mail provider (keys: input.key)")
        finally:
            session.close()

    def spoken(self, section):
        return [" ".join(u.split()) for s in self.steps if s["section"] == section for u in s["spoken"]]

    def test_orca_presents_the_mail_client_when_keys_go_there(self):
        demo = self.spoken("demo")
        self.assertTrue(any("Edit" in u for u in demo), "the demo's Tab was not spoken: %r" % demo)
        first = [" ".join(u.split()) for u in self.steps[2]["spoken"]]
        self.assertEqual(self.steps[2]["what"], "F5")
        self.assertTrue(any("Alice, Lunch on Friday" in u for u in first),
                        "Orca did not present the mail client's focused row when keys went there: %r" % first)

    def test_orca_commands_and_keys_then_work_in_the_mail_client(self):
        where, down = self.steps[3], self.steps[4]
        self.assertTrue(any("Alice, Lunch on Friday" in u for u in where["spoken"]),
                        "where am I did not read the mail client's row: %r" % where["spoken"])
        self.assertTrue(any("Bob, Build broken" in u for u in down["spoken"]),
                        "Down did not read the next row: %r" % down["spoken"])

if __name__ == "__main__":
    unittest.main()
