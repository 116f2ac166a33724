"""axclient.imgui on imgui_bundle's own shipped demos, unmodified, run as modules (`python3 -m axclient.imgui -m
imgui_bundle.demos_python…`): demo_docking (hello_imgui.run with RunnerParams: dockable windows, menus, a status
bar) and demo_widgets (immapp.run with add-ons). What the tests expect are the demos' own labels."""
import time

import pytest

from axclient import expect
from test_imgui_adapter import SCRATCH
from tk_support import TkApp, needs_tk, wait_for_app, xvfb_display  # noqa: F401

pytest.importorskip("imgui_bundle", reason="Tools/requirements-test.txt installs imgui_bundle")
pytestmark = [needs_tk, pytest.mark.axserver(demo=False)]


def start_module(display, socket, module, name):
    return TkApp(["-m", "axclient.imgui", "--socket", socket, "--name", name, "-m", module], display, socket,
                 runner=False, cwd=SCRATCH)


def settle(ax, name, timeout=15.0):
    """Waits until the app's revision holds for 0.5 s: hello_imgui docks the demo's windows in its first frames,
    and an item moved into another window has another ImGui id (the window is on its id stack), so another view."""
    deadline = time.monotonic() + timeout
    last = None
    while time.monotonic() < deadline:
        now = next(entry["revision"] for entry in ax.apps() if entry["name"] == name)
        if now == last:
            return
        last = now
        time.sleep(0.5)
    raise AssertionError("the %s app never settled" % name)


@pytest.fixture
def docking(xvfb_display, axserver):
    app = start_module(xvfb_display, axserver.socket, "imgui_bundle.demos_python.demos_immapp.demo_docking",
                       "docking")
    ax = axserver.client(client_name="imgui-demo", timeout=10.0)
    try:
        try:
            wait_for_app(ax, "docking", timeout=30)
        except AssertionError:
            raise AssertionError(app.stderr_text()[-3000:])
        settle(ax, "docking")
        ax.close()
        ax = axserver.client(client_name="imgui-demo", app="docking", timeout=10.0)
        yield app, ax
    finally:
        ax.close()
        app.stop()


def test_the_docking_demo_runs_mirrored_through_hello_imgui_run(docking):
    """RunnerParams path: the adapter chains pre_new_frame/before_imgui_render of the demo's own params."""
    app, ax = docking
    expect(ax.get_by_role("window", name="Docking Demo")).to_be_attached()
    expect(ax.get_by_text("counter = 0")).to_be_attached()
    assert ax.get_by_role("adjustable", name="float").value() == "0"
    assert ax.get_by_role("switch", name="Checkbox").value() == "on"
    assert ax.get_by_role("textField", name="Input text").value() == "Hello, world!"
    ax.get_by_role("button", name="Button").first().tap()  # the demo's own counter increments
    expect(ax.get_by_text("counter = 1")).to_be_attached()
    ax.get_by_role("switch", name="Checkbox").tap()
    expect(ax.get_by_role("switch", name="Checkbox")).to_have_value("off")
    ax.get_by_role("adjustable", name="Value").set_value(20)
    expect(ax.get_by_role("adjustable", name="Value")).to_have_value("20")
