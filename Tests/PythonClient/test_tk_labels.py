"""The kit's geometric label rule (axclient.kit.labels, Specs/adapter-kit.md §Labels) — for layouts that state no
relation between a control and its caption (Tk's ``place``; Kivy's FloatLayout and pygame_gui's rects next) — and
Tk using it: a form laid out with ``place`` (a common way in tutorials and GUI builders' output) had no names at
all before (Specs/tk-adapter.md §Labels rule 4), so Orca said "text" for each field."""
import textwrap

import pytest

from axclient import expect
from axclient.kit.labels import label_beside
from tk_support import needs_tk, tk_app, tk_client, xvfb_display  # noqa: F401

PLACE_FORM = textwrap.dedent('''
    import tkinter as tk
    root = tk.Tk()
    root.title("Placed form")
    root.geometry("420x260")
    tk.Label(root, text="Email:").place(x=10, y=12, width=80, height=24)
    tk.Entry(root).place(x=96, y=10, width=200, height=28)
    tk.Label(root, text="Notes").place(x=10, y=60, width=120, height=20)
    tk.Text(root).place(x=10, y=84, width=300, height=80)
    tk.Label(root, text="far away").place(x=330, y=230, width=80, height=20)
    tk.Entry(root, name="loose").place(x=10, y=220, width=120, height=28)
    root.after(10, lambda: print("ready", flush=True))
    root.mainloop()
''')


def test_the_geometric_rule_reads_a_form_left_then_above():
    labels = [((10, 12, 80, 24), "Email:"), ((10, 60, 120, 20), "Notes "), ((330, 230, 80, 20), "far away")]
    assert label_beside((96, 10, 200, 28), labels) == "Email"  # same row, just left of it
    assert label_beside((10, 84, 300, 80), labels) == "Notes"  # same column, just above it
    assert label_beside((10, 220, 120, 28), labels) is None  # nothing beside or above within the gap
    # Left wins over above; the nearer of two on the left wins; an empty or colon-only text names nothing.
    both = [((0, 0, 50, 20), "Above"), ((0, 30, 40, 20), "Far left"), ((45, 30, 40, 20), "Near left"),
            ((88, 0, 20, 20), " : ")]
    assert label_beside((90, 28, 100, 24), both) == "Near left"
    # A label to the right, or below, is not the control's caption.
    assert label_beside((10, 10, 100, 20), [((120, 10, 60, 20), "Right"), ((10, 40, 60, 20), "Below")]) is None


@pytest.mark.axserver(demo=False)
@needs_tk
def test_placed_controls_are_named_by_the_label_beside_them(tk_app, tk_client, tmp_path):
    script = tmp_path / "place_form.py"
    script.write_text(PLACE_FORM)
    app = tk_app(str(script))
    ax = tk_client(app.app_id)
    expect(ax.get_by_role("textField", name="Email")).to_have_count(1)  # was unnamed before the kit's rule
    assert ax.get_by_role("textView", name="Notes").count() == 1
    assert ax.get_by_id(".loose").label() is None
