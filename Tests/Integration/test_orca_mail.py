"""Orca reads a multi-line reading pane line by line (issue 21 §3, §7; D-TEXT-LINES-1), in a second app: the mail
client pushed by a plain Python provider (Tests/Integration/data/mail_provider.py), on a private stack with Xvfb and
an isolated Orca (Tests/Integration/orca_transcript.py's driver, keys through `input.key`) — Orca 43, and Orca 48.1 on
at-spi2-core 2.56 in …OnOrca48 (ot.on_orca48; same keys, same expectations).

Script: accessibility focus on the read-only reading pane and Down, Down, Up (caret navigation, D-KEYOP-5: Orca
reads the line the caret reaches, as in a GTK TextView); then focus the first message row (its body, three lines, is
shown in the pane), then Orca's flat review: KP_8 (current line), KP_9 (next line) until the review reaches the pane and passes it. Expected: each
line of the pane is its own review line ("Hi,", "are we still on for lunch on Friday?", "Alice"), as GTK lays out a
TextView's lines. Before D-TEXT-LINES-1 every line of the pane sat side by side on one row and the review read the
three lines as one. The transcript goes to $AX_TEST_OUTPUT_DIR/orca-mail/ (default a fresh folder under /tmp).
"""
import os
import unittest

import orca_transcript as ot
from harness import ProviderStack

SKIP = ot.prerequisites()
HERE = os.path.dirname(os.path.abspath(__file__))
MAIL = os.path.join(HERE, "data", "mail_provider.py")
BODY = ["Hi,", "are we still on for lunch on Friday?", "Alice"]


@unittest.skipIf(SKIP, "Orca transcripts need Orca, xdotool, Xvfb and GTK 4: %s" % SKIP)
class OrcaReadsTheMailByLine(unittest.TestCase):
    #: The screen-reader stack (harness.ORCA_STACKS): "43" here, "48" in the …OnOrca48 variant.
    orca = "43"

    @classmethod
    def setUpClass(cls):
        cls.folder = ot.output_dir("orca-mail" if cls.orca == "43" else "orca48-mail")
        session = ProviderStack(providers=[(MAIL, "mail")], xvfb=True, private_home=True, rpc_timeout=20,
                                orca=cls.orca)
        try:
            rpc = session.rpc
            orca = ot.Orca(session.stack)
            session.keep(orca.stop)
            t = ot.Transcript(orca, ot.RpcKeys(rpc, app="mail"), "mail", budget=120.0)
            # Caret navigation in the read-only pane (D-KEYOP-5): accessibility focus on it, then Down, Down, Up.
            rpc.result("focus.set", {"target": {"id": "body"}, "app": "mail"})
            t.step("caret", "focus.set the reading pane", [])
            for key in ("Down", "Down", "Up"):
                t.press("caret", key)
            rpc.result("focus.update", {"target": {"id": "msg0"}, "app": "mail"})
            t.step("focus", "focus.update the first message", [])
            t.press("flat-review", "KP_Up", what="KP_8 (review current line)")
            for _ in range(10):
                t.press("flat-review", "KP_Page_Up", what="KP_9 (review next line)")
            t.press("flat-review", "KP_Subtract", what="KP_Subtract (leave flat review)")
            cls.steps = t.steps
            ot.save_transcript(cls.folder, "mail.txt", cls.steps, "mail provider (keys: input.key)")
        finally:
            session.close()

    def test_caret_keys_read_the_read_only_pane_by_line(self):
        caret = [s for s in self.steps if s["section"] == "caret" and s["what"] in ("Down", "Up")]
        spoken = [" ".join(u.strip() for u in s["spoken"]) for s in caret]
        self.assertEqual(len(spoken), 3)
        self.assertIn(BODY[1].rstrip("?"), spoken[0], "Down did not read the second line: %r" % spoken)
        self.assertIn(BODY[2], spoken[1], "Down did not read the third line: %r" % spoken)
        self.assertIn(BODY[1].rstrip("?"), spoken[2], "Up did not read the second line again: %r" % spoken)

    def test_each_line_of_the_reading_pane_is_its_own_review_line(self):
        utterances = [u.strip() for s in self.steps if s["section"] == "flat-review" for u in s["spoken"]]
        for line in BODY:
            self.assertTrue(any(u.rstrip(".") == line.rstrip(".") for u in utterances),
                            "flat review never read %r as a line of its own: %r" % (line, utterances))
        joined = " ".join(BODY)
        self.assertFalse(any(joined in " ".join(u.split()) for u in utterances),
                         "the pane's lines were read as one: %r" % utterances)


OrcaReadsTheMailByLineOnOrca48 = ot.on_orca48(OrcaReadsTheMailByLine)


if __name__ == "__main__":
    unittest.main()
