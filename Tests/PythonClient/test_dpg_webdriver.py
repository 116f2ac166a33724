"""Selenium's Python client, unchanged, against `axdriver` on the unmodified Dear PyGui settings app
(dpgapps/settings_app.py under `python3 -m axclient.dearpygui`): find elements by id (the app's tags), clear and
send_keys into a field, click a button, wait for the effect — as a Selenium user writes it."""
import pytest

from dpgapps.dpg_support import needs_dpg, start_app
from tk_support import xvfb_display  # noqa: F401
from toolkit_support import EC, By, WebDriverWait, needs_selenium, stopping, webdriver_session

pytestmark = [needs_dpg, pytest.mark.axserver(demo=False), needs_selenium]


def test_selenium_fills_the_form_and_applies(axserver, xvfb_display):
    with stopping(start_app(axserver, xvfb_display, "settings_app.py")) as app, \
            webdriver_session(axserver.socket, app.app_id) as session:
        name = session.find_element(By.ID, "name")
        assert name.get_attribute("value") == "Ada"
        name.clear()
        name.send_keys("Lin")
        app.wait_line("changed name 'Lin'")
        session.find_element(By.ID, "apply").click()
        app.wait_line("apply apply form")
        WebDriverWait(session, 10).until(EC.text_to_be_present_in_element((By.ID, "status"), "Saved Lin"))
        assert "s3cret" not in session.page_source
