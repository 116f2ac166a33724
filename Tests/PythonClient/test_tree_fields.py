"""`tree.get` with `fields` (issue 26 item 3): only the fields asked for, `id` always, nesting only with
`children`; the values are those of the full reply; an unknown field is the typed −32602 naming the accepted ones.
Checked on the demo and on an app published here."""
import gc

import pytest

import axclient
from axclient.connection import LARGE_MESSAGE_BYTES, decode_message
from axclient import view

LEAN = ["role", "label", "value", "states", "children"]


def walk(elements):
    for element in elements:
        yield element
        yield from walk(element.get("children", []))


def check_against_full(client, app=None):
    full = client.tree(app=app)
    lean = client.tree(app=app, fields=LEAN)
    assert lean["count"] == full["count"] > 3
    by_id = {element["id"]: element for element in walk(full["windows"])}
    for element in walk(lean["windows"]):
        assert set(element) <= {"id", "role", "label", "value", "states", "children"}, element
        reference = by_id[element["id"]]
        for key in ("role", "label", "value", "states"):
            assert element.get(key) == reference.get(key), (key, element, reference)
    assert [e["id"] for e in walk(lean["windows"])] == [e["id"] for e in walk(full["windows"])]
    return full, lean


def test_lean_fields_on_the_demo(ax):
    full, lean = check_against_full(ax)
    wifi = next(e for e in walk(lean["windows"]) if e.get("label") == "Wi-Fi" and e["role"] == "switch")
    assert wifi["value"] == "on" and "checked" in wifi["states"]
    assert len(str(lean)) < len(str(full)) / 2


def test_lean_fields_on_an_app_of_ones_own(ax, ax_provider):
    panel = ax_provider("tree-fields-panel", windows=[view(
        "win", "UIWindow", [0, 0, 400, 300], isKeyWindow=True, windowTitle="Panel", children=[
            view("lights", "UIButton", [10, 10, 200, 44], title="Lights"),
            view("dim", "UISlider", [10, 60, 200, 44], accessibilityLabel="Dimmer", value=0.5),
            view("night", "UISwitch", [10, 110, 51, 31], isOn=True, accessibilityLabel="Night mode"),
        ])])
    check_against_full(ax, app=panel.app)


def test_without_children_only_the_roots(ax):
    roots = ax.tree(fields=["role"])
    assert roots["windows"] and all(set(w) == {"id", "role"} for w in roots["windows"])
    assert roots["count"] == len(roots["windows"])


def test_an_unknown_field_is_a_typed_error(ax):
    with pytest.raises(axclient.InvalidParams) as caught:
        ax.tree(fields=["role", "colour"])
    assert "label" in caught.value.data["accepted"]
    with pytest.raises(axclient.InvalidParams):
        ax.call("tree.get", {"fields": "role"})


def test_large_messages_decode_with_the_collector_restored():
    big = b'{"a": [' + b",".join([b'{"x": 1}'] * (LARGE_MESSAGE_BYTES // 8 + 1)) + b"]}"
    assert len(big) >= LARGE_MESSAGE_BYTES
    assert gc.isenabled()
    assert len(decode_message(big)["a"]) == LARGE_MESSAGE_BYTES // 8 + 1
    assert gc.isenabled()
    gc.disable()
    try:
        decode_message(big)
        assert not gc.isenabled(), "a collector the program turned off stays off"
    finally:
        gc.enable()
    with pytest.raises(ValueError):
        decode_message(big[:-1])
    assert gc.isenabled()
