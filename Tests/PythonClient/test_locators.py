"""Playwright-style locators against the demo app: building, chaining, nth, filters and readers."""
import re

import pytest

import axclient
from axclient import selector as selectors


def test_get_by_role_with_name(ax):
    assert ax.get_by_role("switch", name="Wi-Fi").count() == 1
    assert ax.get_by_role("switch", name="wi").count() == 1            # substring, any case (Playwright)
    assert ax.get_by_role("switch", name="wi", exact=True).count() == 0
    assert ax.get_by_role("switch", name=re.compile(r"^(wi|blue)", re.I)).count() == 2
    assert ax.get_by_role("toggle").count() == 2                        # role aliases are the server's
    assert ax.get_by_role("header", level=2).count() == 2
    wifi = ax.get_by_role("switch", name="Wi-Fi").element()
    assert wifi.identifier == "cell.wifi" and wifi.role == "switch"


def test_get_by_label_id_text_placeholder(ax):
    assert ax.get_by_label("Text Size").role() == "adjustable"
    assert ax.get_by_label("text size", exact=False).count() == 1
    assert ax.get_by_id("cell.wifi").label() == "Wi-Fi"                 # an identifier that needs quoting
    assert ax.get_by_id("textSize").selector == "#textSize"
    assert ax.get_by_text("toggles apply").role() == "staticText"
    assert ax.get_by_placeholder("Device Name").role() == "textField"


def test_chaining_scopes_to_descendants(ax):
    table = ax.locator("#settingsTable")
    assert ax.locator("header").count() == 3                            # nav bar title + two sections
    assert table.locator("header").count() == 1
    assert table.get_by_role("switch").count() == 2
    assert ax.locator("#navBar").get_by_role("switch").count() == 0
    union = ax.locator("#settingsTable, #tabBar")
    assert union.locator("tab").count() == 3                            # the union is grouped before '>>'
    assert union.locator("switch, tab").count() == 5


def test_nth_first_last_all(ax):
    switches = ax.get_by_role("switch")
    assert switches.nth(0).label() == "Wi-Fi"
    assert switches.nth(1).label() == "Bluetooth"
    assert switches.first().label() == "Wi-Fi"
    assert switches.last().label() == "Bluetooth"
    assert switches.nth(-2).label() == "Wi-Fi"
    assert switches.nth(2).count() == 0
    assert [locator.label() for locator in switches.all()] == ["Wi-Fi", "Bluetooth"]
    tabs = ax.locator("#tabBar").locator("tab")
    assert tabs.nth(2).label() == "Profile"


def test_filter_and_or(ax):
    cells = ax.locator("#settingsTable >> switch, #settingsTable >> button")
    assert cells.count() == 4
    assert cells.filter(has_text="blue").label() == "Bluetooth"
    assert ax.locator("list").filter(has=ax.get_by_role("switch")).count() == 1
    assert ax.locator("list").filter(has_not=ax.get_by_role("switch")).count() == 0
    assert ax.get_by_role("switch").and_("[label=Bluetooth]").count() == 1
    assert ax.get_by_role("switch").or_("link").count() == 3


def test_readers(ax):
    wifi = ax.get_by_id("cell.wifi")
    assert wifi.value() in ("on", "off")
    assert ("checked" in wifi.states()) == (wifi.value() == "on")
    assert wifi.is_visible() and not wifi.is_hidden()
    assert wifi.is_enabled() and not wifi.is_disabled()
    assert wifi.is_checked() == (wifi.value() == "on")
    assert ax.locator("#nothing-here").is_visible() is False
    elements = ax.get_by_role("switch").elements()
    assert [element.label for element in elements] == ["Wi-Fi", "Bluetooth"]
    assert all(isinstance(element, axclient.Element) for element in elements)
    assert elements[0].frame["height"] > 0
    assert "Wi-Fi" in elements[0].describe()
    assert ax.locator('switch[label="Wifi"]').explain()["count"] == 0


def test_strictness(ax):
    with pytest.raises(axclient.AmbiguousMatch):
        ax.get_by_role("switch").value()


def test_selector_quoting():
    assert selectors.quote('a "b" \\ c\n') == '"a \\"b\\" \\\\ c\\n"'
    assert selectors.quote("\x01") == '"\\u{1}"'
    assert selectors.id_selector("plain_id-1") == "#plain_id-1"
    assert selectors.id_selector("with.dot") == '#"with.dot"'
    assert selectors.regex_literal(re.compile("a/b", re.I | re.M)) == "/a\\/b/im"
    assert selectors.has_top_level_comma("a, b")
    assert not selectors.has_top_level_comma('a[label="x, y"]:has(b, c):text(/d,e/)')
    with pytest.raises(ValueError):
        selectors.role_selector("button]")
