"""axclient.imgui: an unmodified imgui_bundle app (Tests/PythonClient/imguiapps/settings_form.py: a form, a table,
a modal popup), run by `python3 -m axclient.imgui` under Xvfb (Mesa's llvmpipe GL), mirrored into the real
axserver; the mapping and the actions are asserted through the JSON-RPC client (Specs/imgui-adapter.md)."""
import os
import sys

import pytest

from axclient import expect
from tk_support import TkApp, needs_tk, wait_for_app, xvfb_display  # noqa: F401

pytestmark = [needs_tk, pytest.mark.axserver(demo=False)]
pytest.importorskip("imgui_bundle", reason="Tools/requirements-test.txt installs imgui_bundle")

APPS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "imguiapps")


def start_app(display, socket, script, *args, name=None):
    """``python3 -m axclient.imgui SCRIPT ARGS`` (the runner patches immapp.run; the app is unmodified)."""
    command = ["-m", "axclient.imgui", "--socket", socket] + (["--name", name] if name else [])
    return TkApp(command + [os.path.join(APPS, script)] + list(args), display, socket, runner=False)


@pytest.fixture
def form(xvfb_display, axserver):
    app = start_app(xvfb_display, axserver.socket, "settings_form.py", "200")
    client = axserver.client(client_name="imgui-test", timeout=5.0)
    try:
        app_id = wait_for_app(client, "settings_form")
        client.close()
        client = axserver.client(client_name="imgui-test", app=app_id, timeout=5.0)
        yield app, client
    except AssertionError:
        raise AssertionError("%s; app stderr: %s" % (sys.exc_info()[1], app.stderr_text()))
    finally:
        client.close()
        app.stop()


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
