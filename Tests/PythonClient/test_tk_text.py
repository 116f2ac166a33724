"""Text in real Tk apps under the adapter: a 10,000-line file published whole (D-TEXT-SPLICE-1), each keystroke a
`splice` patch the size of the edit, in a small Tk app and in real IDLE (Specs/tk-adapter.md §Big text)."""
import json
import os
import re
import shutil
import tempfile
import time

import pytest

from axclient import expect
from tk_support import needs_tk, tk_app, tk_client, xvfb_display  # noqa: F401

try:
    import idlelib  # noqa: F401
    HAVE_IDLE = True
except ImportError:  # pragma: no cover - Tools/install-deps.sh installs idle-python3.11
    HAVE_IDLE = False

pytestmark = [needs_tk, pytest.mark.axserver(demo=False)]

DEBUG = {"AXCLIENT_TK_DEBUG": "1"}


def sent_ops(app, since=0):
    """The patches the adapter sent after stderr offset ``since``: (ops count, bytes, ops or None) per patch, from
    its ``AXCLIENT_TK_DEBUG`` lines."""
    patches = []
    for line in app.stderr_text()[since:].splitlines():
        found = re.search(r"send ops: (\d+) ops, (\d+) bytes(?:: (.*))?$", line)
        if found:
            patches.append((int(found.group(1)), int(found.group(2)),
                            json.loads(found.group(3)) if found.group(3) else None))
    return patches


def wait_for(condition, timeout=10.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.05)
    return condition()


def test_a_10000_line_text_is_whole_and_a_keystroke_is_a_splice(tk_app, tk_client):
    app = tk_app("big_text_app.py", args=["10000"], env=DEBUG)
    ax = tk_client(app.app_id)
    editor = ax.get_by_id(".editor")
    value = editor.value()
    assert len(value.encode("utf-8")) > 400_000  # over the 64 KiB string limit: the 4 MiB text limit holds it
    assert value.startswith("line 1 of") and value.endswith("line 10000 of the big file, some words to read\n")
    # Findable: a query over the whole file finds its last lines.
    assert ax.query_count('textView[value*="line 9999 of the big"]') == 1
    mark = len(app.stderr_text())
    editor.type_text("Z")  # at the insert mark (the end): Tk's own KeyPress binding inserts it
    expect(editor).to_have_value(re.compile(r"read\nZ$"))
    patches = wait_for(lambda: [p for p in sent_ops(app, mark) if p[2] and p[2][0]["op"] == "splice"])
    assert patches, app.stderr_text()[mark:]
    count, size, ops = patches[0]
    assert ops[0] == {"op": "splice", "id": ".editor", "location": len(value), "length": 0, "text": "Z"}
    # The caret moved behind the new character in the same patch (after the splice: within the new text); the
    # new line scrolled the view, so the visible line boxes come along (§Line boxes and attribute runs).
    assert [op["op"] for op in ops[1:]] == ["set"] and ops[1]["id"] == ".editor", ops
    assert ops[1]["properties"]["selectedTextRange"] == [len(value) + 1, 0]
    assert set(ops[1]["properties"]) <= {"selectedTextRange", "accessibilityReadingContent"}, ops[1]
    assert size < 4000, "a keystroke costs the edit and the visible lines, not the file (%d bytes)" % size
    assert all(size < 6000 for _, size, _ in sent_ops(app, mark))
    # An edit in the middle and a deletion: the server's text follows each splice exactly.
    ax.get_by_id(".jump").click()  # the app scrolls to line 9000
    editor.set_value(value.replace("line 5000 of", "line 5000 (edited) of"))
    expect(editor).to_have_value(re.compile(r"line 5000 \(edited\) of the big"))
    assert not editor.value().endswith("Z")  # setValue replaced the content
    assert len(editor.value()) == len(value) + len(" (edited)")


@pytest.mark.skipif(not HAVE_IDLE, reason="needs idlelib (Tools/install-deps.sh: idle-python3.11)")
def test_idle_edits_a_10000_line_file_with_splices(tk_app, tk_client):
    home = tempfile.mkdtemp(prefix="axtk-idle-big-")
    try:
        path = os.path.join(home, "big_module.py")
        with open(path, "w") as handle:
            handle.write("".join("value_%d = %d  # a line of the big module\n" % (n, n) for n in range(1, 10001)))
        app = tk_app("idlelib", module=True, args=[path], env=dict(DEBUG, HOME=home))
        ax = tk_client(app.app_id, timeout=15)
        window = ax.locator('window[label*="big_module.py"]')
        expect(window).to_be_visible(timeout=20)
        editor = ax.get_by_id(window.locator("textView").first().element().id)
        expect(editor).to_have_value(re.compile(r"value_10000 = 10000  # a line of the big module\n?$"), timeout=20)
        mark = len(app.stderr_text())
        started = time.monotonic()
        editor.type_text("x = 1\n")
        expect(editor).to_have_value(re.compile(r"^x = 1\nvalue_1 = 1"))
        typed = time.monotonic() - started
        splices = [p for p in sent_ops(app, mark) if p[2] and any(op["op"] == "splice" for op in p[2])]
        assert splices, app.stderr_text()[mark:]
        # The edit and the visible line boxes (each line moved down by one), not the 400 KB file.
        assert max(size for _, size, _ in sent_ops(app, mark)) < 8000
        assert typed < 10, typed
        expect(ax.locator('window[label*="*"]')).to_be_visible()  # IDLE marks the file modified
        # The editor's scroll bar pages through the file (Tk's scroll command), and its value follows.
        scroll_bar = ax.locator('window[label*="big_module.py"] >> adjustable[label="Vertical scroll bar"]').first()
        expect(scroll_bar).to_have_value("0%")
        for _ in range(6):  # a page is ~0.25 % of 10,000 lines; the value reads in whole percents
            scroll_bar.increment()
        expect(scroll_bar).to_have_value(re.compile(r"^[1-9]%$"))
        for _ in range(6):
            scroll_bar.decrement()
        expect(scroll_bar).to_have_value("0%")
    finally:
        shutil.rmtree(home, ignore_errors=True)


def selected_range(ax, view_id):
    return ax.get_by_id(view_id).element().get("selectedTextRange")


def test_caret_and_selection_follow_keys_and_the_apps_own_calls(tk_app, tk_client):
    app = tk_app("big_text_app.py", args=["300"])
    ax = tk_client(app.app_id)
    editor = ax.get_by_id(".editor")
    text = editor.value()
    # Tk leaves the insert mark behind the inserted text: the caret is at the end.
    assert ax.wait_until(lambda: selected_range(ax, ".editor") == [len(text), 0], timeout=5), \
        selected_range(ax, ".editor")
    # Keys run Tk's own bindings (Up moves a line; Shift+Left selects one character before the caret).
    editor.click()
    editor.press("Up")
    line_300 = text.rindex("line 300 ")
    assert ax.wait_until(lambda: selected_range(ax, ".editor") == [line_300, 0], timeout=5), \
        (selected_range(ax, ".editor"), line_300)
    editor.press("End")
    editor.press("shift+Left")
    end_300 = text.index("\n", line_300)
    assert ax.wait_until(lambda: selected_range(ax, ".editor") == [end_300 - 1, 1], timeout=5), \
        (selected_range(ax, ".editor"), end_300)
    # The app's own `tag add sel` and `mark set insert` (they read like reads) still reach the tree.
    ax.get_by_id(".select").click()
    line_2 = text.index("line 2 ")
    assert ax.wait_until(lambda: selected_range(ax, ".editor") == [line_2, 4], timeout=5), \
        (selected_range(ax, ".editor"), line_2)


def test_the_splice_diff_reproduces_every_edit():
    """The adapter's diff (no Tk, no server): for random edits of a text view's text, applying the splice op it
    emits to the old text gives the new text; short texts and other classes are plain sets."""
    import random
    from axclient.kit.patches import diff

    chooser = random.Random(22)
    for _ in range(400):
        old = "".join(chooser.choice("ab\né☃") for _ in range(chooser.randint(256, 700)))
        edited = list(old)
        for _ in range(chooser.randint(1, 3)):
            at = chooser.randint(0, len(edited))
            if chooser.random() < 0.5:
                del edited[at:at + chooser.randint(1, 6)]
            else:
                edited[at:at] = chooser.choice(["x", "👋", "\n\n", "long insertion"])
        new = "".join(edited)
        before = {"t": {"class": "UITextView", "text": old}}
        after = {"t": {"class": "UITextView", "text": new, "selectedTextRange": [0, 0]}}
        ops = diff(before, {None: ["t"]}, after, {None: ["t"]}, None, splice=True)
        if old == new:
            continue
        splice, rest = ops[0], ops[1:]
        assert splice["op"] == "splice"
        start, end = splice["location"], splice["location"] + splice["length"]
        assert old[:start] + splice["text"] + old[end:] == new
        assert rest == [{"op": "set", "id": "t", "properties": {"selectedTextRange": [0, 0]}}]
    short = diff({"t": {"class": "UITextView", "text": "ab"}}, {None: ["t"]},
                 {"t": {"class": "UITextView", "text": "abc"}}, {None: ["t"]}, None, splice=True)
    assert short == [{"op": "set", "id": "t", "properties": {"text": "abc"}}]
    label = diff({"l": {"class": "UILabel", "text": "a" * 300}}, {None: ["l"]},
                 {"l": {"class": "UILabel", "text": "b" * 300}}, {None: ["l"]}, None, splice=True)
    assert label == [{"op": "set", "id": "l", "properties": {"text": "b" * 300}}]
