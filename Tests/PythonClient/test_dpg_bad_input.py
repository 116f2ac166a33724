"""axclient.dearpygui under issue 34's "Bad input": items that exist for one frame, ImGui id collisions (three
"OK" buttons without tags), 100,000 table rows, a window that moves every frame, an animated progress bar, a frame
loop stalled for seconds, a callback that raises, a deleted target, no window at all, a context replaced by a new
one. Each has a defined behaviour (Specs/dearpygui-adapter.md §Bad input) that these tests check on real apps."""
import time

import pytest

from axclient import expect
from axclient.errors import AXError
from dpgapps.dpg_support import module_server, needs_dpg, start_app
from tk_support import xvfb_display  # noqa: F401

pytestmark = [needs_dpg]


@pytest.fixture(scope="module")
def server(axserver_pool):
    srv = module_server(axserver_pool)
    yield srv
    axserver_pool.release(srv)


@pytest.fixture
def run(server, xvfb_display):
    """``run(script, *args)``: an app under the adapter, its client; stopped after the test."""
    started = []

    def start(script, *args, wait="ready", name=None):
        app = start_app(server, xvfb_display, script, args=args, wait=wait, name=name)
        started.append(app)
        client = server.client(client_name="dpg-bad-input", app=app.app_id or app.name, timeout=8)
        started.append(client)
        return app, client

    yield start
    for thing in reversed(started):
        (thing.close if hasattr(thing, "close") else thing.stop)()


def revisions_during(ax, seconds):
    start = ax.revision()
    time.sleep(seconds)  # the measurement window itself
    return ax.revision() - start


def test_one_frame_items_and_a_moving_window_are_coalesced_and_ids_do_not_churn(run):
    app, ax = run("hostile_app.py", "--flicker", "--churn")
    ids = [element["id"] for element in ax.query_all("button")]
    assert len(ids) == 4 and len(set(ids)) == 4  # three "OK" (an ImGui id collision) told apart by order
    patches = revisions_during(ax, 2.0)
    assert 2 <= patches <= 42, patches  # ≤ 20 patches a second, each with the latest state
    assert [element["id"] for element in ax.query_all("button")] == ids
    assert app.process.poll() is None
    assert "failed" not in app.stderr_text()  # a deleted item in the value poll: a walk, not a failing frame hook


def test_a_value_changed_past_every_hook_is_found_by_the_value_poll(run):
    """Field 17 of 25 changes through Dear PyGui's C module (no wrapper sees it, no input event): the value poll,
    which reads one tenth of the value items each frame (D-DPG-FRAME-1), finds it within a few frames."""
    app, ax = run("hostile_app.py", "--shared")
    app.wait_line("bumped")
    expect(ax.get_by_role("textField", name="Field 17")).to_have_value("changed past the hooks", timeout=5)
    assert ax.get_by_role("textField", name="Field 16").element().value == "value 16"


def test_duplicate_labels_each_drive_their_own_item(run):
    app, ax = run("hostile_app.py")
    ax.get_by_role("button", name="OK").nth(1).click()
    app.wait_line("ok 1")
    ax.get_by_role("button", name="OK").nth(2).click()
    app.wait_line("ok 2")


def test_a_deleted_target_is_gone_and_the_app_runs_on(run):
    app, ax = run("hostile_app.py")
    remove = ax.get_by_id("remove")
    element = remove.element()
    remove.click()
    app.wait_line("removed")
    expect(ax.get_by_id("remove")).to_be_detached()
    with pytest.raises(AXError):
        ax.call("action.activate", {"app": app.app_id, "target": "#" + element["id"]})
    ax.get_by_role("button", name="OK").first().click()
    app.wait_line("ok 0")


def test_a_table_of_100000_rows_is_bounded(run):
    app, ax = run("hostile_app.py", "--rows", "100000")
    assert ax.query_count("cell") < 5000  # one walk publishes at most 5,000 items…
    assert "more than 5000 items" in app.stderr_text()  # …and says so once
    ax.get_by_role("button", name="OK").first().click()  # the app still answers
    app.wait_line("ok 0")


def test_an_animated_progress_bar_sends_at_most_20_patches_a_second(run):
    app, ax = run("settings_app.py", "--animate")
    progress = ax.get_by_id("progress")
    first = progress.element().get("value")
    patches = revisions_during(ax, 2.0)
    assert 10 <= patches <= 42, patches
    expect(progress).not_.to_have_value(first)


def test_a_stalled_frame_loop_fails_actions_clearly_then_recovers(run):
    app, ax = run("settings_app.py", "--stall", "6")
    ax.get_by_role("button", name="Stall").click()
    app.wait_line("stalling")
    started = time.monotonic()
    with pytest.raises(AXError) as failure:
        ax.get_by_id("apply").click()
    assert "busy" in str(failure.value) and time.monotonic() - started < 6.5
    app.wait_line("resumed", timeout=10)
    assert "rendered no frame" in app.stderr_text()
    ax.get_by_id("apply").click()
    app.wait_line("apply apply form")


def test_a_callback_that_raises_is_reported_and_the_app_runs_on(run):
    app, ax = run("settings_app.py", "--raise", wait=True)
    ax.get_by_id("apply").click()
    expect(ax.get_by_id("status")).to_have_label("Not saved")
    deadline = time.monotonic() + 5
    while "Apply failed on purpose" not in app.stderr_text() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert "Apply failed on purpose" in app.stderr_text()
    ax.get_by_id("name").fill("still alive")
    app.wait_line("changed name 'still alive'")


def test_no_window_is_an_app_with_no_windows(run, server):
    app, _ = run("hostile_app.py", "--no-window", wait="ready", name="empty_app")
    client = server.client(client_name="dpg-empty")
    try:
        def listed():
            return [entry for entry in client.apps() if entry.get("name") == "empty_app"]
        deadline = time.monotonic() + 10
        while not listed() and time.monotonic() < deadline:
            client.wait_for_change(client.change_count(), 0.2)
        assert listed() and listed()[0].get("windows") == []
    finally:
        client.close()
    assert app.process.poll() is None


def test_a_replaced_context_is_mirrored_under_the_same_name(run, server):
    app, ax = run("hostile_app.py", "--replace", wait="ready")
    first = [entry["registration"] for entry in ax.apps() if entry["name"] == "hostile_app"]
    app.wait_line("replaced")
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:  # the old context left; the new one registers under the same name
        now = [entry["registration"] for entry in ax.apps() if entry["name"] == "hostile_app"]
        if now and now != first:
            break
        ax.wait_for_change(ax.change_count(), 0.2)
    window = ax.get_by_id("host")
    expect(window).to_have_label("Replaced", timeout=10)  # the new context's window, under the same app name
    ax.get_by_role("button", name="OK").first().click()
    app.wait_line("ok 0")
