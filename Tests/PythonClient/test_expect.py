"""expect(locator) assertions: passing ones, failing ones with a clear message, and waiting for a change."""
import re
import threading
import time

import pytest

import axclient
from axclient import expect


def test_passing_assertions(ax):
    wifi = ax.get_by_id("cell.wifi")
    value = wifi.value()
    expect(wifi).to_have_value(value)
    expect(wifi).to_have_value(re.compile("^o(n|ff)$"))
    expect(wifi).not_.to_have_value("maybe")
    expect(wifi).to_have_label("Wi-Fi")
    expect(wifi).to_have_label(re.compile("wi", re.I))
    expect(wifi).to_be_visible()
    expect(wifi).to_be_attached()
    expect(wifi).to_be_enabled()
    expect(wifi).not_.to_be_disabled()
    expect(wifi).to_be_hittable()
    expect(wifi).to_have_attribute("identifier", "cell.wifi")
    expect(ax.locator("#nothing")).to_be_hidden()
    expect(ax.locator("#nothing")).to_be_detached()
    expect(ax.locator("#nothing")).not_.to_be_visible()
    expect(ax.get_by_role("switch")).to_have_count(2)
    expect(ax.get_by_role("switch")).not_.to_have_count(3)
    expect(ax.get_by_role("tab", name="Settings")).to_be_selected()
    expect(ax.get_by_role("tab", name="Home")).not_.to_be_selected()


def test_failing_value_names_expected_and_last_state(ax):
    wifi = ax.get_by_id("cell.wifi")
    started = time.monotonic()
    with pytest.raises(AssertionError) as caught:
        expect(wifi, timeout=0.3).to_have_value("maybe")
    elapsed = time.monotonic() - started
    message = str(caught.value)
    assert "to_have_value('maybe')" in message
    assert "last state" in message and 'switch "Wi-Fi"' in message and "value=" in message
    assert 0.25 <= elapsed < 3


def test_failing_count_visibility_and_negation(ax):
    with pytest.raises(AssertionError, match=r"to_have_count\(3\).*2 elements match"):
        expect(ax.get_by_role("switch"), timeout=0.3).to_have_count(3)
    with pytest.raises(AssertionError, match=r'to_be_visible\(\).*not attached.*label "Wi-Fi"'):
        expect(ax.locator('switch[label="Wifi"]'), timeout=0.3).to_be_visible()
    with pytest.raises(AssertionError, match=r"not_\.to_have_label\('Wi-Fi'\)"):
        expect(ax.get_by_id("cell.wifi"), timeout=0.3).not_.to_have_label("Wi-Fi")
    with pytest.raises(AssertionError, match=r"2 elements match \(strict\)"):
        expect(ax.get_by_role("switch"), timeout=0.3).to_be_visible()
    with pytest.raises(AssertionError, match="to_be_disabled"):
        expect(ax.get_by_id("cell.wifi"), timeout=0.2).to_be_disabled()


def test_expect_is_woken_by_a_change(ax, axserver):
    bluetooth = ax.get_by_id("cell.bluetooth")
    current = bluetooth.value()
    opposite = {"on": "off", "off": "on"}[current]

    def toggle_later():
        with axclient.Client(axserver.socket) as other:
            time.sleep(0.3)
            other.get_by_id("cell.bluetooth").click()

    # Neither assertion holds when it starts; each passes only once the other client's toggle lands.
    for assertion in (lambda: expect(bluetooth, timeout=10).to_have_value(opposite),      # wait.for (server)
                      lambda: expect(bluetooth, timeout=10).not_.to_have_value(opposite)):  # change events
        toggler = threading.Thread(target=toggle_later)
        started = time.monotonic()
        toggler.start()
        try:
            assertion()
            elapsed = time.monotonic() - started
        finally:
            toggler.join(10)
        assert 0.2 < elapsed < 10


def test_expect_takes_a_locator():
    with pytest.raises(TypeError):
        expect("#wifi")
