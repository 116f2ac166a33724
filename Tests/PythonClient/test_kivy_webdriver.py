"""Selenium's Python client, unchanged, against `axdriver` on an unmodified Kivy app (kivyapps/settings_app.py under
`python3 -m axclient.kivy`): find elements by kv id (the accessibilityIdentifier) and by accessibility label, clear
and send_keys into a TextInput, click a button, wait for the app's callback line and the popup it opens — as a
Selenium user writes it; and the Slider Kivy gives no keyboard focus, operated by accessibility actions
(D-KIVY-7)."""
import os
import select
import subprocess
import sys

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "kivyapps"))
from kivy_support import kivy_display, needs_kivy, shared_server, start_app  # noqa: E402,F401

from axclient import expect  # noqa: E402

try:
    from selenium import webdriver
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.options import ArgOptions
    from selenium.webdriver.support import expected_conditions as EC
    from selenium.webdriver.support.ui import WebDriverWait
    HAVE_SELENIUM = True
except ImportError:  # pragma: no cover - Tools/requirements-test.txt installs selenium
    HAVE_SELENIUM = False

pytestmark = [needs_kivy, pytest.mark.skipif(not HAVE_SELENIUM, reason="needs selenium (Tools/requirements-test.txt)")]


class Driver:
    """A running axdriver on a free loopback port."""

    def __init__(self, server_socket, timeout=30.0):
        binary = os.path.join(os.environ["AXSERVER_BIN"], "axdriver")
        self.process = subprocess.Popen([binary, "--port", "0", "--socket", server_socket], stdout=subprocess.PIPE,
                                        stderr=subprocess.PIPE, stdin=subprocess.DEVNULL)
        ready, _, _ = select.select([self.process.stdout], [], [], timeout)
        line = self.process.stdout.readline().decode() if ready else ""
        if not line.startswith("READY port="):
            self.stop()
            raise RuntimeError("axdriver did not start: %r" % line)
        self.url = "http://127.0.0.1:%d" % int(line.split()[1].split("=")[1])

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            self.process.wait(10)


@pytest.fixture(scope="module")
def settings(axserver_pool, kivy_display):
    server = shared_server(axserver_pool)
    app = start_app(server, kivy_display, "settings_app.py", name="kivy_webdriver")
    try:
        yield app, server
    finally:
        app.stop()


def test_selenium_types_clicks_and_reads_the_kivy_app(settings):
    app, server = settings
    driver = Driver(server.socket)
    options = ArgOptions()
    options.set_capability("platformName", "linux")
    options.set_capability("axserver:app", app.app_id)
    session = webdriver.Remote(driver.url, options=options)
    session.implicitly_wait(10)  # the server's wait.for: e.g. until the modal popup's fade-out ends
    try:
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
    finally:
        session.quit()
        driver.stop()


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
