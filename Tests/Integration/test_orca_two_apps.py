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

`…OnOrca48` runs the same script with Orca 48.1 on at-spi2-core / libatspi 2.56 (Tools/install-orca48.sh; keys reach
Orca 48 through the server's org.freedesktop.a11y.Manager, D-KEY-MONITOR-1, and the app acts only after Orca's main
loop handled them, D-KEY-MONITOR-2). Skipped, with the install command, when the prefix is missing.
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
    #: The screen-reader stack (harness.ORCA_STACKS): "43" here, "48" in the …OnOrca48 variant (ot.on_orca48).
    orca = "43"

    @classmethod
    def setUpClass(cls):
        cls.folder = ot.output_dir("orca-two-apps" if cls.orca == "43" else "orca%s-two-apps" % cls.orca)
        session = ProviderStack("--demo", providers=[(MAIL, "mail")], xvfb=True, private_home=True, rpc_timeout=20,
                                orca=cls.orca)
        try:
            rpc = session.rpc
            orca = ot.Orca(session.stack)   # on Orca 48: returns once it watches the keyboard
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


OrcaFollowsKeysIntoASecondAppOnOrca48 = ot.on_orca48(OrcaFollowsKeysIntoASecondApp)


if __name__ == "__main__":
    unittest.main()
