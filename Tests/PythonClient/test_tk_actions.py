"""axclient.tk actions: the server's action.perform comes back into Tk as Tk does it (invoke, Scale/Spinbox steps,
typed keys with the widget's bindings and validation, selections, escape = the dialog's cancel, menus), and the
answer already shows the effect (Specs/tk-adapter.md §Actions)."""
import pytest

import axclient
from axclient import expect
from tk_support import needs_tk, tk_app, tk_client, xvfb_display  # noqa: F401

pytestmark = [needs_tk, pytest.mark.axserver(demo=False)]


@pytest.fixture
def form(tk_app, tk_client):
    app = tk_app("form_app.py")
    return app, tk_client(app.app_id)


def test_activate_invokes_and_the_answer_shows_the_effect(form):
    app, ax = form
    ax.get_by_id(".submit").click()
    # The adapter flushed before answering: no waiting needed.
    assert ax.get_by_id(".status").label() == "Submitted 1 as Ada"
    ax.get_by_role("switch", name="Newsletter").click()
    assert ax.get_by_role("switch", name="Newsletter").value() == "on"
    app.wait_line("event: news 1")
    ax.get_by_id(".account.color_blue").click()
    assert ax.get_by_id(".account.color_blue").is_selected()
    assert not ax.get_by_id(".account.color_red").is_selected()
    with pytest.raises(axclient.NotInteractable):
        ax.call("action.activate", {"target": {"id": ".off"}})  # the server sees it disabled


def test_typing_runs_the_widgets_key_bindings_and_validation(form):
    app, ax = form
    name = ax.get_by_id(".account.name")
    name.set_value("")
    name.type_text("Bo b!")
    expect(name).to_have_value("Bo b!")
    digits = ax.get_by_id(".account.digits")
    digits.type_text("4x2")
    expect(digits).to_have_value("42")  # validatecommand refused the x
    ax.get_by_id(".submit").click()
    assert ax.get_by_id(".status").label() == "Submitted 1 as Bo b!"


def test_text_widget_set_and_type(form):
    _, ax = form
    notes = ax.get_by_id(".notes")
    notes.set_value("alpha")
    notes.type_text("\nbeta")
    expect(notes).to_have_value("alpha\nbeta")


def test_increment_decrement_and_set_value(form):
    app, ax = form
    volume = ax.get_by_id(".controls.volume")
    volume.increment()
    volume.increment()
    expect(volume).to_have_value("20%")
    app.wait_line("event: volume 2")
    volume.decrement()
    expect(volume).to_have_value("10%")
    copies = ax.get_by_id(".controls.copies")
    copies.increment()
    expect(copies).to_have_value("2")
    fruit = ax.get_by_id(".controls.fruit")  # read-only: a pop-up button whose choices are custom actions
    fruit.custom_action("plum")
    expect(fruit).to_have_value("plum")
    app.wait_line("event: fruit plum")


def test_select_rows_and_tabs(form):
    app, ax = form
    ax.get_by_role("cell", name="Pune").click()
    assert ax.get_by_role("cell", name="Pune").is_selected()
    app.wait_line("event: city (2,)")
    ax.get_by_role("tab", name="Advanced").click()
    assert ax.get_by_role("tab", name="Advanced").is_selected()
    expect(ax.get_by_text("Advanced settings")).to_be_visible()
    docs = ax.get_by_role("cell", name="docs", exact=True)
    assert "collapsed" in docs.states()
    docs.click()  # selects the outline row and opens it
    assert docs.is_selected() and "expanded" in docs.states()
    expect(ax.get_by_role("cell", name="a.txt, Size: 10 KB")).to_be_visible()


def test_menu_bar_menu_and_entries(form):
    app, ax = form
    ax.get_by_role("button", name="File").click()
    open_item = ax.get_by_role("button", name="Open...")
    expect(open_item).to_be_visible()
    assert open_item.hint() == "Ctrl+O"
    assert ax.query_count('window[label="File"]') == 1
    assert ax.get_by_role("switch", name="Wrap lines").value() == "off"
    ax.get_by_role("switch", name="Wrap lines").click()
    app.wait_line("event: wrap True")
    # Invoking an entry unposts the menu.
    expect(ax.get_by_role("button", name="Open...")).to_be_hidden()
    ax.get_by_role("button", name="File").click()
    assert ax.get_by_role("switch", name="Wrap lines").value() == "on"
    ax.get_by_role("button", name="Open...").click()
    app.wait_line("event: open")


def test_modal_dialog_and_escape(form):
    app, ax = form
    ax.get_by_id(".open").click()
    ok = ax.get_by_id(".dialog.ok")
    expect(ok).to_be_visible()
    # While the dialog holds the grab it is modal: the main window's controls are not exposed.
    expect(ax.get_by_id(".submit")).to_be_hidden()
    ax.get_by_id(".dialog.reason").escape()
    app.wait_line("event: cancel")
    expect(ax.get_by_id(".dialog.ok")).to_be_hidden()
    expect(ax.get_by_id(".submit")).to_be_visible()


def test_ttk_actions(form):
    app, ax = form
    ax.get_by_id(".themed.city").type_text("Lima")
    expect(ax.get_by_id(".themed.city")).to_have_value("Lima")
    level = ax.get_by_id(".themed.level")
    level.increment()
    expect(level).to_have_value("4")
    app.wait_line("event: level 4")
    zoom = ax.get_by_id(".themed.zoom")
    zoom.increment()
    expect(zoom).to_have_value("55%")
    app.wait_line("event: zoom 55")
    ax.get_by_id(".themed.safe").click()
    ax.get_by_id(".themed.apply").click()
    app.wait_line("event: apply safe")
    assert ax.get_by_id(".themed.safe").is_selected()


def test_keyboard_menu_traversal_is_mirrored(form):
    """Alt+F makes Tk post a clone of the File menu (tkinter does not know clones); its active entry is the focus."""
    app, ax = form
    ax.get_by_id(".account.name").click()  # Tk focus inside the window
    ax.call("input.key", {"key": "f", "modifiers": ["alt"]})
    open_item = ax.get_by_role("button", name="Open...")
    expect(open_item).to_be_visible()
    assert ax.wait_until(lambda: open_item.is_focused(), timeout=5)
    assert ax.query_count('window[label="File"]') == 1  # the menu window is named after its cascade
    # The menu's grab is menu traversal, not a modal dialog: the main window stays exposed.
    assert ax.get_by_id(".submit").count() == 1
    ax.call("input.key", {"key": "Down"})
    assert ax.wait_until(lambda: ax.get_by_role("switch", name="Wrap lines").is_focused(), timeout=5)
    ax.call("input.key", {"key": "Escape"})
    ax.call("input.key", {"key": "Escape"})
    expect(ax.get_by_role("button", name="Open...")).to_be_hidden()
