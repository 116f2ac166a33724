"""The client covers the whole API with Playwright's names (issue 26 item 2): keys (`keyboard.press/down/up/type`,
`locator.press`), the focus engine (`move`, `query`, `explain`, `status`, `update`, `items`), rotors (`list`,
`next`, `previous`), audits (run, suppression, JUnit and SARIF reports), speech (describe, walk), pictures
(render), `to_have_text`, and an ambiguous match that lists its candidates. Expected values come from the demo's
source (Sources/AXDemo/DemoApp.swift: the Tab sequence starts at the Edit button; headings "Connectivity"…; the
Device Name field's only label is its placeholder, the demo's one audit finding) and from an app published here.
"""
import json
import xml.etree.ElementTree as ET

import pytest

import axclient
from axclient import expect, orca_stack, view


@pytest.mark.axserver(fresh=True)
def test_keyboard_and_focus_engine(ax):
    first = ax.keyboard.press("Tab")
    assert first["handledBy"] == "server"
    status = ax.focus_engine.status()
    assert status["engine"]["element"]["label"] == "Edit"
    ahead = ax.focus_engine.query("next")
    assert ahead["simulated"] is True and ax.focus_engine.status()["engine"]["id"] == status["engine"]["id"]
    moved = ax.focus_engine.move("next")
    assert moved["moved"] is True and moved["to"] == ahead["to"]
    back = ax.keyboard.press("Shift+Tab")
    assert back["handledBy"] == "server"
    assert ax.focus_engine.status()["engine"]["element"]["label"] == "Edit"
    assert ax.focus_engine.items()
    explained = ax.get_by_id("cell.wifi").explain_focus()
    assert explained["focusable"] is True
    with pytest.raises(axclient.InvalidParams):
        ax.focus_engine.move("sideways")
    with pytest.raises(axclient.InvalidParams):
        ax.keyboard.press("NoSuchKeyName")
    with pytest.raises(ValueError):
        ax.keyboard.press("Hyper+Tab")


@pytest.mark.axserver(fresh=True)
def test_locator_press_and_type(ax):
    wifi = ax.get_by_role("switch", name="Wi-Fi")
    expect(wifi).to_have_value("on")
    answer = ax.get_by_id("cell.wifi").press("space")
    assert answer["handledBy"] == "server"
    expect(wifi).to_have_value("off")
    field = ax.get_by_id("deviceName")
    typed = ax.keyboard.type(" TV", target=field)
    assert typed["typed"]
    expect(field).to_have_text(typed_value(field))
    expect(ax.get_by_role("button", name="Edit")).to_have_text("Edit")
    with pytest.raises(AssertionError):
        expect(ax.get_by_role("button", name="Edit")).to_have_text("Done", timeout=0.2)


def typed_value(locator):
    value = locator.value()
    assert value and value.endswith(" TV"), value
    return value


def test_rotors(ax):
    rotors = ax.rotors.list()
    assert any(r["name"] == "heading" for r in rotors["rotors"])
    first = ax.rotors.next("heading", from_=None, move_focus=False)
    assert first["item"]["element"]["role"] == "header"
    following = ax.rotors.next("heading", from_={"id": first["item"]["target"]}, move_focus=False)
    before = ax.rotors.previous("heading", from_={"id": following["item"]["target"]}, move_focus=False)
    assert before["item"]["target"] == first["item"]["target"]
    with pytest.raises(axclient.RPCError):
        ax.rotors.next("no such rotor")


def test_audits_with_suppression_and_reports(ax, ax_provider):
    found = ax.audit()
    assert found["count"] >= 1
    check = found["findings"][0]["check"]
    quiet = ax.audit(suppress=[check])
    assert quiet["suppressed"] >= 1 and all(f["check"] != check for f in quiet["findings"])
    junit = ax.audit(report="junit")["report"]
    suites = ET.fromstring(junit)
    assert suites.tag == "testsuites" and int(suites.get("failures")) >= 1
    sarif = ax.audit(report="sarif")["report"]
    assert sarif["version"] == "2.1.0" and sarif["runs"][0]["results"]
    json.dumps(sarif)
    with pytest.raises(axclient.InvalidParams) as caught:
        ax.audit(report="html")
    assert caught.value.data["accepted"] == ["junit", "sarif"]
    panel = ax_provider("audit-panel", windows=[view(
        "win", "UIWindow", [0, 0, 400, 300], isKeyWindow=True, windowTitle="Panel", children=[
            view("icon", "UIButton", [10, 10, 44, 44]),             # a button with nothing to say
        ])])
    theirs = ax.audit(app=panel.app)
    assert theirs["app"] == panel.app and theirs["count"] >= 1, theirs
    assert len(ax.audit_checks()) >= 16


@pytest.mark.parametrize("version", sorted(orca_stack.ROLE_WORDS))
def test_speech_and_pictures(ax, tmp_path, version):
    """The speech preview in each Orca's phrasing (D-SPEECH-3): the role words real Orca 43 and Orca 48.1 say for the
    demo's button (orca_stack.ROLE_WORDS, measured by Tests/Integration/test_orca.py on both stacks)."""
    said = ax.get_by_id("showAlert").speech(screen_reader=version)
    assert said["voiceOver"]["text"].startswith("Reset All Settings")
    button = "Reset All Settings %s" % orca_stack.ROLE_WORDS[version]["push button"]
    assert said["orca"]["screenReader"] == version and said["orca"]["utterances"][0] == button, said["orca"]
    walk = ax.speech_walk(model="orca", limit=5, screen_reader=version)
    assert walk["count"] >= 5 and len(walk["items"]) == 5
    picture = tmp_path / "demo.svg"
    rendered = ax.render(path=str(picture))
    assert rendered["format"] == "svg" and "<svg" in picture.read_text()


def test_an_ambiguous_match_lists_its_candidates(ax):
    with pytest.raises(axclient.AmbiguousMatch) as caught:
        ax.locator("switch").click(timeout=0.5)
    message = str(caught.value)
    assert "Wi-Fi" in message and "Bluetooth" in message, message
    assert len(caught.value.candidates) >= 2
