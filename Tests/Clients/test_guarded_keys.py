"""Issue 30 item 6 (D-GA-KEY-1): with an element guarded by a denied guided-access restriction focused, keys that
could operate it never reach the app, on every route a key takes: JSON-RPC `input.key`, WebDriver key actions and
Send Keys with U+E0xx keys (Selenium), MCP `press_key` (the `mcp` SDK), and the keys an adapter forwards for its own
app (the Tk adapter's `input.key` from the provider connection). Before the fix all of them delivered Return/space
to the app as a `key` action naming the guarded element. Tab still leaves it.
"""
import json
import os
import tempfile

import pytest
from selenium.common.exceptions import WebDriverException
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from axclient import Client, view
from axclient.errors import AXError
from test_mcp import run_session, tool
from test_webdriver import Driver, selenium_session

APP = "guarded-keys"
GUARD = "org.test.guard"


def _policy_file():
    fd, path = tempfile.mkstemp(prefix="axtest-guard-", suffix=".json")
    with os.fdopen(fd, "w") as f:
        json.dump({"version": 1, "unknownApps": "allow", "apps": {APP: {"deny": [GUARD]}}}, f)
    return path


POLICY = _policy_file()
pytestmark = pytest.mark.axserver(fresh=True, demo=False, args=("--policy", POLICY))


def windows():
    return [view("win", "UIWindow", [0, 0, 390, 844], isKeyWindow=True, windowTitle="Kiosk", children=[
        view("door", "UIButton", [16, 100, 200, 44], title="Open door", accessibilityIdentifier="door",
             restrictionIdentifiers=[GUARD]),
        view("help", "UIButton", [16, 200, 200, 44], title="Help", accessibilityIdentifier="help"),
    ])]


@pytest.fixture
def guarded(axserver, ax_provider):
    provider = ax_provider(APP, windows(), restrictions=[{"id": GUARD, "text": "Door controls"}])
    client = Client(axserver.socket, client_name="test_guarded_keys")
    client.call("focus.set", {"app": APP, "target": {"id": "door"}})
    yield provider, client
    client.close()


def keys_delivered(provider):
    return [(r.value or {}).get("key") for r in provider.actions if r.action == "key"]


def pressed(provider):
    return [r for r in provider.actions if r.action == "activate"]


def test_json_rpc_input_key_is_denied_and_tab_still_goes(guarded):
    provider, client = guarded
    for key in ("Return", "space", "KP_Enter", "a"):
        with pytest.raises(AXError) as raised:
            client.call("input.key", {"app": APP, "key": key})
        assert raised.value.code == -32017, raised.value
        assert raised.value.data["restriction"] == GUARD and raised.value.data["element"] == "door"
    assert keys_delivered(provider) == [] and pressed(provider) == []
    client.call("input.key", {"app": APP, "key": "Tab"})
    assert keys_delivered(provider) == ["Tab"]


def test_the_apps_own_forwarded_keys_are_denied(guarded):
    provider, _ = guarded
    # What the Tk adapter sends for a keystroke the app received (tk/mirror.py forward_key).
    with pytest.raises(AXError) as raised:
        provider.client.call("input.key", {"key": "Return", "modifiers": [], "phase": "press"})
    assert raised.value.code == -32017, raised.value
    assert pressed(provider) == []


def test_webdriver_send_keys_and_key_actions_are_denied(axserver, guarded):
    provider, client = guarded
    driver = Driver(axserver.socket)
    try:
        session = selenium_session(driver, app=APP)
        try:
            door = session.find_element(By.ID, "door")
            with pytest.raises(WebDriverException):
                door.send_keys(Keys.RETURN)  # U+E006
            client.call("focus.set", {"app": APP, "target": {"id": "door"}})
            with pytest.raises(WebDriverException):
                ActionChains(session).send_keys(Keys.SPACE).perform()  # U+E00D
            client.call("focus.set", {"app": APP, "target": {"id": "door"}})
            with pytest.raises(WebDriverException):
                ActionChains(session).key_down(Keys.ENTER).key_up(Keys.ENTER).perform()  # U+E007
        finally:
            session.quit()
    finally:
        driver.stop()
    assert keys_delivered(provider) == [] and pressed(provider) == []


def test_mcp_press_key_is_denied(axserver, guarded):
    provider, _ = guarded

    async def script(session):
        return await tool(session, "press_key", key="Return", app=APP)

    text, failed, _ = run_session(axserver.socket, script)
    assert failed, text
    assert "-32017" in text and GUARD in text, text
    assert keys_delivered(provider) == [] and pressed(provider) == []
