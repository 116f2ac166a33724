"""axdriver with unmodified WebDriver clients from PyPI (Selenium, Appium-Python-Client) and raw HTTP.

Every test starts its own axdriver (`--port 0`, READY line) against the `axserver` fixture's server: the demo app,
and a second app published with `ax_provider`. The raw-HTTP tests are the W3C conformance subset of
Specs/webdriver.md §Commands (the W3C conformance subset: status, sessions, timeouts, find, element commands,
errors, bad input, trust).
"""
import base64
import concurrent.futures
import http.client
import json
import os
import select
import socket
import subprocess
import sys
import tempfile
import threading
import time

import pytest
from appium import webdriver as appium_webdriver
from appium.options.common import AppiumOptions
from appium.webdriver.common.appiumby import AppiumBy
from selenium import webdriver
from selenium.common.exceptions import (ElementNotInteractableException, InvalidArgumentException,
                                        InvalidElementStateException, InvalidSelectorException,
                                        NoSuchElementException, SessionNotCreatedException,
                                        StaleElementReferenceException, TimeoutException, WebDriverException)
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.common.options import ArgOptions
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import WebDriverWait

from axclient import ServerProcess, view

ELEMENT_KEY = "element-6066-11e4-a52e-4f735466cecf"


class Driver:
    """A running axdriver on a free loopback port."""

    def __init__(self, server_socket, *args, timeout=30.0):
        binary = os.path.join(os.environ["AXSERVER_BIN"], "axdriver")
        self.process = subprocess.Popen([binary, "--port", "0", "--socket", server_socket, *args],
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL)
        ready, _, _ = select.select([self.process.stdout], [], [], timeout)
        line = self.process.stdout.readline().decode() if ready else ""
        if not line.startswith("READY port="):
            self.stop()
            raise RuntimeError("axdriver did not start: %r %s" % (line, self.process.stderr.read().decode()))
        self.port = int(line.split()[1].split("=")[1])
        self.url = "http://127.0.0.1:%d" % self.port

    def request(self, method, path, body=None, headers=None, raw=None):
        """(status, parsed JSON body) of one request; `raw` sends bytes as the body unchanged."""
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        payload = raw if raw is not None else (json.dumps(body).encode() if body is not None else None)
        all_headers = {"Content-Type": "application/json"}
        all_headers.update(headers or {})
        connection.request(method, path, body=payload, headers=all_headers)
        response = connection.getresponse()
        data = response.read()
        connection.close()
        return response.status, (json.loads(data) if data else None)

    def new_session(self, **capabilities):
        caps = {"platformName": "linux"}
        caps.update(capabilities)
        status, body = self.request("POST", "/session", {"capabilities": {"alwaysMatch": caps}})
        assert status == 200, body
        return body["value"]["sessionId"]

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)
        self.process.stdout.close()
        self.process.stderr.close()


@pytest.fixture
def axdriver(axserver):
    drivers = []

    def start(*args, server_socket=None):
        driver = Driver(server_socket or axserver.socket, *args)
        drivers.append(driver)
        return driver

    yield start
    for driver in drivers:
        driver.stop()


def appium_session(driver, app=None):
    options = AppiumOptions()
    options.set_capability("platformName", "linux")
    options.set_capability("appium:automationName", "AXServer")
    if app:
        options.set_capability("axserver:app", app)
    return appium_webdriver.Remote(driver.url, options=options)


def selenium_session(driver, app=None):
    options = ArgOptions()
    options.set_capability("platformName", "linux")
    if app:
        options.set_capability("axserver:app", app)
    return webdriver.Remote(driver.url, options=options)


def second_app_windows(extra=()):
    return [view("win", "UIWindow", [0, 0, 390, 844], isKeyWindow=True, windowTitle="Counter", children=[
        view("counter", "UILabel", [16, 100, 300, 30], text="Count 0", accessibilityIdentifier="count"),
        view("plus", "UIButton", [16, 150, 100, 44], title="Add", accessibilityIdentifier="plus"),
        view("off", "UIButton", [16, 200, 100, 44], title="Disabled", isEnabled=False),
        view("search", "UITextField", [16, 260, 300, 44], placeholder="Search", accessibilityIdentifier="search"),
    ] + list(extra))]


class CounterApp:
    """A second app: a counter whose Add button publishes the new count before answering."""

    def __init__(self, ax_provider, name="wd-counter"):
        self.count = 0
        self.text = ""
        self.provider = ax_provider(name, second_app_windows(), on_action=self.perform)
        self.name = self.provider.app

    def perform(self, request):
        if request.action == "activate" and request.target == "plus":
            self.count += 1
            self.provider.set_properties("counter", text="Count %d" % self.count)
            return True
        if request.target == "search" and request.action in ("typeText", "setValue"):
            self.text = (self.text + request.value) if request.action == "typeText" else request.value
            self.provider.set_properties("search", text=self.text)
            return True
        return False


# ----------------------------------------------------------------------------------------------------------
# Unmodified client code against the demo and a second app


@pytest.mark.axserver(fresh=True)
def test_appium_client_drives_the_demo(axdriver):
    driver = axdriver()
    session = appium_session(driver)
    try:
        wifi = session.find_element(AppiumBy.ACCESSIBILITY_ID, "cell.wifi")
        before = wifi.get_attribute("value")
        assert before in ("on", "off")
        assert wifi.tag_name == "XCUIElementTypeSwitch"
        assert wifi.is_displayed() and wifi.is_enabled()
        assert wifi.is_selected() == (before == "on")
        assert wifi.rect["width"] > 0 and wifi.text == "Wi-Fi"
        wifi.click()
        assert wifi.get_attribute("value") == ("off" if before == "on" else "on")

        assert session.find_element(AppiumBy.NAME, "Bluetooth").get_attribute("name") == "cell.bluetooth"
        assert len(session.find_elements(AppiumBy.CLASS_NAME, "XCUIElementTypeSwitch")) == 2
        assert len(session.find_elements(AppiumBy.CLASS_NAME, "tab")) == 3     # a server role
        segments = session.find_elements(AppiumBy.XPATH, "//XCUIElementTypeSegmentedControl/XCUIElementTypeButton")
        assert [segment.text for segment in segments] == ["Light", "Dark", "Automatic"]
        assert session.find_element(AppiumBy.XPATH, "//*[contains(@label, 'Bright')]").get_attribute("axid") \
            == "cellDisplay"
        assert session.find_element(AppiumBy.XPATH, "(//XCUIElementTypeButton)[last()]").text == "Profile"
        table = session.find_element(AppiumBy.ACCESSIBILITY_ID, "settingsTable")
        assert [cell.text for cell in table.find_elements(AppiumBy.XPATH, "./XCUIElementTypeSwitch")] \
            == ["Wi-Fi", "Bluetooth"]
        assert len(table.find_elements(AppiumBy.CLASS_NAME, "XCUIElementTypeButton")) == 2
        assert session.find_element("-axserver selector", "slider[label='Text Size']").get_attribute("value") == "50%"

        name = session.find_element(AppiumBy.ACCESSIBILITY_ID, "deviceName")
        name.send_keys("Kitchen")
        assert name.get_attribute("value") == "Kitchen"
        name.send_keys(" Pi")
        assert name.text == "Kitchen Pi"
        name.clear()
        assert name.get_attribute("value") in (None, "")

        copies = session.find_element(AppiumBy.ACCESSIBILITY_ID, "copies")
        start = int(copies.get_attribute("value"))
        assert session.execute_script("axserver: increment", {"element": copies.id})["performed"] is True
        assert int(copies.get_attribute("value")) == start + 1
        session.execute_script("axserver: decrement", {"elementId": copies.id})
        assert int(copies.get_attribute("value")) == start
        # Issue 25: zoom and drag/drop are script extensions too; the stepper has neither (-32014 names the action).
        for script, extra in (("axserver: zoomIn", {}), ("axserver: drop", {"name": "Here"})):
            try:
                session.execute_script(script, {"element": copies.id, **extra})
                raise AssertionError(script + " should be refused")
            except WebDriverException as refused:
                assert script.split(": ")[1] in str(refused), str(refused)
        speech = session.execute_script("axserver: speech", {"element": copies.id, "model": "voiceOver"})
        assert "Copies" in speech["voiceOver"]["text"]
        audit = session.execute_script("axserver: audit", {})
        assert "findings" in audit
        session.execute_script("axserver: focus", {"element": copies.id})
        assert session.switch_to.active_element.id == copies.id

        display = session.find_element(AppiumBy.ACCESSIBILITY_ID, "cell.display")
        assert session.execute_script("axserver: customAction", {"element": display.id,
                                                                 "name": "Add to Favorites"})["performed"] is True
        assert "Remove from Favorites" in display.get_attribute("customActions")
        # Accessibility focus is on Copies (axserver: focus above): the previous heading is Preferences.
        step = session.execute_script("axserver: rotor", {"rotor": "heading", "direction": "previous"})
        assert step["item"]["target"] == "hdrPrefs" and step["rotor"]["name"] == "heading"

        session.find_element(AppiumBy.ACCESSIBILITY_ID, "showAlert").click()
        alert = session.find_element(AppiumBy.CLASS_NAME, "XCUIElementTypeAlert")
        assert session.execute_script("axserver: escape", {"element": alert.id})["performed"] is True
        assert session.find_elements(AppiumBy.CLASS_NAME, "XCUIElementTypeAlert") == []

        source = session.page_source
        assert source.startswith("<?xml") and 'axid="copies"' in source
        assert session.get_screenshot_as_png()[:8] == b"\x89PNG\r\n\x1a\n"
        assert copies.screenshot_as_png[:4] == b"\x89PNG"
        assert session.window_handles == ["mainWindow"] and session.current_window_handle == "mainWindow"
        assert session.title == "axserver-demo"
        assert session.get_window_rect()["width"] == 390
    finally:
        session.quit()


def test_selenium_client_drives_a_second_app(axdriver, ax_provider):
    app = CounterApp(ax_provider)
    driver = axdriver()
    session = selenium_session(driver, app=app.name)
    try:
        assert session.find_element(By.ID, "count").get_attribute("label") == "Count 0"
        session.find_element(By.ID, "plus").click()
        session.find_element(By.XPATH, "//XCUIElementTypeButton[@label='Add']").click()
        assert session.find_element(By.ID, "count").text == "Count 2"
        assert app.count == 2
        assert session.find_element(By.NAME, "Add").get_dom_attribute("identifier") == "plus"
        assert session.find_element(By.CLASS_NAME, "XCUIElementTypeTextField").get_property("placeholder") == "Search"
        search = session.find_element(By.ID, "search")
        search.send_keys("abc")
        assert app.text == "abc" and search.get_attribute("value") == "abc"
        assert session.find_element(By.ID, "search").is_displayed()
        assert session.find_element(By.TAG_NAME, "XCUIElementTypeButton").text == "Add"
        assert session.find_element(By.XPATH, "//XCUIElementTypeWindow").get_attribute("label") == "Counter"
    finally:
        session.quit()


def test_keys_and_actions_reach_the_app(axdriver, ax_provider):
    app = CounterApp(ax_provider, name="wd-keys")
    driver = axdriver()
    session = selenium_session(driver, app="wd-keys")
    try:
        plus = session.find_element(By.ID, "plus")
        # A key the server does not handle for this app reaches it as action.perform {action: "key"} (D-KEY-2).
        plus.send_keys(Keys.RETURN)
        keys = [r.value for r in app.provider.actions if r.action == "key"]
        assert keys and keys[-1]["key"] == "Return"
        ActionChains(session).key_down(Keys.SHIFT).send_keys(Keys.TAB).key_up(Keys.SHIFT).perform()
        keys = [r.value for r in app.provider.actions if r.action == "key"]
        assert keys[-1]["key"] == "Tab" and keys[-1]["modifiers"] == ["shift"]
        # A pointer click on the element taps its centre (UIKit hit testing, action.tap).
        ActionChains(session).move_to_element(plus).click().perform()
        assert session.find_element(By.ID, "count").text == "Count 1"
    finally:
        session.quit()


def test_implicit_wait_is_woken_by_the_change(axdriver, ax_provider):
    app = CounterApp(ax_provider, name="wd-wait")
    driver = axdriver()
    session = appium_session(driver, app="wd-wait")
    changed_at = []

    def publish_later():
        time.sleep(0.4)
        app.provider.insert("win", view("late", "UIButton", [16, 320, 100, 44], title="Late",
                                        accessibilityIdentifier="late"))
        changed_at.append(time.monotonic())

    try:
        session.implicitly_wait(10)
        publisher = threading.Thread(target=publish_later)
        started = time.monotonic()
        publisher.start()
        found = session.find_element(AppiumBy.XPATH, "//XCUIElementTypeButton[@name='late']")
        found_at = time.monotonic()
        publisher.join(10)
        assert found.text == "Late"
        assert 0.3 < found_at - started < 5
        # Woken by the server's tree.changed event: it answers right after the change, not a polling period later.
        assert found_at - changed_at[0] < 0.25, found_at - changed_at[0]

        # A selector strategy waits on the server (wait.for), woken by the same change.
        changed_at.clear()
        publisher = threading.Thread(target=lambda: (time.sleep(0.3), app.provider.insert(
            "win", view("later", "UIButton", [16, 380, 100, 44], title="Later", accessibilityIdentifier="later")),
            changed_at.append(time.monotonic())))
        publisher.start()
        found = session.find_element(AppiumBy.ACCESSIBILITY_ID, "later")
        found_at = time.monotonic()
        publisher.join(10)
        assert found.text == "Later" and found_at - changed_at[0] < 0.25, found_at - changed_at[0]

        session.implicitly_wait(0.3)
        started = time.monotonic()
        with pytest.raises(NoSuchElementException):
            session.find_element(AppiumBy.ACCESSIBILITY_ID, "never")
        assert 0.25 < time.monotonic() - started < 3
        assert session.find_elements(AppiumBy.ACCESSIBILITY_ID, "never") == []
    finally:
        session.quit()


def test_webdriverwait_sees_values_change(axdriver, ax_provider):
    app = CounterApp(ax_provider, name="wd-poll")
    driver = axdriver()
    session = selenium_session(driver, app="wd-poll")
    try:
        threading.Timer(0.3, lambda: app.provider.set_properties("counter", text="Count 42")).start()
        WebDriverWait(session, 5, poll_frequency=0.05).until(
            EC.text_to_be_present_in_element((By.ID, "count"), "42"))
        with pytest.raises(TimeoutException):
            WebDriverWait(session, 0.3, poll_frequency=0.05).until(EC.presence_of_element_located((By.ID, "gone")))
    finally:
        session.quit()


def test_stale_element_after_the_tree_changes(axdriver, ax_provider):
    app = CounterApp(ax_provider, name="wd-stale")
    driver = axdriver()
    session = appium_session(driver, app="wd-stale")
    try:
        plus = session.find_element(AppiumBy.ACCESSIBILITY_ID, "plus")
        assert plus.text == "Add"
        app.provider.remove("plus")
        with pytest.raises(StaleElementReferenceException):
            plus.click()
        with pytest.raises(StaleElementReferenceException):
            _ = plus.text
        with pytest.raises(NoSuchElementException):
            session.find_element(AppiumBy.ACCESSIBILITY_ID, "plus")
    finally:
        session.quit()


def test_errors_are_w3c_errors(axdriver, ax_provider):
    CounterApp(ax_provider, name="wd-errors")
    driver = axdriver()
    session = selenium_session(driver, app="wd-errors")
    try:
        with pytest.raises(NoSuchElementException):
            session.find_element(By.ID, "missing")
        with pytest.raises(InvalidSelectorException):
            session.find_element(By.XPATH, "//*[@name=")
        with pytest.raises(InvalidSelectorException):
            session.find_element(By.CSS_SELECTOR, "div > span")
        with pytest.raises(InvalidSelectorException):
            session.find_element(By.XPATH, "count(//*)")
        with pytest.raises(ElementNotInteractableException) as caught:
            session.find_element(By.NAME, "Disabled").click()
        assert "disabled" in caught.value.msg
        with pytest.raises(ElementNotInteractableException):
            session.find_element(By.ID, "count").send_keys("x")
        with pytest.raises(InvalidElementStateException):
            session.find_element(By.ID, "plus").clear()
        with pytest.raises(WebDriverException) as caught:
            session.execute_script("return document.title")
        assert "axserver:" in caught.value.msg
        with pytest.raises(InvalidArgumentException):
            session.execute_script("axserver: fly", {})
        with pytest.raises(WebDriverException) as caught:
            session.get("https://example.com")
        assert "not supported" in caught.value.msg
    finally:
        session.quit()


def test_denied_restriction_is_an_error(axdriver):
    directory = tempfile.mkdtemp(prefix="axdriver-policy-")
    policy = os.path.join(directory, "policy.json")
    with open(policy, "w") as handle:
        json.dump({"version": 1, "apps": {"axserver-demo": {"deny": ["org.axserver.demo.reset"]}}}, handle)
    os.chmod(policy, 0o600)
    server = ServerProcess(os.path.join(os.environ["AXSERVER_BIN"], "axserver"), demo=True,
                           args=["--policy", policy])
    try:
        driver = axdriver(server_socket=server.socket)
        session = appium_session(driver)
        try:
            reset = session.find_element(AppiumBy.ACCESSIBILITY_ID, "showAlert")
            with pytest.raises(InvalidElementStateException) as caught:
                reset.click()
            assert "org.axserver.demo.reset" in caught.value.msg or "denied" in caught.value.msg
            assert session.find_elements(AppiumBy.CLASS_NAME, "XCUIElementTypeAlert") == []
        finally:
            session.quit()
    finally:
        server.stop()
        os.unlink(policy)
        os.rmdir(directory)


# ----------------------------------------------------------------------------------------------------------
# W3C conformance subset over raw HTTP


def test_status_sessions_and_timeouts(axdriver):
    driver = axdriver()
    status, body = driver.request("GET", "/status")
    assert status == 200 and body["value"]["ready"] is True and "message" in body["value"]

    status, body = driver.request("POST", "/session", {"capabilities": {
        "alwaysMatch": {"appium:automationName": "AXServer", "timeouts": {"implicit": 250}},
        "firstMatch": [{"platformName": "ios"}, {"platformName": "linux"}]}})
    assert status == 200, body
    session_id = body["value"]["sessionId"]
    capabilities = body["value"]["capabilities"]
    assert capabilities["platformName"] == "linux" and capabilities["appium:automationName"] == "AXServer"
    assert capabilities["axserver:app"] == "axserver-demo"
    assert capabilities["timeouts"]["implicit"] == 250

    assert driver.request("GET", "/session/%s/timeouts" % session_id) == \
        (200, {"value": {"implicit": 250, "pageLoad": 300000, "script": 30000}})
    assert driver.request("POST", "/session/%s/timeouts" % session_id, {"implicit": 0, "script": None}) == \
        (200, {"value": None})
    assert driver.request("GET", "/session/%s/timeouts" % session_id)[1]["value"]["script"] is None
    for bad in ({"implicit": -1}, {"implicit": 1.5}, {"pageLoad": "10"}):
        status, body = driver.request("POST", "/session/%s/timeouts" % session_id, bad)
        assert (status, body["value"]["error"]) == (400, "invalid argument"), bad

    status, body = driver.request("POST", "/session/%s/element" % session_id,
                                  {"using": "accessibility id", "value": "cell.wifi"})
    assert status == 200 and body["value"] == {ELEMENT_KEY: "cellWifi"}
    status, body = driver.request("POST", "/session/%s/elements" % session_id,
                                  {"using": "xpath", "value": "//XCUIElementTypeSwitch"})
    assert [entry[ELEMENT_KEY] for entry in body["value"]] == ["cellWifi", "cellBluetooth"]
    for path, expected in (("/text", "Wi-Fi"), ("/name", "XCUIElementTypeSwitch"), ("/enabled", True),
                           ("/displayed", True), ("/attribute/label", "Wi-Fi"), ("/attribute/enabled", "true"),
                           ("/property/enabled", True), ("/computedrole", "switch"), ("/computedlabel", "Wi-Fi"),
                           ("/attribute/nonexistent", None)):
        assert driver.request("GET", "/session/%s/element/cellWifi%s" % (session_id, path)) == \
            (200, {"value": expected}), path
    status, body = driver.request("GET", "/session/%s/element/cellWifi/rect" % session_id)
    assert set(body["value"]) == {"x", "y", "width", "height"}

    status, body = driver.request("GET", "/sessions")
    assert session_id in [entry["id"] for entry in body["value"]]
    assert driver.request("DELETE", "/session/%s" % session_id) == (200, {"value": None})
    status, body = driver.request("GET", "/session/%s/source" % session_id)
    assert (status, body["value"]["error"]) == (404, "invalid session id")


def test_errors_and_bad_input(axdriver):
    driver = axdriver("--max-body-bytes", "4096")
    session_id = driver.new_session()
    base = "/session/%s" % session_id
    cases = [
        ("POST", base + "/element", {"using": "accessibility id", "value": "nope"}, 404, "no such element"),
        ("POST", base + "/element", {"using": "link text", "value": "x"}, 400, "invalid argument"),
        ("POST", base + "/element", {"using": "xpath", "value": "//*["}, 400, "invalid selector"),
        ("POST", base + "/element", {"value": "x"}, 400, "invalid argument"),
        ("GET", base + "/element/nope/text", None, 404, "no such element"),
        ("GET", base + "/element/~zz/text", None, 404, "no such element"),
        ("GET", base + "/teapot", None, 404, "unknown command"),
        ("PUT", base + "/source", None, 405, "unknown method"),
        ("POST", base + "/url", {"url": "https://example.com"}, 500, "unsupported operation"),
        ("POST", base + "/execute/sync", {"script": "return 1", "args": []}, 500, "unsupported operation"),
        ("POST", "/session", {"capabilities": {"alwaysMatch": {"platformName": "windows"}}}, 500,
         "session not created"),
        ("POST", "/session", {"capabilities": {"alwaysMatch": {"axserver:app": "no-such-app"}}}, 500,
         "session not created"),
        ("POST", "/session", {"capabilities": {"alwaysMatch": {"platformName": "linux"},
                                               "firstMatch": [{"platformName": "linux"}]}}, 400, "invalid argument"),
        ("GET", "/session/not-a-session/source", None, 404, "invalid session id"),
    ]
    for method, path, body, status, error in cases:
        got_status, got = driver.request(method, path, body)
        assert (got_status, got["value"]["error"]) == (status, error), (method, path, body, got)
        assert isinstance(got["value"]["message"], str) and "stacktrace" in got["value"]
    status, body = driver.request("POST", base + "/element", raw=b'{"using": "xpath", "value": ')
    assert (status, body["value"]["error"]) == (400, "invalid argument")
    status, body = driver.request("POST", base + "/element", raw=b'["xpath"]')
    assert (status, body["value"]["error"]) == (400, "invalid argument")
    status, body = driver.request("POST", base + "/element", raw=b"x" * 5000)
    assert status == 413 and body["value"]["data"]["limit"] == "maxBodyBytes"

    # Malformed HTTP: a 400 and the connection closed, the driver still serves the next client.
    with socket.create_connection(("127.0.0.1", driver.port), timeout=10) as raw:
        raw.sendall(b"NOT HTTP AT ALL\r\n\r\n")
        assert raw.recv(4096).startswith(b"HTTP/1.1 400")
    assert driver.request("GET", "/status")[0] == 200


def test_host_origin_and_token_checks(axdriver, tmp_path):
    driver = axdriver()
    status, body = driver.request("GET", "/status", headers={"Host": "attacker.example:%d" % driver.port})
    assert status == 403 and "DNS rebinding" in body["value"]["message"]
    status, _ = driver.request("GET", "/status", headers={"Origin": "http://attacker.example"})
    assert status == 403
    assert driver.request("GET", "/status", headers={"Origin": "http://127.0.0.1:%d" % driver.port})[0] == 200
    assert driver.request("GET", "/status", headers={"Host": "localhost:%d" % driver.port})[0] == 200

    token_file = tmp_path / "token"
    token_file.write_text("s3cret-token\n")
    os.chmod(token_file, 0o600)
    guarded = axdriver("--auth-token-file", str(token_file))
    status, _ = guarded.request("GET", "/status")
    assert status == 401
    wrong = base64.b64encode(b"user:wrong").decode()
    assert guarded.request("GET", "/status", headers={"Authorization": "Basic " + wrong})[0] == 401
    right = base64.b64encode(b"user:s3cret-token").decode()
    assert guarded.request("GET", "/status", headers={"Authorization": "Basic " + right})[0] == 200
    options = AppiumOptions()
    options.set_capability("platformName", "linux")
    session = appium_webdriver.Remote("http://user:s3cret-token@127.0.0.1:%d" % guarded.port, options=options)
    try:
        assert session.find_element(AppiumBy.ACCESSIBILITY_ID, "cell.wifi").text == "Wi-Fi"
    finally:
        session.quit()


def test_session_limit_and_expiry(axdriver):
    # The limit, with sessions that cannot expire while 1,000 clients race (on a loaded machine the race takes
    # longer than a short idle timeout, and expired sessions would free places: the count would depend on load).
    driver = axdriver("--session-timeout-s", "600")        # the default limit: 64 sessions

    def create(_):
        return driver.request("POST", "/session", {"capabilities": {"alwaysMatch": {"platformName": "linux"}}})

    with concurrent.futures.ThreadPoolExecutor(max_workers=16) as pool:
        results = list(pool.map(create, range(1000)))    # 1,000 clients at once
    created = [body["value"]["sessionId"] for status, body in results if status == 200]
    refused = [body for status, body in results if status != 200]
    assert len(created) == 64 and len(refused) == 936
    assert all(body["value"]["error"] == "session not created" and body["value"]["data"]["limit"] == "maxSessions"
               for body in refused)
    assert driver.request("GET", "/status")[1]["value"]["ready"] is False
    # Abandoned sessions expire: with a 2 s idle timeout and the limit full, a new session is refused at once, and
    # admitted once the abandoned ones expired; their ids are gone.
    expiring = axdriver("--session-timeout-s", "2", "--max-sessions", "4")
    abandoned = [expiring.new_session() for _ in range(4)]
    status, body = expiring.request("POST", "/session", {"capabilities": {"alwaysMatch": {"platformName": "linux"}}})
    assert status != 200 and body["value"]["data"]["limit"] == "maxSessions"
    time.sleep(2.5)
    fresh = expiring.new_session()
    assert expiring.request("GET", "/session/%s/source" % abandoned[0])[0] == 404
    assert expiring.request("GET", "/session/%s/source" % fresh)[0] == 200


def start_server(socket_path):
    """axserver with the demo on `socket_path` (a path that survives a restart)."""
    process = subprocess.Popen([os.path.join(os.environ["AXSERVER_BIN"], "axserver"), "serve", "--demo",
                                "--no-atspi", "--socket", socket_path], stdout=subprocess.PIPE,
                               stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL)
    ready, _, _ = select.select([process.stdout], [], [], 30)
    assert ready and process.stdout.readline().startswith(b"READY")
    return process


def stop_server(process):
    process.terminate()
    process.wait(10)
    process.stdout.close()


def test_server_not_running_then_restarted(axdriver):
    directory = tempfile.mkdtemp(prefix="axdriver-restart-")
    os.chmod(directory, 0o700)
    socket_path = os.path.join(directory, "ax.sock")
    driver = axdriver(server_socket=socket_path)
    find = {"using": "accessibility id", "value": "cell.wifi"}
    status, body = driver.request("POST", "/session", {"capabilities": {}})
    assert (status, body["value"]["error"]) == (500, "session not created")
    assert "not reachable" in body["value"]["message"]
    server = start_server(socket_path)
    try:
        session_id = driver.new_session()
        assert driver.request("POST", "/session/%s/element" % session_id, find)[0] == 200
        stop_server(server)
        status, body = driver.request("POST", "/session/%s/element" % session_id, find)
        assert status == 500 and "not reachable" in body["value"]["message"]
        # The server is back on the same socket: the session reconnects and its element references still work.
        server = start_server(socket_path)
        assert driver.request("POST", "/session/%s/element" % session_id, find) == (200, {"value": {ELEMENT_KEY: "cellWifi"}})
        assert driver.request("GET", "/session/%s/element/cellWifi/text" % session_id) == (200, {"value": "Wi-Fi"})
    finally:
        if server.poll() is None:
            stop_server(server)
        for name in os.listdir(directory):
            os.unlink(os.path.join(directory, name))
        os.rmdir(directory)


@pytest.mark.axserver(fresh=True)
def test_readme_appium_example_passes(axdriver, tmp_path):
    """The README's Appium-Python-Client example (skipped by the docs test, which has no PyPI clients) runs here."""
    readme = open(os.path.join(os.path.dirname(__file__), "..", "..", "README.md")).read()
    after = readme.split("Save this as `test_appium_demo.py`", 1)[1]
    example = after.split("```python\n", 1)[1].split("```", 1)[0]
    (tmp_path / "test_appium_demo.py").write_text(example)
    driver = axdriver()
    environment = dict(os.environ, AXDRIVER_URL=driver.url)
    result = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "test_appium_demo.py"],
                            cwd=str(tmp_path), env=environment, capture_output=True, text=True, timeout=120)
    assert "1 passed" in result.stdout, result.stdout + result.stderr


def test_xpath_sees_changes_patched_into_the_parsed_page(axdriver, ax_provider):
    """After a change that moves nothing, axdriver patches the changed elements into its parsed page (tree.diff +
    element.get) instead of reading the page source again; every attribute must then equal the server's page."""
    import xml.etree.ElementTree as ElementTree
    app = CounterApp(ax_provider, name="wd-patch")
    driver = axdriver()
    session = selenium_session(driver, app="wd-patch")

    def literal(value):
        if '"' not in value:
            return '"%s"' % value
        if "'" not in value:
            return "'%s'" % value
        return "concat(%s)" % ", '\"', ".join('"%s"' % part for part in value.split('"'))

    def all_elements_match():
        root = ElementTree.fromstring(session.page_source.split("?>", 1)[1])
        checked = 0
        for element in root.iter():
            if "axid" not in element.attrib:
                continue
            tests = " and ".join("@%s=%s" % (name, literal(value)) for name, value in element.attrib.items())
            xpath = "//%s[%s and count(@*) = %d]" % (element.tag, tests, len(element.attrib))
            assert [e.id for e in session.find_elements(By.XPATH, xpath)] == [element.attrib["axid"]], xpath
            checked += 1
        return checked

    try:
        assert session.find_element(By.XPATH, "//*[@label='Count 0']").id == "counter"
        session.find_element(By.ID, "plus").click()
        app.provider.set_properties("plus", frame=[20, 151.6, 90.4, 44], isEnabled=False, title='Add\u0001 "more"')
        app.provider.set_properties("search", text="typed", accessibilityIdentifier="")
        assert session.find_elements(By.XPATH, "//*[@label='Count 0']") == []
        assert session.find_element(By.XPATH, "//*[@label='Count 1']").id == "counter"
        assert session.find_element(By.XPATH, "//*[@x='20' and @y='152' and @width='90']").id == "plus"
        assert all_elements_match() == 5
    finally:
        session.quit()


def test_connection_limit_and_idle_connections(axdriver):
    driver = axdriver("--max-connections", "8", "--idle-timeout-s", "1")
    held = [socket.create_connection(("127.0.0.1", driver.port), timeout=10) for _ in range(8)]
    try:
        time.sleep(0.2)
        # Over the limit the new connection takes the place of an idle one (Specs/webdriver.md §Limits): one held
        # connection is closed at once (not after the idle 1 s) and the new one is served.
        extra = socket.create_connection(("127.0.0.1", driver.port), timeout=5)
        readable, _, _ = select.select(held, [], [], 0.9)
        assert [connection.recv(1) for connection in readable] == [b""]
        extra.sendall(b"GET /status HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        assert extra.recv(12) == b"HTTP/1.1 200"
        extra.close()
        # Silent connections with no request in progress are closed after the idle timeout; then there is room.
        time.sleep(2.5)
        for connection in held:
            assert connection.recv(1) == b""
        assert driver.request("GET", "/status")[0] == 200
        # A request that waits longer than the idle timeout (implicit wait) is not cut off.
        session_id = driver.new_session()
        driver.request("POST", "/session/%s/timeouts" % session_id, {"implicit": 2000})
        started = time.monotonic()
        status, body = driver.request("POST", "/session/%s/element" % session_id,
                                      {"using": "xpath", "value": "//never"})
        assert (status, body["value"]["error"]) == (404, "no such element")
        assert time.monotonic() - started > 1.9
    finally:
        for connection in held:
            connection.close()


class SlowAlertApp:
    """An app whose confirmation alert shows first and gets its buttons a moment later, as a toolkit dialog does
    (Tk maps the window, then its buttons; seen in CI: `switch_to.alert.accept()` right after `alert_is_present`
    answered `no such alert: … has no enabled button`)."""

    def __init__(self, ax_provider, delay=0.4):
        self.delay = delay
        self.activated = []
        self.provider = ax_provider("wd-slow-alert", self.windows(alert=False), on_action=self.perform)
        self.name = self.provider.app

    def windows(self, alert, enabled=False):
        children = [view("delete", "UIButton", [16, 150, 100, 44], title="Delete", accessibilityIdentifier="delete")]
        if alert:
            children.append(view("confirm", "UIAlertController", [45, 330, 300, 180], title="Delete item?", children=[
                view("cancel", "UIButton", [0, 136, 150, 44], title="Cancel", isEnabled=enabled),
                view("ok", "UIButton", [150, 136, 150, 44], title="Delete", isEnabled=enabled),
            ]))
        return [view("win", "UIWindow", [0, 0, 390, 844], isKeyWindow=True, windowTitle="Items", children=children)]

    def perform(self, request):
        self.activated.append(request.target)
        if request.action == "activate" and request.target == "delete":
            self.provider.set_hierarchy(self.windows(alert=True))
            timer = threading.Timer(self.delay, lambda: self.provider.set_hierarchy(self.windows(True, True)))
            timer.daemon = True
            timer.start()
            return True
        if request.action == "activate" and request.target in ("ok", "cancel"):
            self.provider.set_hierarchy(self.windows(alert=False))
            return True
        return False


def test_accepting_an_alert_that_is_still_getting_its_buttons_waits_for_them(axdriver, ax_provider):
    app = SlowAlertApp(ax_provider)
    session = selenium_session(axdriver(), app.name)
    try:
        session.find_element(By.ID, "delete").click()
        alert = WebDriverWait(session, 5).until(EC.alert_is_present())
        started = time.monotonic()
        alert.accept()
        waited = time.monotonic() - started
        assert app.activated[-1] == "ok", app.activated
        assert waited < 2.5, "the accept waited %.1f s, past its settle time" % waited
        WebDriverWait(session, 5).until_not(EC.alert_is_present())
    finally:
        session.quit()
