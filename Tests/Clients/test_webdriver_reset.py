"""`axserver:reset` at WebDriver New Session and `app.reset` (issue 38, D-APP-RESET-1, D-WD-RESET-1).

Unmodified Selenium and Appium clients against the real axserver and axdriver: the demo resets itself, a Python
provider app resets through its `on_reset` hook, an app without one refuses the session saying why. Bad input:
resets beside another session's actions, an app that never answers, an app that leaves mid-reset.
"""
import statistics
import threading
import time

import pytest
from appium.webdriver.common.appiumby import AppiumBy
from selenium.common.exceptions import SessionNotCreatedException
from selenium.webdriver.common.by import By

from axclient import ActionNotSupported, AppNotResponding, Client
from test_webdriver import CounterApp, appium_session, axdriver, second_app_windows, selenium_session  # noqa: F401


def reset_session(driver, app=None, appium=True):
    """A new session asking for the app's initial state."""
    if appium:
        from appium import webdriver as appium_webdriver
        from appium.options.common import AppiumOptions
        options = AppiumOptions()
        options.set_capability("platformName", "linux")
        options.set_capability("appium:automationName", "AXServer")
        options.set_capability("axserver:reset", True)
        if app:
            options.set_capability("axserver:app", app)
        return appium_webdriver.Remote(driver.url, options=options)
    from selenium import webdriver
    from selenium.webdriver.common.options import ArgOptions
    options = ArgOptions()
    options.set_capability("platformName", "linux")
    options.set_capability("axserver:reset", True)
    if app:
        options.set_capability("axserver:app", app)
    return webdriver.Remote(driver.url, options=options)


class ResettableCounter(CounterApp):
    """The counter app with an `on_reset` hook: back to Count 0 and its first hierarchy."""

    def __init__(self, ax_provider, name):
        self.count = 0
        self.text = ""
        self.resets = 0
        self.provider = ax_provider(name, second_app_windows(), on_action=self.perform, on_reset=self.reset)
        self.name = self.provider.app

    def reset(self):
        self.count = 0
        self.text = ""
        self.resets += 1
        self.provider.set_hierarchy(second_app_windows())


def test_a_reset_session_finds_the_demo_as_a_fresh_server_has_it(axdriver):
    driver = axdriver()
    first = appium_session(driver)
    try:
        switch = first.find_element(AppiumBy.ACCESSIBILITY_ID, "cell.wifi")
        initial = switch.get_attribute("value")
        switch.click()
        toggled = first.find_element(AppiumBy.ACCESSIBILITY_ID, "cell.wifi").get_attribute("value")
        assert toggled != initial, "the click did not toggle Wi-Fi"
        second = reset_session(driver)
        try:
            assert second.capabilities.get("axserver:reset") is True
            # The session exists only after the reset tree is the server's: the first find sees it.
            assert second.find_element(AppiumBy.ACCESSIBILITY_ID, "cell.wifi").get_attribute("value") == initial
            # The other session sees the same app (one app, one state).
            assert first.find_element(AppiumBy.ACCESSIBILITY_ID, "cell.wifi").get_attribute("value") == initial
        finally:
            second.quit()
    finally:
        first.quit()


def test_reset_clears_an_open_alert_and_focus_on_the_demo(axdriver, ax):
    ax.set_focus({"id": "cellWifi"})
    ax.call("action.activate", {"target": {"id": "showAlert"}})
    assert ax.query_count("alert") == 1
    assert ax.focused() is not None
    reply = ax.reset_app()
    assert reply["reset"] is True and reply["revision"] > reply["revisionBefore"]
    assert ax.query_count("alert") == 0
    assert ax.focused() is None


def test_demo_reset_latency(ax):
    """Figures for the report: `app.reset` on the demo, measured at the client (round trip) and by the server."""
    round_trips, server_ms = [], []
    for _ in range(30):
        ax.call("action.activate", {"target": {"id": "cellWifi"}})
        started = time.perf_counter()
        reply = ax.reset_app()
        round_trips.append((time.perf_counter() - started) * 1000)
        server_ms.append(reply["ms"])
    round_trips.sort()
    print("app.reset on the demo: round trip median %.2f ms p95 %.2f ms; server median %.2f ms" % (
        statistics.median(round_trips), round_trips[int(len(round_trips) * 0.95) - 1], statistics.median(server_ms)))
    assert statistics.median(round_trips) < 1000


def test_a_provider_with_on_reset_is_reset_by_a_new_session(axdriver, ax_provider):
    app = ResettableCounter(ax_provider, "wd-reset-counter")
    driver = axdriver()
    first = selenium_session(driver, app=app.name)
    try:
        first.find_element(By.ID, "plus").click()
        first.find_element(By.ID, "plus").click()
        assert first.find_element(By.ID, "count").text == "Count 2"
        second = reset_session(driver, app=app.name, appium=False)
        try:
            assert app.resets == 1
            assert second.find_element(By.ID, "count").text == "Count 0"
        finally:
            second.quit()
    finally:
        first.quit()


def test_a_provider_without_on_reset_refuses_the_session_saying_why(axdriver, ax_provider):
    app = CounterApp(ax_provider, name="wd-plain-counter")
    driver = axdriver()
    with pytest.raises(SessionNotCreatedException) as caught:
        reset_session(driver, app=app.name, appium=False)
    assert "axserver:reset" in caught.value.msg and "fresh app or server" in caught.value.msg, caught.value.msg
    # No session was left behind and the app is untouched.
    status, body = driver.request("GET", "/status")
    assert status == 200 and "0 sessions" in body["value"]["message"], body
    assert [r for r in app.provider.actions] == []


def test_resets_beside_another_sessions_actions_are_serialised(axserver, ax_provider):
    app = ResettableCounter(ax_provider, "wd-busy-counter")
    errors = []

    def click_loop():
        with Client(axserver.socket) as clicker:
            for _ in range(20):
                try:
                    clicker.call("action.activate", {"app": app.name, "target": {"id": "plus"}})
                except Exception as error:  # noqa: BLE001 - every failure is reported below
                    errors.append(error)

    def reset_loop():
        with Client(axserver.socket) as resetter:
            for _ in range(5):
                try:
                    assert resetter.reset_app(app.name)["reset"] is True
                except Exception as error:  # noqa: BLE001
                    errors.append(error)

    threads = [threading.Thread(target=click_loop)] + [threading.Thread(target=reset_loop) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert not any(thread.is_alive() for thread in threads), "a reset or action hung"
    assert errors == []
    assert app.resets == 10
    with Client(axserver.socket) as checker:
        checker.reset_app(app.name)
        assert checker.element({"id": "counter"}, app=app.name).label == "Count 0"


def test_an_app_that_never_answers_gets_a_bounded_typed_error(axserver, ax_provider):
    release = threading.Event()
    provider = ax_provider("wd-stuck", second_app_windows(), on_reset=lambda: release.wait(30))
    try:
        with Client(axserver.socket) as client:
            started = time.monotonic()
            with pytest.raises(AppNotResponding) as caught:
                client.reset_app(provider.app, timeout_ms=300)
            assert time.monotonic() - started < 5
            assert caught.value.reason == "timeout" and "fresh app or server" in caught.value.message
            # The server is still serving, and the app is still there.
            assert provider.app in [a["id"] for a in client.apps()]
    finally:
        release.set()


def test_an_app_that_leaves_mid_reset_gets_a_typed_error(axserver, ax_provider):
    holder = {}

    def leave():
        holder["provider"].client.close()
        time.sleep(0.2)

    holder["provider"] = ax_provider("wd-leaver", second_app_windows(), on_reset=leave)
    with Client(axserver.socket) as client:
        with pytest.raises(AppNotResponding) as caught:
            client.reset_app(holder["provider"].app)
        assert caught.value.reason == "app left", caught.value


def test_reset_refused_for_an_app_without_the_hook(axserver, ax_provider):
    provider = ax_provider("plain", second_app_windows())
    with Client(axserver.socket) as client:
        with pytest.raises(ActionNotSupported) as caught:
            client.reset_app(provider.app)
        assert caught.value.reason == "reset not supported"
