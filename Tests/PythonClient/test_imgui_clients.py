"""The project's other clients on an ImGui app (imguiapps/settings_form.py under `python3 -m axclient.imgui`):
the `axquery` CLI finds and activates ImGui items, and the real MCP client from PyPI (the `mcp` package) drives it
through `axquery mcp` — snapshot, click, type, wait — as an agent would."""
import re

import pytest

from test_imgui_adapter import start_app
from tk_support import needs_tk, wait_for_app, xvfb_display  # noqa: F401
from toolkit_support import axquery, mcp_tool_answers

pytest.importorskip("imgui_bundle", reason="Tools/requirements-test.txt installs imgui_bundle")
mcp = pytest.importorskip("mcp", reason="Tools/requirements-test.txt installs mcp")
pytestmark = [needs_tk, pytest.mark.axserver(demo=False)]
APP = "settings_form"


@pytest.fixture
def form(xvfb_display, axserver):
    app = start_app(xvfb_display, axserver.socket, "settings_form.py", "20")
    client = axserver.client(client_name="imgui-clients", timeout=5.0)
    try:
        wait_for_app(client, "settings_form")
        yield app
    finally:
        client.close()
        app.stop()


def test_axquery_finds_and_activates_imgui_items(form, axserver):
    app = form
    found = axquery(axserver.socket, "find", 'adjustable[label="Volume"]', "--app", APP)
    assert found.returncode == 0 and "Volume" in found.stdout, found
    done = axquery(axserver.socket, "do", "activate", 'button[label="Greet"]', "--app", APP)
    assert done.returncode == 0, done
    app.wait_line("greeted ")
    assert axquery(axserver.socket, "find", 'button[label="No such item"]', "--app", APP).returncode == 1


def test_an_mcp_agent_drives_the_imgui_app(form, axserver):
    app = form
    out = mcp_tool_answers(axserver.socket, (
        ("snapshot", {"app": APP}),
        ("type_text", {"selector": 'textField[label="Name"]', "text": "Ada"}),
        ("click", {"selector": 'button[label="Greet"]'}),
        ("wait_for", {"selector": ':text("Hello, Ada!")', "state": "attached", "timeoutMs": 5000})))
    snapshot, failed = out["snapshot"]
    # Session refs name the role (b: button) and labels go unquoted (Specs/mcp.md §Refs, D-MCP-REF-1).
    assert not failed and re.search(r"\bb\d+ Greet\b", snapshot) and "Volume" in snapshot, snapshot
    assert not out["type_text"][1], out["type_text"]
    assert not out["click"][1], out["click"]
    app.wait_line("greeted Ada")
    assert not out["wait_for"][1] and out["wait_for"][0].startswith("attached: yes"), out["wait_for"]
