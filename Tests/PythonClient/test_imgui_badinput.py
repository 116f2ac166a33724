"""axclient.imgui under the issue's "Bad input" (Tests/PythonClient/imguiapps/chaos.py): ImGui id collisions,
items that appear on every other frame, a window moving every frame, a 100,000-row table, a frame flooding 21,000
items, a frame loop stalled until the test releases it, a target that is gone, a value that is no number, a second run of the app
(Specs/imgui-adapter.md §Bad input). The app must never crash because of the adapter; ids must not churn; the
patch rate stays bounded; each case has its stderr line or typed error."""
import os
import time

import pytest

from axclient.errors import AXError
from test_imgui_adapter import SCRATCH, start_app
from tk_support import needs_tk, wait_for_app, xvfb_display  # noqa: F401

pytest.importorskip("imgui_bundle", reason="Tools/requirements-test.txt installs imgui_bundle")
pytestmark = [needs_tk, pytest.mark.axserver(demo=False)]


def revision(ax):
    return next(entry["revision"] for entry in ax.apps() if entry["id"] == "chaos")


@pytest.fixture(scope="module")
def chaos_app(xvfb_display, axserver_pool):
    """One server and one chaos app for the module, in file order (the last test restarts the app's run)."""
    server = axserver_pool.start(axserver_pool.options(pytest.mark.axserver(demo=False, atspi=False).mark))
    release = os.path.join(SCRATCH, "chaos-release-%d" % os.getpid())
    app = start_app(xvfb_display, server.socket, "chaos.py", release)
    app.release_file = release
    try:
        client = server.client(client_name="imgui-chaos", timeout=8.0)
        try:
            wait_for_app(client, "chaos")
        finally:
            client.close()
        yield server, app
    finally:
        app.stop()
        server.stop()


@pytest.fixture
def chaos(chaos_app):
    server, app = chaos_app
    client = server.client(client_name="imgui-chaos", app="chaos", timeout=8.0)
    try:
        yield app, client
    finally:
        client.close()


def test_churning_frames_keep_ids_and_a_bounded_patch_rate(chaos):
    app, ax = chaos
    oks = ax.query_all('button[label="OK"]')
    assert len(oks) == 2 and oks[0].id != oks[1].id  # one ImGui id, two views: (id) and (id, 2)
    ids = sorted(e.id for e in ax.query_all("*"))
    start, began = revision(ax), time.monotonic()
    time.sleep(2.0)  # the window moves and "Blink" comes and goes every frame
    rate = (revision(ax) - start) / (time.monotonic() - began)
    assert rate <= 21, rate
    again = sorted(e.id for e in ax.query_all("*"))
    blink = [i for i in set(ids) ^ set(again)]
    assert all(i.endswith("/button2") or "Blink" in i for i in blink), blink  # only Blink may come and go
    assert ax.get_by_text("row 0").count() == 1 and ax.get_by_text("row 99999").count() == 0  # clipped rows only
    ax.get_by_id(oks[1].id).tap()
    app.wait_line("ok 2")  # the second "OK" (same ImGui id) is the one that ran
    assert "ok 1" not in app.lines


def test_gone_targets_bad_values_and_floods_are_defined(chaos):
    app, ax = chaos
    close_me = ax.get_by_id(ax.query_one('button[label="Close me"]').id)
    close_me.tap()
    app.wait_line("closed")
    with pytest.raises(AXError):  # the app no longer submits it: a typed error, never a click on something else
        close_me.tap()
    with pytest.raises(AXError) as refused:
        ax.get_by_role("adjustable", name="Level").set_value("loud")
    assert "number" in str(refused.value) and "gone" not in str(refused.value).lower(), refused.value
    ax.get_by_role("switch", name="Flood").tap()
    deadline = time.monotonic() + 10
    while "more than 20000 items" not in app.stderr_text() and time.monotonic() < deadline:
        time.sleep(0.1)
    assert "more than 20000 items" in app.stderr_text()
    try:
        ax.get_by_role("switch", name="Flood").tap()  # still mirrored and drivable while flooding
    except AXError as error:
        raise AssertionError("the Flood switch did not answer while flooding: %s; the app's stderr: %s"
                             % (error, app.stderr_text()[-3000:])) from None


def test_a_stalled_loop_refuses_actions_busy_and_the_app_lives_on(chaos):
    app, ax = chaos
    deadline = time.monotonic() + 60
    while ax.query_count("staticText") > 1000 and time.monotonic() < deadline:
        time.sleep(0.2)  # the flood switched off: its 20,000 texts leave in two patches first
    ax.get_by_role("button", name="Stall").tap()
    app.wait_line("stalling")  # the app's frame loop now waits for the release file (at most 30 s)
    began = time.monotonic()
    try:
        with pytest.raises(AXError) as busy:
            ax.get_by_role("button", name="Restart").tap()
        waited = time.monotonic() - began
    finally:
        open(app.release_file, "w").close()
    assert "busy" in str(busy.value).lower() and waited < 7.5, (waited, busy.value)
    app.wait_line("stalled")
    deadline = time.monotonic() + 5
    while "stalled for" not in app.stderr_text() and time.monotonic() < deadline:
        time.sleep(0.1)
    assert "was stalled for" in app.stderr_text()
    assert app.process.poll() is None  # the app lives on
    fresh = ax.get_by_role("button", name="Restart")
    assert fresh.count() == 1  # the server answers again, the mirror is current
    assert "Restart" not in app.lines and "second run" not in app.lines  # the busy action never ran later


def test_a_second_run_replaces_the_root_under_the_same_name(chaos):
    app, ax = chaos
    ax.get_by_role("button", name="Restart").tap()  # answered before the first run's mirror leaves
    app.wait_line("second run")
    deadline, found = time.monotonic() + 15, 0
    while time.monotonic() < deadline and not found:
        try:
            found = ax.get_by_role("window", name="Chaos again").count()
        except AXError:  # between the runs the app is gone for a moment
            time.sleep(0.1)
    assert found == 1, app.stderr_text()
    assert ax.get_by_role("window", name="Chaos 2").count() == 1
    assert [entry["id"] for entry in ax.apps() if entry["name"] == "chaos"] == ["chaos"]  # the name reclaimed
