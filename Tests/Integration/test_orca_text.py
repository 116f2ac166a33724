"""Orca reads text an app reports about itself (D-TEXT-APP-1…5), in a third app: the notes reader pushed through the
Python provider library (Tests/Integration/data/notes_provider.py), on a private stack with Xvfb and an isolated
Orca (Tests/Integration/orca_transcript.py's driver, keys through `input.key`): Orca 43, and Orca 48.1 on at-spi2-core
2.56 in …OnOrca48 (ot.on_orca48).

Script: accessibility focus on the article (a read-only text view whose one paragraph wraps on three lines, sent as
line boxes — no newlines in its text) and Down, Down, Up: Orca reads the line the caret reaches, by the app's line
boxes (D-TEXT-APP-4; before, the paragraph was one line and Down said nothing new). Then Control+Home and Orca+F
(speak text attributes) on "Teh" (misspelled) and, after Control+Right, on "quick" (bold) (D-TEXT-APP-3). Then the
note, which keeps its own caret: End, BackSpace — the app edits with axclient.TextEditingModel and the server does
not (D-TEXT-APP-2). The transcript goes to $AX_TEST_OUTPUT_DIR/orca-text/ (default a fresh folder under /tmp).
"""
import os
import unittest

import orca_transcript as ot
from harness import ProviderStack

SKIP = ot.prerequisites()
HERE = os.path.dirname(os.path.abspath(__file__))
NOTES = os.path.join(HERE, "data", "notes_provider.py")
LINES = ["Teh quick brown fox", "jumps over the lazy", "dog by the river."]


@unittest.skipIf(SKIP, "Orca transcripts need Orca, xdotool, Xvfb and GTK 4: %s" % SKIP)
class OrcaReadsTextTheAppReports(unittest.TestCase):
    #: The screen-reader stack (harness.ORCA_STACKS): "43" here, "48" in the …OnOrca48 variant.
    orca = "43"

    @classmethod
    def setUpClass(cls):
        cls.folder = ot.output_dir("orca-text" if cls.orca == "43" else "orca48-text")
        session = ProviderStack(providers=[(NOTES, "notes")], xvfb=True, private_home=True, rpc_timeout=20,
                                orca=cls.orca)
        try:
            rpc = session.rpc
            notes = session.providers["notes"]
            orca = ot.Orca(session.stack)
            session.keep(orca.stop)
            t = ot.Transcript(orca, ot.RpcKeys(rpc, app="notes"), "notes", budget=120.0)
            rpc.result("focus.set", {"target": {"id": "article"}, "app": "notes"})
            t.step("lines", "focus.set the article", [])
            for key in ("Down", "Down", "Up"):
                t.press("lines", key)
            t.press("attributes", "Home", modifiers=("control",))
            t.press("attributes", "f", orca=True, what="Orca+F on Teh")
            t.press("attributes", "Right", modifiers=("control",))
            t.press("attributes", "Right")
            t.press("attributes", "f", orca=True, what="Orca+F on quick")
            rpc.result("focus.set", {"target": {"id": "note"}, "app": "notes"})
            t.step("note", "focus.set the note", [])
            t.press("note", "BackSpace")
            cls.steps = t.steps
            cls.note = rpc.result("element.get", {"target": {"id": "note"}, "app": "notes"})
            notes.wait_line("ACTION key", timeout=5)
            cls.actions = list(notes.lines)
            ot.save_transcript(cls.folder, "notes.txt", cls.steps, "notes provider (keys: input.key)")
        finally:
            session.close()

    def spoken(self, section, what):
        return [" ".join(u.strip() for u in s["spoken"]) for s in self.steps
                if s["section"] == section and s["what"] == what]

    def test_down_reads_the_apps_lines(self):
        downs = self.spoken("lines", "Down")
        self.assertEqual(len(downs), 2)
        self.assertIn("jumps over the lazy", downs[0], "Down did not read the second line box: %r" % downs)
        self.assertIn("dog by the river", downs[1], "the second Down did not read the third line: %r" % downs)
        self.assertNotIn("Teh quick", downs[0], "the paragraph was read as one line: %r" % downs)

    def test_orca_f_speaks_the_runs_attributes(self):
        # Orca speaks Orca+F's answer as the next key lands: read the attributes section as a whole.
        said = " ".join(" ".join(s["spoken"]) for s in self.steps if s["section"] == "attributes").lower()
        self.assertIn("misspelled", said, "Orca+F on 'Teh' (invalid:spelling): %r" % said)
        self.assertIn("bold", said, "Orca+F on 'quick' (weight:700): %r" % said)

    def test_the_note_is_edited_by_the_app(self):
        self.assertEqual(self.note.get("text"), "Buy mil")
        self.assertEqual(self.note.get("selectedTextRange"), [7, 0])
        self.assertTrue(any(line.startswith("ACTION key") for line in self.actions), self.actions)


OrcaReadsTextTheAppReportsOnOrca48 = ot.on_orca48(OrcaReadsTextTheAppReports)
