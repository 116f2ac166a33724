"""Roles, focus and identifiers as Orca users and test writers expect them (issue 32), on the project's form app
(the second app; the third-party apps where each was found are in test_tk_thirdparty.py): a focused Listbox or
Treeview puts the app's focus on its active/focus row (never the menu bar, never a heading), radio buttons sharing
a variable are one radio group (a segmented control: AT-SPI radio buttons, checked while selected), a read-only
ttk.Combobox is a pop-up button that refuses typing, and tkinter's generated paths are no accessibility
identifiers (Specs/tk-adapter.md §Mapping, §Radio groups)."""
import pytest

import axclient
from tk_support import needs_tk, tk_app, tk_client, xvfb_display  # noqa: F401

pytestmark = [needs_tk, pytest.mark.axserver(demo=False)]


@pytest.fixture
def form(tk_app, tk_client):
    app = tk_app("form_app.py")
    return app, tk_client(app.app_id)


def engine_focus(ax):
    return (ax.call("focus.status").get("engine") or {}).get("id")


def test_a_focused_listbox_focuses_its_active_row_not_the_menu_bar(form):
    _, ax = form
    ax.get_by_id(".side.cities@row1").click()  # as a click: selects Lima and focuses the Listbox
    assert ax.wait_until(lambda: engine_focus(ax) == ".side.cities@row1", timeout=5), engine_focus(ax)
    assert ax.focused().label == "Lima"
    ax.call("input.key", {"key": "Down"})  # Tk's Listbox binding moves the active row
    assert ax.wait_until(lambda: engine_focus(ax) == ".side.cities@row2", timeout=5), engine_focus(ax)
    ax.call("input.key", {"key": "Tab", "modifiers": ["shift"]})  # Tk's traversal leaves the list ...
    ax.call("input.key", {"key": "Tab"})  # ... and comes back: the active row again, not the menu bar
    assert ax.wait_until(lambda: engine_focus(ax) == ".side.cities@row2", timeout=5), engine_focus(ax)


def test_a_focused_treeview_focuses_its_focus_row_never_a_heading(form):
    _, ax = form
    # Tab into the Treeview from the Listbox before it: no focus item yet, so the first row (where Down starts),
    # not the "Name" heading.
    ax.get_by_id(".side.cities@row0").click()
    for _ in range(3):  # Listbox → Notebook → Treeview (Tk's traversal order)
        if (engine_focus(ax) or "").startswith(".side.files"):
            break
        ax.call("input.key", {"key": "Tab"})
        ax.wait_until(lambda: not (engine_focus(ax) or "").startswith(".side.cities"), timeout=5)
    assert ax.wait_until(lambda: (engine_focus(ax) or "").startswith(".side.files@I"), timeout=5), engine_focus(ax)
    assert ax.focused().label.startswith("docs")
    # (Tk 8.6's Treeview ignores Down while it has no focus item: the adapter mirrors, it does not change that.)
    ax.get_by_id(".side.files@I003").click()  # b.txt: selected, the focus item, and Tk's focus
    assert ax.wait_until(lambda: engine_focus(ax) == ".side.files@I003", timeout=5), engine_focus(ax)
    ax.call("input.key", {"key": "Up"})  # ttk's Keynav moves the focus item
    assert ax.wait_until(lambda: engine_focus(ax) == ".side.files@I001", timeout=5), engine_focus(ax)


def test_radio_buttons_sharing_a_variable_are_one_radio_group(form):
    _, ax = form
    assert ax.query_count("segmentedControl > button") == 5  # Red/Green/Blue and the ttk Fast/Safe
    group = ax.query_all("segmentedControl")
    assert len(group) == 2
    red = ax.get_by_id(".account.color_red")
    assert red.is_selected() and not ax.get_by_id(".account.color_green").is_selected()
    ax.get_by_id(".account.color_green").click()
    assert ax.wait_until(lambda: ax.get_by_id(".account.color_green").is_selected(), timeout=5)
    assert not red.is_selected()


def test_a_readonly_combobox_is_a_popup_button_that_refuses_typing(form):
    app, ax = form
    fruit = ax.get_by_id(".controls.fruit")
    assert fruit.role() == "button" and fruit.value() == "apple" and fruit.label() == "Fruit"
    assert "pop-up" in (fruit.hint() or "")
    with pytest.raises(axclient.AXError):
        fruit.type_text("kiwi")
    fruit.custom_action("pear")
    app.wait_line("event: fruit pear")
    assert fruit.value() == "pear"


def test_generated_tk_paths_are_not_identifiers_app_names_are(tk_app, tk_client):
    app = tk_app("secrets_app.py")
    ax = tk_client(app.app_id)
    hide = ax.get_by_role("button", name="Hide key").element()
    assert hide.identifier is None and hide.id.startswith(".!button")
    assert ax.get_by_id(".password").element().identifier == ".password"
    # XCUITest's and Appium's `name`: the identifier when set, else the label — so "Hide key" finds the button.
    assert ax.query_count('[name="Hide key"]') == 1


def test_names_in_common_layouts(tk_app, tk_client):
    app = tk_app("names_app.py")
    ax = tk_client(app.app_id)
    # A Text packed in a Frame with its Scrollbar takes the frame's caption; a Listbox in a LabelFrame with its
    # Scrollbar takes the LabelFrame's text.
    assert ax.locator("textView").first().label() == "Notes"
    # A Text on a notebook page (beside other controls) takes the page's tab text.
    assert ax.locator("textView").last().label() == "Shell"
    assert ax.locator("list").label() == "Recent files"
    # Tk padding is not part of a name or a text.
    assert ax.get_by_role("button", name="START", exact=True).count() == 1
    assert ax.query_count('staticText[label="Ready"]') == 1
    # An icon-only button is named by its image file.
    assert ax.get_by_role("button", name="document save", exact=True).count() == 1
    # Packed right to left: the Label before the entry on screen is "Page", not "of 9".
    assert ax.locator("textField").label() == "Page"
