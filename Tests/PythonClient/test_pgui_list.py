"""axclient.pygame_gui on a list app (pguiapps/list_app.py, unmodified): a UISelectionList's rows and selection,
a tab container, a UIWindow opened and closed, a multi-line UITextEntryBox, images named only when the app named
them — driven by axclient, the `axquery` CLI and the real MCP client (`axquery mcp`, the `mcp` SDK from PyPI)."""
import os
import subprocess

import anyio
import pytest

from axclient import expect
from axclient.server import find_axserver
from pgui_support import ModuleApp, needs_pgui, pgui_display  # noqa: F401

pytestmark = [needs_pgui]


@pytest.fixture(scope="module")
def fruit(axserver_pool, pgui_display):
    module = ModuleApp(axserver_pool, pgui_display, "list_app.py")
    try:
        yield module.app, module.client(), module.server
    finally:
        module.stop()


def axquery(server, app_id, *args):
    binary = os.path.join(os.path.dirname(find_axserver()), "axquery")
    return subprocess.run([binary] + list(args) + ["--socket", server.socket, "--app", app_id],
                          capture_output=True, text=True, timeout=60)


def test_rows_tabs_images_and_text(fruit):
    _, ax, _ = fruit
    fruits = ax.get_by_id("fruits")
    assert fruits.role() == "list" and fruits.label() == "Fruits"
    assert [cell.label for cell in ax.query_all("#fruits > cell")][:5] == ["Apple", "Banana", "Cherry", "Damson",
                                                                            "Elderberry"]
    expect(ax.locator('#fruits > cell[label="Lemon"]')).to_be_hidden()  # scrolled out of the list's view
    assert ax.get_by_role("tab", name="General").is_selected()
    assert ax.get_by_role("button", name="Sort by name").count() == 1  # on the shown page
    assert ax.get_by_role("button", name="Clear cache").count() == 0  # on the hidden page
    assert ax.get_by_id("logo").role() == "image" and ax.get_by_id("logo").label() == "Fruit shop logo"
    assert ax.query_count("#decoration") == 0 or not ax.get_by_id("decoration").element().get("isElement", False)
    notes = ax.get_by_id("notes")
    assert notes.role() == "textView" and notes.label() == "Notes"
    assert notes.value() == "first line\nsecond line\nthird line"


def test_a_row_is_selected_by_a_click_the_app_handles(fruit):
    app, ax, _ = fruit
    ax.locator('#fruits > cell[label="Cherry"]').click()
    app.wait_line("selected Cherry")
    expect(ax.locator('#fruits > cell[label="Cherry"]')).to_be_selected()
    expect(ax.get_by_id("chosen")).to_have_label("Selected: Cherry")


def test_a_list_scrolls_and_its_rows_follow(fruit):
    _, ax, _ = fruit
    ax.get_by_id("fruits").scroll("down")
    expect(ax.locator('#fruits > cell[label="Lemon"]')).to_be_visible()
    expect(ax.locator('#fruits > cell[label="Apple"]')).to_be_hidden()
    ax.get_by_id("fruits").scroll("up")
    expect(ax.locator('#fruits > cell[label="Apple"]')).to_be_visible()


def test_tabs_switch_pages(fruit):
    _, ax, _ = fruit
    ax.get_by_role("tab", name="Advanced").click()
    expect(ax.get_by_role("button", name="Clear cache")).to_be_visible()
    expect(ax.get_by_role("button", name="Sort by name")).to_be_hidden()
    assert ax.get_by_role("tab", name="Advanced").is_selected()
    ax.get_by_role("tab", name="General").click()
    expect(ax.get_by_role("button", name="Sort by name")).to_be_visible()


def test_a_window_opens_is_driven_and_closes(fruit):
    app, ax, _ = fruit
    ax.get_by_id("details").click()
    app.wait_line("window open")
    window = ax.locator('window[label="Details"]')
    expect(window).to_be_visible()
    assert ax.locator('window[label="Details"] >> staticText[label="Fresh fruit daily"]').count() == 1
    ax.locator('window[label="Details"] >> button[label="Order now"]').click()
    app.wait_line("ordered")
    ax.locator('window[label="Details"] >> button[label="Close"]').click()
    app.wait_line("window closed")
    expect(window).to_be_hidden()


def test_axquery_finds_and_drives_the_app(fruit):
    app, ax, server = fruit
    found = axquery(server, app.app_id, "find", "cell")
    assert found.returncode == 0, found.stderr
    assert "Banana" in found.stdout and "Elderberry" in found.stdout
    done = axquery(server, app.app_id, "do", "activate", 'cell[label="Damson"]')
    assert done.returncode == 0, done.stderr
    app.wait_line("selected Damson")
    count = axquery(server, app.app_id, "count", "tab")
    assert count.stdout.strip() == "2"


def test_the_mcp_sdk_drives_the_app(fruit):
    from mcp import ClientSession, StdioServerParameters
    from mcp.client.stdio import stdio_client
    app, ax, server = fruit
    binary = os.path.join(os.path.dirname(find_axserver()), "axquery")
    out = {}

    async def main():
        params = StdioServerParameters(command=binary, args=["mcp", "--socket", server.socket])
        with open(os.devnull, "w") as errlog:
            async with stdio_client(params, errlog=errlog) as (read, write):
                async with ClientSession(read, write) as session:
                    await session.initialize()
                    found = await session.call_tool("find", {"app": app.app_id, "selector": "cell"})
                    out["find"] = found.content[0].text
                    clicked = await session.call_tool("click", {"app": app.app_id,
                                                                "selector": 'cell[label="Banana"]'})
                    out["click"] = (clicked.is_error, clicked.content[0].text if clicked.content else "")

    anyio.run(main)
    assert "Apple" in out["find"] and "Elderberry" in out["find"]
    assert out["click"][0] is False, out["click"]
    app.wait_line("selected Banana")
    expect(ax.get_by_id("chosen")).to_have_label("Selected: Banana")
