"""Selenium's Python client, unchanged, against `axdriver` on the unmodified Dear PyGui settings app
(dpgapps/settings_app.py under `python3 -m axclient.dearpygui`): find elements by id (the app's tags), clear and
send_keys into a field, click a button, wait for the effect — as a Selenium user writes it."""
import os
import select
import subprocess

import pytest

from dpgapps.dpg_support import needs_dpg, start_app
from tk_support import xvfb_display  # noqa: F401

try:
    from selenium import webdriver
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.options import ArgOptions
    from selenium.webdriver.support import expected_conditions as EC
    from selenium.webdriver.support.ui import WebDriverWait
    HAVE_SELENIUM = True
except ImportError:  # pragma: no cover - Tools/requirements-test.txt installs selenium
    HAVE_SELENIUM = False

pytestmark = [needs_dpg, pytest.mark.axserver(demo=False),
              pytest.mark.skipif(not HAVE_SELENIUM, reason="needs selenium (Tools/requirements-test.txt)")]


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


def test_selenium_fills_the_form_and_applies(axserver, xvfb_display):
    app = start_app(axserver, xvfb_display, "settings_app.py")
    driver = Driver(axserver.socket)
    options = ArgOptions()
    options.set_capability("platformName", "linux")
    options.set_capability("axserver:app", app.app_id)
    session = webdriver.Remote(driver.url, options=options)
    try:
        name = session.find_element(By.ID, "name")
        assert name.get_attribute("value") == "Ada"
        name.clear()
        name.send_keys("Lin")
        app.wait_line("changed name 'Lin'")
        session.find_element(By.ID, "apply").click()
        app.wait_line("apply apply form")
        WebDriverWait(session, 10).until(EC.text_to_be_present_in_element((By.ID, "status"), "Saved Lin"))
        assert "s3cret" not in session.page_source
    finally:
        session.quit()
        driver.stop()
        app.stop()
