"""Selenium's Python client, unchanged, against `axdriver` on an unmodified pygame_gui app (pguiapps/settings_form.py
under `python3 -m axclient.pygame_gui`): find elements by id, clear and send_keys into an entry, click a button, wait
for the effect, read an enabled state — as a Selenium user writes it."""
import pytest

from pgui_support import needs_pgui, pgui_app, pgui_display  # noqa: F401
from toolkit_support import EC, By, WebDriverWait, needs_selenium, webdriver_session

pytestmark = [needs_pgui, pytest.mark.axserver(demo=False), needs_selenium]


def test_selenium_fills_the_form_and_saves(pgui_app, axserver):
    app = pgui_app("settings_form.py")
    with webdriver_session(axserver.socket, app.app_id) as session:
        name = session.find_element(By.ID, "name")
        assert name.get_attribute("value") == "Ada"
        name.clear()
        name.send_keys("Lin")
        app.wait_line("text Lin")
        session.find_element(By.ID, "save").click()
        app.wait_line("saved Lin")
        WebDriverWait(session, 10).until(EC.text_to_be_present_in_element((By.ID, "status"), "Saved Lin"))
        assert not session.find_element(By.ID, "export").is_enabled()
