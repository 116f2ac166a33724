"""axclient.imgui: an unmodified imgui_bundle app (Tests/PythonClient/imguiapps/settings_form.py: a form, a table,
a modal popup), run by `python3 -m axclient.imgui` under Xvfb (Mesa's llvmpipe GL), mirrored into the real
axserver; the mapping and the actions are asserted through the JSON-RPC client (Specs/imgui-adapter.md)."""
import atexit
import os
import shutil
import sys
import tempfile
import time

import pytest

from axclient import expect
from tk_support import TkApp, needs_tk, wait_for_app, xvfb_display  # noqa: F401

pytestmark = [needs_tk, pytest.mark.axserver(demo=False)]
pytest.importorskip("imgui_bundle", reason="Tools/requirements-test.txt installs imgui_bundle")

APPS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "imguiapps")
SCRATCH = tempfile.mkdtemp(prefix="axclient-imgui-")
atexit.register(shutil.rmtree, SCRATCH, True)


def start_app(display, socket, script, *args, name=None):
    """``python3 -m axclient.imgui SCRIPT ARGS`` (the runner patches immapp.run; the app is unmodified)."""
    command = ["-m", "axclient.imgui", "--socket", socket] + (["--name", name] if name else [])
    return TkApp(command + [os.path.join(APPS, script)] + list(args), display, socket, runner=False,
                 cwd=SCRATCH)  # hello_imgui writes "<title>.ini" into the working directory


@pytest.fixture(scope="module")
def form_app(xvfb_display, axserver_pool):
    """One server and one app for the module (the tests run in file order: the first reads the initial state)."""
    server = axserver_pool.start(axserver_pool.options(pytest.mark.axserver(demo=False).mark))
    app = start_app(xvfb_display, server.socket, "settings_form.py", "200")
    try:
        client = server.client(client_name="imgui-test", timeout=5.0)
        try:
            app_id = wait_for_app(client, "settings_form")
        except AssertionError:
            raise AssertionError("%s; app stderr: %s" % (sys.exc_info()[1], app.stderr_text()))
        finally:
            client.close()
        yield server, app, app_id
    finally:
        app.stop()
        server.stop()


@pytest.fixture
def form(form_app):
    server, app, app_id = form_app
    client = server.client(client_name="imgui-test", app=app_id, timeout=5.0)
    try:
        yield app, client
    finally:
        client.close()


def test_form_maps_to_uikit_roles_labels_and_values(form):
    app, ax = form
    assert ax.get_by_role("window", name="Settings").count() == 2  # the GLFW window "Settings form" and ImGui's "Settings"
    greet = ax.get_by_role("button", name="Greet")
    assert greet.count() == 1
    name = ax.get_by_role("textField", name="Name")
    assert name.value() in ("", None)
    password = ax.get_by_role("secureTextField", name="Password")
    assert password.count() == 1
    volume = ax.get_by_role("adjustable", name="Volume")
    assert volume.value() == "40"
    assert ax.get_by_role("switch", name="Dark mode").value() == "off"
    assert ax.get_by_role("button", name="Medium").is_selected()
    assert not ax.get_by_role("button", name="Large").is_selected()
    assert ax.get_by_role("button", name="Color").value() == "Red"
    assert ax.get_by_role("header", name="Account").count() == 1
    assert ax.get_by_role("button", name="Files").count() == 1


def test_actions_run_the_apps_logic(form):
    app, ax = form
    ax.get_by_role("textField", name="Name").type_text("Ada")
    ax.get_by_role("button", name="Greet").tap()
    app.wait_line("greeted Ada")
    expect(ax.get_by_text("Hello, Ada!")).to_be_attached()
    ax.get_by_role("switch", name="Dark mode").tap()
    expect(ax.get_by_role("switch", name="Dark mode")).to_have_value("on")
    ax.get_by_role("adjustable", name="Volume").increment()
    expect(ax.get_by_role("adjustable", name="Volume")).to_have_value("45")
    ax.get_by_role("button", name="Large").tap()
    expect(ax.get_by_role("button", name="Large")).to_be_selected()
    ax.get_by_role("button", name="Save").tap()
    app.wait_line("saved Ada 45 True Red")


def test_tabs_menus_and_list_boxes(form):
    app, ax = form
    general, advanced = ax.get_by_role("tab", name="General"), ax.get_by_role("tab", name="Advanced")
    assert general.is_selected() and not advanced.is_selected()
    assert ax.get_by_text("General page").count() == 1 and ax.get_by_text("Advanced page").count() == 0
    advanced.tap()  # TabItemFlags_.set_selected in the next frame: ImGui's own tab switch
    expect(ax.get_by_text("Advanced page")).to_be_attached()
    expect(advanced).to_be_selected()
    ax.get_by_text("Cherry").tap()  # a list box choice (a part of the list box view)
    app.wait_line("fruit 2")
    expect(ax.get_by_text("Cherry")).to_be_selected()
    ax.locator('button[label="File"]').tap()  # the menu opens: its popup is a window of its items
    expect(ax.get_by_role("button", name="Open")).to_be_attached()
    ax.get_by_role("button", name="Open").tap()
    app.wait_line("open")


def revision(ax, app_id):
    return next(entry["revision"] for entry in ax.apps() if entry["id"] == app_id)


def test_tree_node_opens_a_clipped_table_whose_rows_keep_their_ids(form):
    app, ax = form
    files = ax.get_by_role("button", name="Files")
    assert files.value() in (None, "") and "collapsed" in files.states()
    files.tap()
    expect(ax.get_by_text("file0.txt")).to_be_attached()
    first = ax.get_by_text("file3.txt").element().id
    assert ax.get_by_text("0 KB").count() == 1  # the Size column's text of row 0
    assert ax.get_by_text("file199.txt").count() == 0  # clipped: the app does not submit it, it does not exist
    ax.get_by_text("file3.txt").tap()
    app.wait_line("selected 3")
    expect(ax.get_by_text("file3.txt")).to_be_selected()
    assert ax.get_by_text("file3.txt").element().id == first  # same ImGui item, same view across frames


def test_modal_popup_is_a_modal_window_and_its_buttons_work(form):
    app, ax = form
    ax.get_by_role("button", name="Delete...").tap()
    dialog = ax.get_by_role("window", name="Confirm delete")
    expect(dialog).to_be_attached()
    assert ax.get_by_text("Delete everything?").count() == 1
    ax.get_by_role("button", name="OK").tap()
    app.wait_line("deleted")
    expect(dialog).to_be_detached()


def test_masked_text_never_leaves(form):
    app, ax = form
    ax.get_by_role("secureTextField", name="Password").type_text("hunter2")
    ax.get_by_role("button", name="Greet").tap()  # a frame after the typing: the field's text is the app's
    app.wait_line("greeted *")
    tree = str(ax.tree())
    assert "hunter2" not in tree
    assert "\u2022" * 7 in tree  # seven bullets: the app holds the 7 characters, the server gets their count


def test_nothing_is_resent_while_frames_submit_the_same_items(form):
    """The first frames settle (ImGui's nav focus lands on the first field); then a second of identical frames
    (the loop renders on at hello_imgui's idle rate, each recorded every 30 ms) changes no revision."""
    app, ax = form
    deadline = time.monotonic() + 5
    before = revision(ax, "settings_form")
    while time.monotonic() < deadline:
        time.sleep(0.5)
        now = revision(ax, "settings_form")
        if now == before:
            break
        before = now
    time.sleep(1.0)
    assert revision(ax, "settings_form") == before


def test_an_animated_value_is_coalesced_to_twenty_patches_a_second(xvfb_display, axserver):
    app = start_app(xvfb_display, axserver.socket, "settings_form.py", "20", "--animate", name="animated")
    ax = axserver.client(client_name="imgui-rate", timeout=5.0)
    try:
        wait_for_app(ax, "animated")
        start, began = revision(ax, "animated"), time.monotonic()
        time.sleep(1.5)
        changed, elapsed = revision(ax, "animated") - start, time.monotonic() - began
        assert 4 <= changed <= 21 * elapsed, (changed, elapsed)  # the bar moves every frame; ≤ 20 patches/s
    finally:
        ax.close()
        app.stop()
