"""What a Tk Text draws, mirrored: its visible display lines as reading-content line boxes (D-TEXT-APP-4) and its
styled tags as attribute runs (D-TEXT-APP-3), read back through JSON-RPC (element fields ``readingContent``,
``textAttributes``) and through AT-SPI (pyatspi: ``GetAttributeRun``, LINE boundaries), in a styled-text app and
in the 10,000-line editor (Specs/tk-adapter.md §Line boxes and attribute runs)."""
import json
import re
import subprocess

import pytest

from tk_support import needs_tk, tk_app, tk_client, xvfb_display  # noqa: F401

SYSTEM_PYTHON = "/usr/bin/python3"
DEBUG = {"AXCLIENT_TK_DEBUG": "1"}

pytestmark = [needs_tk]


def have_pyatspi():
    return subprocess.run([SYSTEM_PYTHON, "-c", "import pyatspi"], capture_output=True, timeout=30).returncode == 0


def sent_ops(app, since=0):
    """The ops of the patches the adapter sent after stderr offset ``since`` (its ``AXCLIENT_TK_DEBUG`` lines)."""
    ops = []
    for line in app.stderr_text()[since:].splitlines():
        found = re.search(r"send ops: \d+ ops, \d+ bytes: (.*)$", line)
        if found:
            ops.extend(json.loads(found.group(1)))
    return ops


def layout(ax, view_id):
    element = ax.get_by_id(view_id).element()
    lines = (element.get("readingContent") or {}).get("lines") or []
    return element, [line["content"] for line in lines], element.get("textAttributes") or []


def span(text, word):
    return [text.index(word), len(word)]


@pytest.mark.axserver(demo=False)
def test_a_styled_text_publishes_its_line_boxes_and_attribute_runs(tk_app, tk_client):
    app = tk_app("styled_text_app.py", env=DEBUG)
    ax = tk_client(app.app_id)
    text = ax.get_by_id(".notes").value()
    assert ax.wait_until(lambda: layout(ax, ".notes")[1][:1] == ["Release notes"], timeout=5), layout(ax, ".notes")
    element, contents, runs = layout(ax, ".notes")
    # Runs: bold heading (a font tuple), underlined link, italic word (a named font); the colour-only tag none.
    assert runs == [{"range": span(text, "Release notes"), "attributes": {"bold": True}},
                    {"range": span(text, "manual"), "attributes": {"underline": True}},
                    {"range": span(text, "upgrading"), "attributes": {"italic": True}}], runs
    # Line boxes: the visible display lines, the paragraph split by word wrap (no newline in it), top to bottom,
    # inside the widget's frame (screen coordinates in the element JSON).
    assert contents[1] == "Read the \U0001F4D8 manual before upgrading."
    paragraph = text.splitlines()[2]
    wrapped = [line for line in contents if line and line not in ("Release notes",) and line.strip() in paragraph]
    assert len(wrapped) >= 2 and "".join(wrapped) == paragraph, contents
    assert 6 <= len(contents) <= 20, contents  # the visible lines only, not the 34 of the text
    box = element["frame"]
    frames = [line["frame"] for line in element["readingContent"]["lines"]]
    assert all(box["x"] <= f["x"] and box["y"] <= f["y"] < box["y"] + box["height"] and f["width"] > 0
               and f["height"] > 0 for f in frames), (frames, box)
    assert [f["y"] for f in frames] == sorted(f["y"] for f in frames)
    # A caret move (Tk's own End binding) changes neither: the patches carry the caret only.
    notes = ax.get_by_id(".notes")
    notes.click()
    mark = len(app.stderr_text())
    notes.press("End")
    assert ax.wait_until(lambda: notes.element().get("selectedTextRange") == [len("Release notes"), 0], timeout=5), \
        notes.element().get("selectedTextRange")
    assert ax.wait_until(lambda: sent_ops(app, mark), timeout=5)
    for op in sent_ops(app, mark):
        assert not {"accessibilityReadingContent", "attributedText"} & set(op.get("properties", {})), op
    # Offsets are Python characters (Unicode scalars) past the non-BMP book emoji, for the caret as for the runs.
    notes.press("Down")
    notes.press("End")
    line_end = text.index("upgrading.") + len("upgrading.")
    assert ax.wait_until(lambda: notes.element().get("selectedTextRange") == [line_end, 0], timeout=5), \
        (notes.element().get("selectedTextRange"), line_end)
    # An Entry too (its Tk indices count UTF-16 units): End then Left is one character before the end.
    title = ax.get_by_id(".title")
    title.click()
    title.press("End")
    title.press("Left")
    assert ax.wait_until(lambda: title.element().get("selectedTextRange") == [len("Notes \U0001F4D8 v"), 0],
                         timeout=5), title.element().get("selectedTextRange")
    # The app's own `tag configure` (it reads like a read) restyles a run.
    ax.get_by_id(".restyle").click()
    assert ax.wait_until(lambda: {"italic": True, "underline": True} in [r["attributes"] for r in layout(ax, ".notes")[2]],
                         timeout=5), layout(ax, ".notes")[2]
    # The app scrolls: the line boxes are the newly visible lines.
    ax.get_by_id(".scroll").click()
    assert ax.wait_until(lambda: layout(ax, ".notes")[1][:1] not in ([], ["Release notes"]), timeout=5)
    assert all(line.startswith("item ") or line == "" for line in layout(ax, ".notes")[1]), layout(ax, ".notes")[1]


@pytest.mark.axserver(demo=False)
def test_line_boxes_follow_the_view_of_a_10000_line_text(tk_app, tk_client):
    app = tk_app("big_text_app.py", args=["10000"])
    ax = tk_client(app.app_id)
    assert ax.wait_until(lambda: layout(ax, ".editor")[1][:1] == ["line 1 of the big file, some words to read"],
                         timeout=5), layout(ax, ".editor")[1][:2]
    element, contents, runs = layout(ax, ".editor")
    assert runs == [] and "textAttributes" not in element  # no styled tag: no runs
    assert 10 <= len(contents) <= 30  # the visible lines of 10,000
    ax.get_by_id(".jump").click()  # the app's `see 9000.0`
    assert ax.wait_until(lambda: "line 9000 of the big file, some words to read" in layout(ax, ".editor")[1],
                         timeout=5), layout(ax, ".editor")[1][:2]
    assert len(layout(ax, ".editor")[1]) <= 30


READ_ATSPI = r"""
import json, sys, time
import pyatspi
def find(node, prefix="Release notes", depth=0):
    if node is None or depth > 40:
        return None
    if node.getRoleName() == "text" and node.queryText().getText(0, len(prefix)) == prefix:
        return node
    for index in range(node.childCount):
        hit = find(node.getChildAtIndex(index), prefix, depth + 1)
        if hit is not None:
            return hit
    return None
found, deadline = None, time.time() + 20
while found is None and time.time() < deadline:
    desktop = pyatspi.Registry.getDesktop(0)
    for index in range(desktop.childCount):
        app = desktop.getChildAtIndex(index)
        if app is not None and app.name == sys.argv[1]:
            found = find(app)
    if found is None:
        time.sleep(0.2)
text = found.queryText()
answer = {"runs": [], "lines": []}
for offset in json.loads(sys.argv[2]):
    attributes, start, end = text.getAttributeRun(offset, False)
    answer["runs"].append([sorted(attributes), start, end])
for offset in json.loads(sys.argv[3]):
    answer["lines"].append(list(text.getTextAtOffset(offset, pyatspi.TEXT_BOUNDARY_LINE_START)))
answer["caret"] = [text.setCaretOffset(int(sys.argv[4])), text.caretOffset]
entry = None
for index in range(desktop.childCount):
    app = desktop.getChildAtIndex(index)
    if app is not None and app.name == sys.argv[1]:
        entry = find(app, "Notes ")
answer["entryCaret"] = [entry.queryText().setCaretOffset(int(sys.argv[5])), entry.queryText().caretOffset]
print(json.dumps(answer), flush=True)
"""


@pytest.mark.axserver(demo=False, atspi=True, fresh=True)
@pytest.mark.skipif(not have_pyatspi(), reason="needs python3-pyatspi (Tools/install-deps.sh)")
def test_a_screen_reader_reads_tk_runs_and_wrapped_lines(tk_app, tk_client, axserver):
    app = tk_app("styled_text_app.py")
    ax = tk_client(app.app_id)
    assert ax.wait_until(lambda: len(layout(ax, ".notes")[2]) == 3, timeout=5), layout(ax, ".notes")
    text = ax.get_by_id(".notes").value()
    contents = layout(ax, ".notes")[1]
    paragraph = text.splitlines()[2]
    second = next(line for line in contents if line and line != paragraph and line in paragraph[1:])
    offsets = [text.index("Release") + 2, text.index("manual") + 1, text.index("upgrading") + 1]
    out = subprocess.run([SYSTEM_PYTHON, "-c", READ_ATSPI, "styled_text_app", json.dumps(offsets),
                          json.dumps([text.index(second) + 2]), str(text.index("manual")),
                          str(len("Notes \U0001F4D8 v"))], env=axserver.stack.env(),
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr[-2000:]
    answer = json.loads(out.stdout.strip().splitlines()[-1])
    heading, link, emphasis = answer["runs"]
    assert "weight:700" in heading[0] and heading[1:] == [0, len("Release notes")], heading
    assert "underline:single" in link[0] and link[1:] == [text.index("manual"), text.index("manual") + 6], link
    assert "style:italic" in emphasis[0] and emphasis[1] == text.index("upgrading"), emphasis
    # SetCaretOffset past the non-BMP emoji puts Tk's insert mark on that character ("m" of "manual"): the adapter
    # converts Python characters to Tk's UTF-16 count both ways.
    manual = text.index("manual")
    assert answer["caret"] == [True, manual], answer["caret"]
    assert ax.get_by_id(".notes").element().get("selectedTextRange") == [manual, 0]
    # The Entry's caret past its emoji too (Tk 8.6 Entry indices count UTF-16 units both ways).
    assert answer["entryCaret"] == [True, len("Notes \U0001F4D8 v")], answer["entryCaret"]
    assert ax.get_by_id(".title").element().get("selectedTextRange") == [len("Notes \U0001F4D8 v"), 0]
    ax.get_by_id(".notes").type_text("the ")
    assert ax.wait_until(lambda: "Read the \U0001F4D8 the manual" in ax.get_by_id(".notes").value(), timeout=5), \
        ax.get_by_id(".notes").value()[:60]
    # LINE boundaries are the display lines Tk wrapped the paragraph on (its second line box), not the paragraph.
    line, start, end = answer["lines"][0]
    assert start == text.index(second) and line.startswith(second) and len(line) <= len(second) + 1, answer["lines"]
