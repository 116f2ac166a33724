"""A Kivy app under axclient.kivy driven by the project's other clients: the `axquery` CLI and an MCP session
(`axquery mcp`, with the real MCP SDK from PyPI). The app's callbacks print what reached them."""
import os
import sys

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "kivyapps"))
from kivy_support import kivy_display, needs_kivy, shared_server, start_app  # noqa: E402,F401
from toolkit_support import axquery, mcp_tool_answers, stopping  # noqa: E402

pytestmark = [needs_kivy]


@pytest.fixture(scope="module")
def settings(axserver_pool, kivy_display):
    server = shared_server(axserver_pool)
    with stopping(start_app(server, kivy_display, "settings_app.py", name="kivy_clients")) as app:
        yield app, server


def test_axquery_finds_and_drives_the_kivy_app(settings):
    app, server = settings
    found = axquery(server.socket, "find", 'adjustable[label="Volume"]', "--app", app.app_id)
    assert found.returncode == 0 and "Volume" in found.stdout and "30%" in found.stdout, found
    done = axquery(server.socket, "do", "increment", 'adjustable[label="Volume"]', "--app", app.app_id)
    assert done.returncode == 0, done
    app.wait_line("volume 4")
    count = axquery(server.socket, "count", "secureTextField", "--app", app.app_id)
    assert count.stdout.strip() == "1", count
    tree = axquery(server.socket, "tree", "--app", app.app_id)
    assert "hunter2" not in tree.stdout and "Kivy Settings" in tree.stdout


def test_an_mcp_session_clicks_and_types(settings):
    pytest.importorskip("mcp")
    app, server = settings
    out = mcp_tool_answers(server.socket, (
        ("snapshot", {"app": app.app_id}),
        ("click", {"selector": 'button[label="Green"]', "app": app.app_id}),
        ("type_text", {"selector": 'textField[label="Name"]', "text": " L.", "app": app.app_id})))
    snapshot, failed = out["snapshot"]
    assert not failed and "Kivy Settings" in snapshot and '"Volume"' in snapshot, snapshot
    assert "hunter2" not in snapshot
    clicked, failed = out["click"]
    assert not failed, clicked
    app.wait_line("colour green down")
    typed, failed = out["type_text"]
    assert not failed and "Ada L." in typed, typed
