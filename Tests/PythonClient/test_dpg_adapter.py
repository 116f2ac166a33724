"""axclient.dearpygui on an unmodified Dear PyGui app (dpgapps/settings_app.py: a settings form, a table of files
with selectable rows, a modal popup), run by `python3 -m axclient.dearpygui` under Xvfb and mirrored into the real
axserver; asserted through axclient and the axquery CLI (Specs/dearpygui-adapter.md). Expected names come from the
app's own labels and tags; effects are read from the app's stdout (its callbacks print) and the mirrored tree."""
import json
import os
import subprocess
import time

import pytest

from axclient import expect
from axclient.errors import AXError
from dpgapps.dpg_support import module_server, needs_dpg, start_app
from tk_support import xvfb_display  # noqa: F401

pytestmark = [needs_dpg]
BULLET = "\u2022"


def wait_another(app, line, before, timeout=10.0):
    """Waits until stdout has more ``line`` lines than ``before`` (the module's app keeps its stdout)."""
    deadline = time.monotonic() + timeout
    while app.lines.count(line) <= before:
        assert time.monotonic() < deadline, "no new %r line; stdout %r" % (line, app.lines[-20:])
        app.wait_line(line, timeout=max(0.1, deadline - time.monotonic()))
        with app._cond:
            if app.lines.count(line) <= before:
                app._cond.wait(0.2)


@pytest.fixture(scope="module")
def server(axserver_pool):
    srv = module_server(axserver_pool)
    yield srv
    axserver_pool.release(srv)


@pytest.fixture(scope="module")
def app(server, xvfb_display):
    started = start_app(server, xvfb_display, "settings_app.py", env={"AXCLIENT_DPG_SAFETY_WALK": "1"})
    yield started
    started.stop()


@pytest.fixture
def ax(server, app):
    client = server.client(client_name="dpg-test", app=app.app_id, timeout=8)
    yield client
    client.close()


def test_the_app_is_named_after_its_script_and_its_window_titled(app, ax):
    assert app.app_id == "settings_app"
    window = ax.get_by_id("main")
    assert window.role() == "window" and window.label() == "Settings"


def test_items_map_to_uikit_roles_labels_and_values(ax):
    ax.get_by_role("tab", name="General").click()
    expect(ax.get_by_role("tab", name="General")).to_be_selected()
    name = ax.get_by_id("name")
    assert name.role() == "textField" and name.label() == "Name"
    password = ax.get_by_id("password")
    assert password.role() == "secureTextField" and password.label() == "Password"
    assert ax.get_by_role("switch", name="Dark mode").count() == 1
    volume = ax.get_by_id("volume")
    assert volume.role() == "adjustable" and volume.label() == "Volume"
    size = ax.get_by_id("size")
    assert size.label() == "Size" and size.value() == "Medium"
    assert ax.get_by_id("copies").label() == "Copies"  # no label of its own: the text left of it (label rule)
    assert ax.get_by_role("button", name="Red").is_selected()
    assert ax.get_by_role("button", name="Green").value() == "2 of 3"
    assert ax.get_by_id("progress").value() == "25%"
    assert ax.get_by_role("button", name="Advanced").states().count("expanded") == 0


def test_actions_run_the_apps_callbacks(app, ax):
    name = ax.get_by_id("name")
    name.fill("Grace")
    app.wait_line("changed name 'Grace'")
    assert name.value() == "Grace"
    dark = ax.get_by_role("switch", name="Dark mode")
    before = dark.value()
    dark.click()
    app.wait_line("changed dark *")
    expect(dark).not_.to_have_value(before)
    volume = ax.get_by_id("volume")
    start = float(volume.value())
    volume.increment()
    app.wait_line("changed volume *")
    assert float(volume.value()) == start + 5  # a twentieth of the 0…100 range
    ax.get_by_role("button", name="Green").click()
    app.wait_line("changed color 'Green'")
    expect(ax.get_by_role("button", name="Green")).to_be_selected()
    ax.get_by_id("size").custom_action("Large")  # a combo's choices are its custom actions
    app.wait_line("changed size 'Large'")
    ax.get_by_id("apply").click()
    app.wait_line("apply apply form")  # sender = the tag, user_data as given
    expect(ax.get_by_id("status")).to_have_label("Saved Grace (volume %d, %s)"
                                                 % (start + 5, "dark" if before == "off" else "light"))


def test_tabs_a_table_and_a_modal_popup(app, ax):
    ax.get_by_role("tab", name="Files").click()
    expect(ax.get_by_role("tab", name="Files")).to_be_selected()
    assert ax.query_count('header[label="Size"]') == 1
    row = ax.get_by_role("cell", name="b.txt")
    expect(row).to_be_visible()
    row.click()
    app.wait_line("row b.txt True")
    expect(ax.get_by_id("status")).to_have_label("Selected b.txt")
    ax.get_by_id("delete").click()
    app.wait_line("asked")
    dialog = ax.get_by_id("confirm")
    expect(dialog).to_be_visible()
    assert dialog.label() == "Delete?"
    ax.get_by_role("button", name="Keep").click()
    app.wait_line("confirm False")
    expect(ax.get_by_id("confirm")).to_be_hidden()
    ax.get_by_id("delete").click()
    expect(ax.get_by_id("confirm")).to_be_visible()
    ax.get_by_role("button", name="Keep").escape()  # escape closes the front-most modal popup
    expect(ax.get_by_id("confirm")).to_be_hidden()
    ax.get_by_role("tab", name="General").click()
    expect(ax.get_by_id("name")).to_be_visible()


def test_a_header_opens_and_its_items_appear(ax):
    header = ax.get_by_role("button", name="Advanced")
    header.click()
    expect(ax.get_by_role("switch", name="Verbose logging")).to_be_visible()
    assert "expanded" in header.states()
    header.click()
    expect(ax.get_by_role("switch", name="Verbose logging")).to_be_hidden()


def test_masked_text_never_leaves(app, ax, server):
    password = ax.get_by_id("password")
    assert password.value() == BULLET * len("s3cret-pin")
    password.fill("hunter22")
    app.wait_line("changed password 'hunter22'")  # the app has it…
    assert password.value() == BULLET * 8  # …the tree does not
    dump = json.dumps(ax.tree()) + ax.tree_xml()
    assert "hunter22" not in dump and "s3cret" not in dump


def test_ids_do_not_churn_and_nothing_is_resent_when_nothing_changed(ax):
    ids_before = sorted(element["id"] for element in ax.query_all("*"))
    header = ax.get_by_role("button", name="Advanced")
    header.click()
    header.click()  # two more walks of the whole tree
    expect(ax.get_by_role("switch", name="Verbose logging")).to_be_hidden()
    assert sorted(element["id"] for element in ax.query_all("*")) == ids_before
    revision = quiet_revision(ax)
    time.sleep(2.5)  # the safety walk (every 1 s here) walks twice, finds nothing new, sends nothing
    assert ax.revision() == revision, ax.diff(revision)


def quiet_revision(ax, quiet=0.5, timeout=10.0):
    """The app's revision once no patch came for ``quiet`` s (ImGui lays a change out over a few frames)."""
    deadline = time.monotonic() + timeout
    revision, since = ax.revision(), time.monotonic()
    while time.monotonic() < deadline:
        ax.wait_for_change(ax.change_count(), 0.1)
        now = ax.revision()
        if now != revision:
            revision, since = now, time.monotonic()
        elif time.monotonic() - since >= quiet:
            return revision
    raise AssertionError("the app never went quiet")


def test_a_deleted_target_is_answered_target_gone(ax):
    with pytest.raises(AXError):
        ax.call("action.activate", {"app": "settings_app", "target": "no-such-item"})


def test_axquery_reads_and_drives_the_app(server, app):
    axquery = os.path.join(os.environ["AXSERVER_BIN"], "axquery")
    base = [axquery, "--socket", server.socket]
    out = subprocess.run(base + ["find", "--app", "settings_app", 'button[label="Apply"]'], capture_output=True,
                         text=True, timeout=30)
    assert out.returncode == 0 and "Apply" in out.stdout, (out.stdout, out.stderr)
    before = app.lines.count("apply apply form")
    out = subprocess.run(base + ["do", "activate", "--app", "settings_app", "#apply"], capture_output=True,
                         text=True, timeout=30)
    assert out.returncode == 0, (out.stdout, out.stderr)
    wait_another(app, "apply apply form", before)
    out = subprocess.run(base + ["tree", "--app", "settings_app"], capture_output=True, text=True, timeout=30)
    assert "Settings" in out.stdout and "hunter22" not in out.stdout


def test_an_mcp_agent_reads_and_drives_the_app(server, app):
    """The real MCP SDK client (PyPI ``mcp``) against ``axquery mcp``: a snapshot without the secret, a click on
    the tagged Apply button by its ref, the app's callback runs."""
    anyio = pytest.importorskip("anyio")
    mcp = pytest.importorskip("mcp")
    from mcp.client.stdio import stdio_client

    async def main():
        params = mcp.StdioServerParameters(command=os.path.join(os.environ["AXSERVER_BIN"], "axquery"),
                                           args=["mcp", "--socket", server.socket])
        with open(os.devnull, "w") as errlog:
            async with stdio_client(params, errlog=errlog) as (read, write):
                async with mcp.ClientSession(read, write) as session:
                    await session.initialize()
                    snapshot = await session.call_tool("snapshot", {})
                    found = await session.call_tool("find", {"selector": 'button[label="Apply"]'})
                    ref = found.content[0].text.splitlines()[1].split(" ")[0]
                    clicked = await session.call_tool("click", {"ref": ref})
                    return snapshot.content[0].text, clicked

    before = app.lines.count("apply apply form")
    snapshot, clicked = anyio.run(main)
    assert "Apply" in snapshot and "Password" in snapshot and "hunter22" not in snapshot and "s3cret" not in snapshot
    assert not clicked.is_error, clicked.content
    wait_another(app, "apply apply form", before)


def test_the_in_process_entry_and_an_imgui_id_that_outlives_its_label(server, xvfb_display):
    """``axclient.dearpygui.mirror()`` called by the app itself (no runner); a button labelled
    ``"Clicked N times###count"`` keeps its id while its shown label changes (ImGui's ``###`` rule)."""
    app = start_app(server, xvfb_display, "inprocess_app.py", name="inprocess", runner=False)
    client = server.client(client_name="dpg-inprocess", app=app.app_id, timeout=8)
    try:
        button = client.get_by_role("button", name="Clicked 0 times")
        view_id = button.element()["id"]
        assert view_id.endswith("/Button:count"), view_id
        client.get_by_id(view_id).click()
        app.wait_line("count 1")
        expect(client.get_by_id(view_id)).to_have_label("Clicked 1 times")
    finally:
        client.close()
        app.stop()


def test_the_command_line_explains_itself():
    import sys
    out = subprocess.run([sys.executable, "-m", "axclient.dearpygui"], capture_output=True, text=True, timeout=60,
                         env=dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path)))
    assert out.returncode == 2 and "usage: python3 -m axclient.dearpygui" in out.stderr
    out = subprocess.run([sys.executable, "-m", "axclient.dearpygui", "no_such_app.py"], capture_output=True,
                         text=True, timeout=60, env=dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path)))
    assert out.returncode == 2 and "no such script" in out.stderr
