"""Text an app reports, over AT-SPI with pyatspi (D-TEXT-APP-1…4): the notes reader
(Tests/Integration/data/notes_provider.py, on the Python provider library) — its note keeps its own caret
(`selectedTextRange`), its article sends attribute runs and line boxes. A screen reader's `SetCaretOffset` /
`SetSelection` on the note become the app's `setSelectedTextRange` and the app's answer is the reply; `CaretOffset` /
`GetSelection` read the app's range; `GetAttributeRun` answers GTK's attribute names; line boundaries follow the app's
line boxes; a change of the app's attribute runs is `object:text-attributes-changed` (the article's "Ignore spelling").
"""
import os
import unittest

from atspi_helpers import AtspiClient
from harness import ProviderStack

HERE = os.path.dirname(os.path.abspath(__file__))
NOTES = os.path.join(HERE, "data", "notes_provider.py")
TEXT = "org.a11y.atspi.Text"


class TextTheAppReports(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.session = ProviderStack(providers=[(NOTES, "notes")], rpc_timeout=20)
        try:
            cls.atspi = AtspiClient(cls.session.env)
        except BaseException:
            cls.session.close()
            raise
        cls.session.keep(cls.atspi.close)
        cls.rpc = cls.session.rpc
        cls.notes = cls.session.providers["notes"]

    @classmethod
    def tearDownClass(cls):
        cls.session.close()

    def path(self, name):
        return self.atspi.call("node", app="notes", where={"name": name})["path"]

    def raw(self, name, method, sig=None, args=()):
        got = self.atspi.call("raw", app="notes", path=self.path(name), iface=TEXT, method=method, sig=sig,
                              args=list(args))
        self.assertIn("reply", got, got)
        return got["reply"]

    def test_1_a_screen_readers_caret_moves_go_to_the_app(self):
        self.assertEqual(self.raw("Note", "SetCaretOffset", "(i)", [3]), [True])
        self.notes.wait_line("ACTION setSelectedTextRange note", timeout=5)
        note = self.rpc.result("element.get", {"target": {"id": "note"}, "app": "notes"})
        self.assertEqual(note["selectedTextRange"], [3, 0])
        self.assertEqual(self.raw("Note", "SetSelection", "(iii)", [0, 4, 8]), [True])
        self.assertEqual(self.raw("Note", "GetNSelections"), [1])
        self.assertEqual(self.raw("Note", "GetSelection", "(i)", [0]), [4, 8], "the app's selection: 'milk'")
        self.assertEqual(self.raw("Note", "RemoveSelection", "(i)", [0]), [True])
        self.assertEqual(self.raw("Note", "GetNSelections"), [0])
        self.assertEqual(self.raw("Note", "SetCaretOffset", "(i)", [99]), [False], "past the text: nothing sent")

    def test_2_attribute_runs_with_gtk_names(self):
        attributes, start, end = self.raw("Article", "GetAttributeRun", "(ib)", [5, False])
        self.assertEqual((start, end), (4, 9))
        self.assertEqual(attributes, {"weight": "700"})
        attributes, start, end = self.raw("Article", "GetAttributeRun", "(ib)", [1, False])
        self.assertEqual(attributes, {"invalid": "spelling"})
        self.assertEqual(self.raw("Article", "GetAttributeValue", "(is)", [17, "style"]), ["italic"])

    def test_3_lines_are_the_apps_line_boxes(self):
        line, start, end = self.raw("Article", "GetTextAtOffset", "(iu)", [22, 5])  # LINE_START
        self.assertEqual((line, start, end), ("jumps over the lazy ", 20, 40))
        x1, y1, _, h1 = self.raw("Article", "GetCharacterExtents", "(iu)", [0, 0])
        x2, y2, _, _ = self.raw("Article", "GetCharacterExtents", "(iu)", [20, 0])
        self.assertEqual(x1, x2, "each line starts at the same x")
        self.assertEqual(y2 - y1, 24, "the second line is its own row, 24 pt below")
        self.assertEqual(h1, 24)

    def test_4_changed_attribute_runs_say_text_attributes_changed(self):
        self.atspi.call("listen", types=["object:text-attributes-changed"])
        self.atspi.call("collect", seconds=0.2)
        # The app publishes the new runs before it answers (the provider library's order).
        self.rpc.result("action.custom", {"target": {"id": "article"}, "name": "Ignore spelling", "app": "notes"})
        events = self.atspi.call("collect", seconds=5, until_type="object:text-attributes-changed")
        changed = [e for e in events if e["type"] == "object:text-attributes-changed"]
        self.assertEqual([e["source_name"] for e in changed], ["Article"], events)
        attributes, start, end = self.raw("Article", "GetAttributeRun", "(ib)", [1, False])
        self.assertEqual((attributes, start, end), ({}, 0, 4), "the misspelling is gone: a gap up to 'quick'")
