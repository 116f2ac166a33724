"""Text boundaries and table cells over AT-SPI as libatspi clients see them (issue 10's bridge bugs).

A private AT-SPI stack (Tools/a11y-stack.sh), `axserver` with the bridge, and an app published over JSON-RPC
(provider role) with a two-line label and a data table whose footer cell spans both columns. Expected values:
the text answers are GTK 4's for the same text in a GtkLabel (read with pyatspi: see h12's note), the spans come
from the published accessibilityRowRange/ColumnRange.
"""
import time
import unittest

from atspi_helpers import AtspiClient, wait_until
from harness import RPC, A11yStack, start_server

APP = "atspi-text-table"
TEXT = "Hello big world. Second one!\nLine two ends"
CHAR, WORD_START, WORD_END, SENTENCE_START, SENTENCE_END, LINE_START, LINE_END = range(7)


def view(view_id, cls, frame, children=(), **props):
    v = {"id": view_id, "class": cls, "frame": frame}
    v.update(props)
    if children:
        v["children"] = list(children)
    return v


def cell(view_id, text, row, column, column_span=1):
    return view(view_id, "UILabel", [column * 100, row * 40, 100 * column_span, 40], text=text,
                accessibilityRowRange=[row, 1], accessibilityColumnRange=[column, column_span])


HIERARCHY = {"windows": [view("w", "UIWindow", [0, 0, 400, 400], isKeyWindow=True, windowTitle="Text and table",
                              children=[
    view("paragraph", "UILabel", [10, 10, 380, 60], text=TEXT),
    view("grid", "UIView", [10, 100, 200, 120], accessibilityContainerType="dataTable", accessibilityLabel="People",
         accessibilityDataTable={"rows": 3, "columns": 2}, children=[
             cell("h0", "Name", 0, 0), cell("h1", "Age", 0, 1), cell("c10", "Ann", 1, 0), cell("c11", "31", 1, 1),
             cell("total", "Total", 2, 0, column_span=2)]),
])]}


class TextAndTableOverATSPI(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.stack = A11yStack()
        cls.server = cls.client = cls.provider = None
        try:
            cls.server, cls.sock, cls.tmp = start_server(env=cls.stack.env, atspi=True)
            cls.provider = RPC(cls.sock)
            cls.provider.result("initialize", {"role": "provider"})
            cls.provider.result("app.register", {"name": APP})
            cls.provider.result("hierarchy.set", HIERARCHY)
            cls.client = AtspiClient(cls.stack.env)
            ok = wait_until(lambda: any(a["name"] == APP for a in cls.client.call("apps")), timeout=15)
            if not ok:
                raise AssertionError("the published app never appeared on the AT-SPI desktop")
        except BaseException:
            cls._cleanup()
            raise

    @classmethod
    def _cleanup(cls):
        if cls.client:
            cls.client.close()
        if cls.provider:
            cls.provider.close()
        if cls.server:
            cls.server.stop()
        cls.stack.stop()

    @classmethod
    def tearDownClass(cls):
        cls._cleanup()

    def text_at(self, queries):
        return self.client.call("text_at", app=APP, where={"name": TEXT}, queries=queries)

    def test_text_at_the_end_is_the_last_unit_like_gtk(self):
        n = len(TEXT)
        got = self.text_at([[n, CHAR], [n, WORD_START], [n, SENTENCE_START], [n, LINE_START], [n, LINE_END],
                            [n, WORD_END], [n, SENTENCE_END]])
        self.assertEqual(got, [
            ["", n, n],
            ["ends", 38, 42],
            ["Line two ends", 29, 42],
            ["Line two ends", 29, 42],
            ["\nLine two ends", 28, 42],
            ["", n, n],          # the text ends on a word end and a sentence end: GTK answers empty there
            ["", n, n],
        ])

    def test_word_end_is_not_word_start(self):
        got = self.text_at([[5, WORD_START], [5, WORD_END], [16, WORD_START], [16, WORD_END]])
        self.assertEqual(got, [["Hello ", 0, 6], [" big", 5, 9], ["world. ", 10, 17], [". Second", 15, 23]])

    def test_table_cell_row_column_span(self):
        # libatspi reads `iiii`; a reply with any other signature fails the call.
        self.assertEqual(self.client.call("cell_span", app=APP, where={"name": "Total"}), [2, 0, 1, 2])
        self.assertEqual(self.client.call("cell_span", app=APP, where={"name": "31"}), [1, 1, 1, 1])


if __name__ == "__main__":
    unittest.main()
