"""axclient.kivy on an unmodified Kivy app (kivyapps/settings_app.py) run by `python3 -m axclient.kivy` under Xvfb,
mirrored into the real axserver; the mapping, actions through Kivy (the app's callbacks print what they saw), live
updates and masked text, asserted through the JSON-RPC client (Specs/kivy-adapter.md). One app process for the
module: the tests run in order and leave the app as they found it where they change it."""
import os
import re
import sys

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "kivyapps"))
from kivy_support import kivy_display, needs_kivy, shared_server, start_app  # noqa: E402,F401

from axclient import expect  # noqa: E402

pytestmark = [needs_kivy]


@pytest.fixture(scope="module")
def settings(axserver_pool, kivy_display):
    server = shared_server(axserver_pool)
    app = start_app(server, kivy_display, "settings_app.py")
    client = server.client(client_name="kivy-test", app=app.app_id, timeout=8)
    try:
        yield app, client
    finally:
        client.close()
        app.stop()


def test_app_window_named_and_titled(settings):
    app, ax = settings
    assert app.app_id == "settings_app"
    assert ax.query_one("window").label == "Kivy Settings"


def test_form_controls_map_to_roles_labels_and_values(settings):
    _, ax = settings
    name = ax.locator('textField[label="Name"]')  # the Label left of it in the GridLayout names it
    assert name.count() == 1 and name.value() == "Ada"
    assert name.element().identifier == "name"  # the kv id is the app's name for it
    password = ax.get_by_role("secureTextField", name="Password")
    assert password.count() == 1
    assert ax.get_by_role("switch", name="Newsletter").value() == "off"
    assert ax.get_by_role("switch", name="Dark mode").count() == 1
    volume = ax.get_by_role("adjustable", name="Volume")
    assert volume.count() == 1 and volume.value() == "30%"
    red = ax.get_by_role("button", name="Red")
    assert red.is_selected() and red.value() == "1 of 3"
    assert not ax.get_by_role("button", name="Green").is_selected()
    fruit = ax.get_by_role("button", name="Fruit")
    assert fruit.value() == "apple"
    assert ax.get_by_role("button", name="Disabled").is_disabled()
    assert ax.locator('progressIndicator[label="Progress"]').value() == "40%"  # ProgressBar: the Label left of it names it
    assert ax.query_count('staticText[label="Account settings"]') == 1
    assert ax.query_count('cell[label="Oslo"]') == 1
    notes = ax.locator("textView")
    assert notes.value() == "first line\nsecond line\nthird line"


def test_actions_run_the_apps_callbacks(settings):
    app, ax = settings
    ax.get_by_role("adjustable", name="Volume").increment()
    app.wait_line("volume 4")
    expect(ax.get_by_role("adjustable", name="Volume")).to_have_value("40%")
    ax.get_by_role("button", name="Green").click()
    app.wait_line("colour green down")
    assert ax.get_by_role("button", name="Green").is_selected()
    assert not ax.get_by_role("button", name="Red").is_selected()  # the group's other member went up
    ax.get_by_role("button", name="Red").click()
    ax.get_by_role("switch", name="Newsletter").click()
    app.wait_line("newsletter True")
    expect(ax.get_by_role("switch", name="Newsletter")).to_be_checked()
    ax.get_by_role("switch", name="Dark mode").click()
    app.wait_line("dark True")
    ax.get_by_role("button", name="Fruit").custom_action("pear")
    app.wait_line("fruit pear")
    expect(ax.get_by_role("button", name="Fruit")).to_have_value("pear")
    ax.get_by_role("button", name="Fruit").click()  # opens the Spinner's DropDown: a window over the app
    ax.locator('window >> button[label="plum"]').click()
    app.wait_line("fruit plum")
    expect(ax.get_by_role("button", name="Fruit")).to_have_value("plum")
    ax.get_by_role("cell", name="Lima").click()
    app.wait_line("selected Lima")
    expect(ax.get_by_role("cell", name="Lima")).to_be_selected()


def test_text_entry_set_and_typed(settings):
    app, ax = settings
    name = ax.locator('textField[label="Name"]')
    name.fill("Grace")
    expect(name).to_have_value("Grace")
    name.type_text(" Hopper")
    expect(name).to_have_value("Grace Hopper")
    assert name.is_focused()  # typing focused it: Kivy's focus is the mirror's focus
    name.fill("Ada")


def test_masked_text_never_leaves(settings):
    app, ax = settings
    password = ax.get_by_role("secureTextField", name="Password")
    assert password.value() in (None, "", "\u2022" * 7)
    password.type_text("xyzzy")
    tree = str(ax.tree())
    assert "hunter2" not in tree and "xyzzy" not in tree
    assert "\u2022" * 12 in tree


def test_popup_is_a_modal_window_and_dismisses(settings):
    app, ax = settings
    ax.get_by_role("button", name="Save").click()
    app.wait_line("saved Ada")
    popup = ax.locator('window[label="Saved"]')
    expect(popup).to_be_visible()
    assert ax.query_count('window[label="Saved"] >> staticText[label="Saved Ada"]') == 1
    ax.locator('window[label="Saved"] >> button[label="OK"]').click()
    app.wait_line("popup closed")
    expect(popup).to_be_hidden()


def test_screen_change_and_tabs(settings):
    app, ax = settings
    ax.get_by_role("button", name="About").click()
    expect(ax.get_by_text("About this app")).to_be_visible()
    expect(ax.locator('textField[label="Name"]')).to_be_hidden()  # the settings screen left after the transition
    general = ax.get_by_role("tab", name="General")
    expect(general).to_be_selected()
    ax.get_by_role("tab", name="Advanced").click()
    expect(ax.get_by_role("tab", name="Advanced")).to_be_selected()
    expect(ax.get_by_text("Advanced page")).to_be_visible()
    ax.get_by_role("button", name="Back").click()
    expect(ax.locator('textField[label="Name"]')).to_be_visible()


def test_a_raising_callback_leaves_the_app_running(settings):
    app, ax = settings
    with pytest.raises(Exception) as raised:
        ax.get_by_role("button", name="Crash").click()
    assert "the app's own bug" in str(raised.value)
    ax.get_by_role("adjustable", name="Volume").decrement()
    app.wait_line("volume 3")
    assert app.process.poll() is None
