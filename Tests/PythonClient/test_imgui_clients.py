"""The project's other clients on an ImGui app (imguiapps/settings_form.py under `python3 -m axclient.imgui`):
the `axquery` CLI finds and activates ImGui items, and the real MCP client from PyPI (the `mcp` package) drives it
through `axquery mcp` — snapshot, click, type, wait — as an agent would."""
import os
import re
import subprocess

import pytest

from axclient.server import find_axserver
from test_imgui_adapter import start_app
from tk_support import needs_tk, wait_for_app, xvfb_display  # noqa: F401

pytest.importorskip("imgui_bundle", reason="Tools/requirements-test.txt installs imgui_bundle")
mcp = pytest.importorskip("mcp", reason="Tools/requirements-test.txt installs mcp")
pytestmark = [needs_tk, pytest.mark.axserver(demo=False)]


def axquery(socket, *args):
    binary = os.path.join(os.path.dirname(find_axserver()), "axquery")
    return subprocess.run([binary, "--socket", socket, "--app", "settings_form"] + list(args), capture_output=True,
                          text=True, timeout=30)


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
    found = axquery(axserver.socket, "find", 'adjustable[label="Volume"]')
    assert found.returncode == 0 and "Volume" in found.stdout, found
    done = axquery(axserver.socket, "do", "activate", 'button[label="Greet"]')
    assert done.returncode == 0, done
    app.wait_line("greeted ")
    assert axquery(axserver.socket, "find", 'button[label="No such item"]').returncode == 1


def test_an_mcp_agent_drives_the_imgui_app(form, axserver):
    import anyio
    from mcp import ClientSession, StdioServerParameters
    from mcp.client.stdio import stdio_client

    app = form
    binary = os.path.join(os.path.dirname(find_axserver()), "axquery")
    out = {}

    async def main():
        params = StdioServerParameters(command=binary, args=["mcp", "--socket", axserver.socket])
        with open(os.devnull, "w") as errlog:
            async with stdio_client(params, errlog=errlog) as (read, write):
                async with ClientSession(read, write) as session:
                    await session.initialize()
                    for name, arguments in (("snapshot", {"app": "settings_form"}),
                                            ("type_text", {"selector": 'textField[label="Name"]', "text": "Ada"}),
                                            ("click", {"selector": 'button[label="Greet"]'}),
                                            ("wait_for", {"selector": ':text("Hello, Ada!")', "state": "attached",
                                                          "timeoutMs": 5000})):
                        answer = await session.call_tool(name, arguments)
                        texts = [item.text for item in answer.content if item.type == "text"]
                        out[name] = (texts[0] if texts else "", bool(answer.is_error))

    anyio.run(main)
    snapshot, failed = out["snapshot"]
    # Session refs name the role (b: button) and labels go unquoted (Specs/mcp.md §Refs, D-MCP-REF-1).
    assert not failed and re.search(r"\bb\d+ Greet\b", snapshot) and "Volume" in snapshot, snapshot
    assert not out["type_text"][1], out["type_text"]
    assert not out["click"][1], out["click"]
    app.wait_line("greeted Ada")
    assert not out["wait_for"][1] and out["wait_for"][0].startswith("attached: yes"), out["wait_for"]
