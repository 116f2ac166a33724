"""Selenium's Python client, unchanged, against `axdriver` on an unmodified Kivy app (kivyapps/settings_app.py under
`python3 -m axclient.kivy`): find elements by kv id (the accessibilityIdentifier) and by accessibility label, clear
and send_keys into a TextInput, click a button, wait for the app's callback line and the popup it opens — as a
Selenium user writes it; and the Slider Kivy gives no keyboard focus, operated by accessibility actions
(D-KIVY-7)."""
import os
import sys

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "kivyapps"))
from kivy_support import kivy_display, needs_kivy, shared_server, start_app  # noqa: E402,F401
from toolkit_support import EC, By, WebDriverWait, needs_selenium, stopping, webdriver_session  # noqa: E402

from axclient import expect  # noqa: E402

pytestmark = [needs_kivy, needs_selenium]


@pytest.fixture(scope="module")
def settings(axserver_pool, kivy_display):
    server = shared_server(axserver_pool)
    with stopping(start_app(server, kivy_display, "settings_app.py", name="kivy_webdriver")) as app:
        yield app, server


def test_selenium_types_clicks_and_reads_the_kivy_app(settings):
    app, server = settings
    # implicit wait: the server's wait.for, e.g. until the modal popup's fade-out ends
    with webdriver_session(server.socket, app.app_id, implicit_wait=10) as session:
        name = session.find_element(By.ID, "name")
        assert name.get_attribute("value") == "Ada"
        assert session.find_element(By.ID, "password").get_attribute("value") != "hunter2"
        name.clear()
        name.send_keys("Lin")
        WebDriverWait(session, 10).until(lambda s: s.find_element(By.ID, "name").get_attribute("value") == "Lin")
        session.find_element(By.ID, "save").click()
        app.wait_line("saved Lin")
        WebDriverWait(session, 10).until(EC.presence_of_element_located((By.NAME, "Saved Lin")))
        session.find_element(By.NAME, "OK").click()
        app.wait_line("popup closed")
        session.find_element(By.ID, "dark").click()
        app.wait_line("dark True")
        assert session.find_element(By.ID, "dark").get_attribute("value") in ("1", "true", "on")
        assert not session.find_element(By.NAME, "Disabled").is_enabled()
        assert session.find_element(By.ID, "save").is_enabled()


def test_the_unfocusable_slider_is_operated_by_accessibility_actions(settings):
    """Kivy's Slider takes no keyboard focus and the adapter does not add it (D-KIVY-7): increment and decrement
    reach it as accessibility actions (what AT-SPI's Value interface and the server's actions send) and run the
    app's own on_value, one `step` each."""
    app, server = settings
    client = server.client(client_name="kivy-slider", app=app.app_id, timeout=8)
    try:
        volume = client.get_by_role("adjustable", name="Volume")
        before = volume.value()
        volume.increment()
        app.wait_line("volume 4")
        volume.decrement()
        app.wait_line("volume 3")
        volume.decrement()
        app.wait_line("volume 2")
        expect(client.get_by_role("adjustable", name="Volume")).to_have_value("20%")
        assert before == "30%"
        volume.increment()
        app.wait_line("volume 3")
    finally:
        client.close()
