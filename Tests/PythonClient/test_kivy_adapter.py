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
    name = ax.get_by_id("name") if False else ax.locator('textField[label="Name"]')
    assert name.count() == 1 and name.value() == "Ada"
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
    assert ax.query_count('staticText[label="Account settings"]') == 1
    assert ax.query_count('cell[label="Oslo"]') == 1
    notes = ax.locator("textView")
    assert notes.value() == "first line\nsecond line\nthird line"
