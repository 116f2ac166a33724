"""Plain Selenium idioms, unchanged, against axdriver on two apps: the demo and a tkinter app mirrored by
``python3 -m axclient.tk`` (Tests/PythonClient/tkapps/confirm_app.py). Issue 38 item 2: WebDriverWait with
expected_conditions, ActionChains, send_keys with WebDriver key codes (editing keys, arrows, Home/End, chords,
Enter), Element Clear and the alerts API (text, accept, dismiss) — what a Selenium user writes every day.

Nothing here knows which app it drives except the table APPS (locators, the alert's text, and how to read the
effect of accepting it); each test runs once per app.
"""
import os
import sys

import pytest
from selenium import webdriver
from selenium.common.exceptions import (ElementNotInteractableException, InvalidElementStateException,
                                        NoAlertPresentException, NoSuchElementException)
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.common.options import ArgOptions
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import WebDriverWait

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "PythonClient"))
from tk_support import tk_app, xvfb_display  # noqa: E402,F401  (fixtures)
from test_webdriver import Driver  # noqa: E402

APPS = {
    # app name, the text field, the control that opens the alert, the alert's text, a control whose value the
    # alert's default action puts back (demo: Reset restores Wi-Fi on) or changes (Tk: Delete empties the list).
    # select_all: the Control chord that selects a field's text (UIKit/GTK: Control+A; Tk's Entry: Control+/,
    # its Control+A goes to the line start as in Emacs).
    "demo": {"field": (By.ID, "deviceName"), "opener": (By.ID, "showAlert"), "select_all": "a",
             "alert_text": "Reset All Settings?\nThis cannot be undone.", "effect": (By.ID, "cell.wifi")},
    "tk": {"field": (By.ID, ".item"), "opener": (By.ID, ".deleteitem"), "select_all": "/",
           "alert_text": "Delete item?\nThis cannot be undone.", "effect": (By.ID, ".status")},
}


@pytest.fixture(params=sorted(APPS))
def app(request, axserver):
    """(session, table row): a Selenium session on the demo or on the Tk app, quit after the test."""
    row = dict(APPS[request.param])
    name = None
    if request.param == "tk":
        started = request.getfixturevalue("tk_app")("confirm_app.py")
        name = started.name
    else:
        name = "axserver-demo"
    driver = Driver(axserver.socket)
    options = ArgOptions()
    options.set_capability("platformName", "linux")
    options.set_capability("axserver:app", name)
    session = webdriver.Remote(driver.url, options=options)
    row["kind"] = request.param
    try:
        yield session, row
    finally:
        session.quit()
        driver.stop()


def value(element):
    return element.get_attribute("value") or ""


def test_wait_then_type_and_edit_with_key_codes(app):
    session, row = app
    field = WebDriverWait(session, 5).until(EC.element_to_be_clickable(row["field"]))
    field.clear()
    field.send_keys("abc")
    WebDriverWait(session, 5).until(EC.text_to_be_present_in_element_attribute(row["field"], "value", "abc"))
    field.send_keys(Keys.BACKSPACE)
    assert value(field) == "ab"
    field.send_keys(Keys.HOME, "X")
    assert value(field) == "Xab"
    field.send_keys(Keys.END, Keys.LEFT, Keys.DELETE)
    assert value(field) == "Xa"
    field.send_keys(Keys.LEFT, Keys.LEFT, Keys.DELETE, "y")
    assert value(field) == "ya"
    field.send_keys(Keys.CONTROL, row["select_all"], Keys.NULL, "new")   # a chord: select all, type over it
    assert value(field) == "new"
    field.send_keys(Keys.ARROW_LEFT, Keys.SHIFT, Keys.ARROW_LEFT, Keys.NULL, Keys.BACK_SPACE)
    assert value(field) == "nw"
    field.clear()
    assert value(field) == ""


def test_action_chains_chords_on_the_focused_field(app):
    session, row = app
    field = session.find_element(*row["field"])
    field.send_keys("hello")
    ActionChains(session).key_down(Keys.CONTROL).send_keys(row["select_all"]).key_up(Keys.CONTROL) \
        .send_keys(Keys.DELETE).perform()
    assert value(field) == ""
    ActionChains(session).send_keys("hi").send_keys(Keys.BACKSPACE).perform()
    assert value(field) == "h"


def test_keys_a_field_cannot_take_are_w3c_errors(app):
    session, row = app
    opener = session.find_element(*row["opener"])
    with pytest.raises((ElementNotInteractableException, InvalidElementStateException)):
        opener.send_keys("text")                # a button does not take text
    with pytest.raises(InvalidElementStateException):
        opener.clear()                          # nor can it be cleared


def test_alerts_text_dismiss_accept(app):
    session, row = app
    with pytest.raises(NoAlertPresentException):
        session.switch_to.alert.text
    before = value(session.find_element(*row["effect"])) or session.find_element(*row["effect"]).text
    if row["kind"] == "demo":                   # something for Reset to undo
        session.find_element(*row["effect"]).click()
    session.find_element(*row["opener"]).click()
    alert = WebDriverWait(session, 5).until(EC.alert_is_present())
    assert alert.text == row["alert_text"]
    alert.dismiss()
    WebDriverWait(session, 5).until_not(EC.alert_is_present())
    effect = session.find_element(*row["effect"])
    changed = value(effect) or effect.text
    assert (changed != before) if row["kind"] == "demo" else (changed == before)
    session.find_element(*row["opener"]).click()
    WebDriverWait(session, 5).until(EC.alert_is_present()).accept()
    WebDriverWait(session, 5).until_not(EC.alert_is_present())
    effect = session.find_element(*row["effect"])
    after = value(effect) or effect.text
    assert (after == before) if row["kind"] == "demo" else (after != before)


def test_an_xpath_on_name_that_misses_says_name_is_the_identifier(app):
    """Issue 38 item 8: `@name` is the accessibility identifier (XCUITest's meaning); a miss says so and names
    the `@label` that would match."""
    session, row = app
    label = "Wi-Fi" if row["kind"] == "demo" else "Delete item"
    with pytest.raises(NoSuchElementException) as missed:
        session.find_element(By.XPATH, "//*[@name='%s']" % label)
    assert "@name is the accessibility identifier" in str(missed.value)
    assert "[@label='%s']" % label in str(missed.value)
    assert session.find_element(By.XPATH, "//*[@label='%s']" % label)
