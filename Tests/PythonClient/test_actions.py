"""Auto-waiting actions against the demo app."""
import threading
import time

import pytest

import axclient
from axclient import expect
from axclient.connection import Connection

OPPOSITE = {"on": "off", "off": "on"}


def test_toggle_wifi_through_the_cell(ax):
    wifi = ax.get_by_id("cell.wifi")
    before = wifi.value()
    result = wifi.click()
    assert result["performed"] is True
    assert result["element"] == "cellWifi"
    assert result["revisionAfter"] > result["revisionBefore"]
    expect(wifi).to_have_value(OPPOSITE[before])
    assert wifi.is_checked() == (OPPOSITE[before] == "on")
    wifi.activate()
    expect(wifi).to_have_value(before)


def test_increment_decrement_fill_type_custom_scroll(ax):
    size = ax.get_by_label("Text Size")
    start = int(size.value().rstrip("%"))
    size.increment()
    assert int(size.value().rstrip("%")) > start
    size.decrement()
    expect(size).to_have_value("%d%%" % start)

    name = ax.get_by_id("deviceName")
    name.fill("Kitchen")
    expect(name).to_have_value("Kitchen")
    name.type_text(" iPad")
    expect(name).to_have_value("Kitchen iPad")
    name.set_value("")

    assert ax.get_by_id("cell.display").custom_action("Add to Favorites")["performed"] is True
    assert "performed" in ax.get_by_id("settingsTable").scroll("down")


@pytest.mark.axserver(fresh=True)
def test_click_waits_for_an_element_that_appears_later(ax, axserver):
    cancel = ax.get_by_role("button", name="Cancel", exact=True)
    assert cancel.count() == 0

    def open_alert():
        with axclient.Client(axserver.socket) as other:
            time.sleep(0.4)
            other.get_by_id("showAlert").click()

    opener = threading.Thread(target=open_alert)
    started = time.monotonic()
    opener.start()
    try:
        result = cancel.click(timeout=10)
    finally:
        opener.join(10)
    waited = time.monotonic() - started
    assert result["performed"] is True
    assert 0.3 < waited < 10
    expect(ax.locator("alert")).to_be_detached()


@pytest.mark.axserver(fresh=True)
def test_auto_wait_does_not_poll(ax, axserver, monkeypatch):
    calls = []
    original = Connection.call

    def counting(self, method, *args, **kwargs):
        calls.append(method)
        return original(self, method, *args, **kwargs)

    monkeypatch.setattr(Connection, "call", counting)

    def open_alert_later():
        with axclient.Client(axserver.socket) as other:
            time.sleep(1.0)
            other.get_by_id("showAlert").click()

    opener = threading.Thread(target=open_alert_later)
    opener.start()
    try:
        ax.get_by_role("button", name="Cancel", exact=True).click(timeout=10)
    finally:
        opener.join(10)
    mine = [method for method in calls if method not in ("initialize",)]
    # one failed try, one server-side wait, one successful try (the opener's own calls are counted too)
    assert mine.count("wait.for") == 1, calls
    assert mine.count("action.activate") <= 3, calls


def test_action_on_missing_element_times_out_with_explain(ax):
    started = time.monotonic()
    with pytest.raises(axclient.Timeout) as caught:
        ax.locator('switch[label="Wifi"]').click(timeout=0.3)
    assert time.monotonic() - started < 3
    message = str(caught.value)
    assert "attached" in message and 'label "Wi-Fi"' in message


def test_focus(ax):
    wifi = ax.get_by_id("cell.wifi")
    wifi.focus()
    expect(wifi).to_be_focused()
    assert wifi.is_focused()
    assert ax.focused().id == "cellWifi"


def test_tap_goes_through_hit_testing(ax):
    wifi = ax.get_by_id("cell.wifi")
    before = wifi.value()
    result = wifi.tap()
    assert result["element"] == "cellWifi"
    expect(wifi).to_have_value(OPPOSITE[before])
    wifi.tap()
    expect(wifi).to_have_value(before)
