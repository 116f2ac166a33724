"""Tk apps nobody wrote for us (issue 32), unmodified under ``python3 -m axclient.tk`` with the real server:
Thonny 5 and ttkbootstrap's widget demo (PyPI; customtkinter is in test_tk_ctk.py and test_tk_secrets.py,
IDLE in test_tk_idle*.py). Each test is a fix found on that app; the same fix is tested on a second app of the project's own in
test_tk_roles.py, test_tk_secrets.py and test_tk_resilience.py. Thonny runs with its configuration in a temporary
directory (THONNY_USER_DIR; in a venv it would otherwise write into the venv) and fails with its stderr when it
does not start."""
import os
import signal
import tempfile
import time

import pytest

from axclient import AXError, expect
from tk_support import needs_tk, tk_app, tk_client, xvfb_display  # noqa: F401

pytestmark = [needs_tk, pytest.mark.axserver(demo=False)]


def thonny_env(first_run):
    home = tempfile.mkdtemp(prefix="axtk-thonny-")
    user_dir = os.path.join(home, "thonny")
    os.makedirs(user_dir)
    if not first_run:
        with open(os.path.join(user_dir, "configuration.ini"), "w") as config:
            config.write("[general]\nconfiguration_creation_timestamp = 2026-01-01T00:00:00\n")
    return {"HOME": home, "THONNY_USER_DIR": user_dir, "PYTHONFAULTHANDLER": "1"}


def children_of(pid):
    """The processes ``pid`` started (Thonny's backend), from /proc."""
    found = []
    try:
        for task in os.listdir("/proc/%d/task" % pid):
            with open("/proc/%d/task/%s/children" % (pid, task)) as handle:
                found += [int(child) for child in handle.read().split()]
    except OSError:
        pass
    return found


@pytest.fixture
def start_thonny(tk_app):
    """A factory: Thonny under the adapter; its backend process (which outlives a terminated front end) is ended
    with it."""
    backends = []

    def start(first_run=False):
        pytest.importorskip("thonny", reason="needs thonny (Tools/requirements-test.txt)")
        app = tk_app("thonny", module=True, env=thonny_env(first_run))
        backends.append(app)
        return app

    yield start
    for app in backends:
        for child in children_of(app.process.pid):
            try:
                os.kill(child, signal.SIGTERM)
            except OSError:
                pass


def test_thonny_first_run_lets_go_answers_and_the_new_root_takes_the_name(start_thonny, tk_client):
    app = start_thonny(first_run=True)
    ax = tk_client(app.app_id)
    go = ax.get_by_role("button", name="Let's go!").element(timeout=20)
    # The button destroys the first Tk() and Thonny creates its workbench in a second one: the action answers
    # what happened (was: -32020 "disconnected"), then the new root registers under the same name.
    answer = ax.call("action.activate", {"target": {"id": go.id}})
    assert answer["performed"] is True, answer
    deadline = time.monotonic() + 30
    shown = False
    while not shown and time.monotonic() < deadline and app.process.poll() is None:
        try:  # between the two roots the app is briefly not registered: poll, bounded (as tk_support does)
            shown = ax.query_count('window[label^="Thonny"]') == 1
        except AXError:
            time.sleep(0.1)
    assert shown, "no Thonny workbench; stderr: %s" % app.stderr_text()[-2000:]
    assert app.process.poll() is None
    assert "invalid command name" not in app.stderr_text(), app.stderr_text()


def test_thonny_options_cancel_through_the_adapter_does_not_crash(start_thonny, tk_client):
    app = start_thonny()
    ax = tk_client(app.app_id)
    ax.get_by_role("button", name="Tools", exact=True).click(timeout=30)
    ax.get_by_role("button", name="Options...").click()  # a modal dialog in wait_window
    cancel = ax.get_by_role("button", name="Cancel")
    cancel.click(timeout=20)  # was: SIGSEGV in TkSetFocusWin (Thonny's focus_force after the dialog), 3 of 3
    expect(cancel).to_be_hidden(timeout=10)
    # Its editor and shell (Texts on notebook pages) are named by their tabs (were unnamed).
    assert ax.get_by_role("textView", name="<untitled>", exact=True).count() == 1
    assert ax.get_by_role("textView", name="Shell", exact=True).count() == 1
    expect(ax.locator('window[label^="Thonny"]')).to_be_visible()
    assert app.process.poll() is None, "Thonny died (%s): %s" % (app.process.returncode, app.stderr_text()[-2000:])


@pytest.fixture
def ttkdemo(tk_app, tk_client):
    pytest.importorskip("ttkbootstrap", reason="needs ttkbootstrap (Tools/requirements-test.txt)")
    app = tk_app("ttkbootstrap", module=True, name="ttkdemo")
    return app, tk_client(app.app_id)


def test_ttkbootstrap_pager_entry_and_icon_buttons_are_named(ttkdemo):
    _, ax = ttkdemo
    # "Page" [entry] "of" N, packed from the right: the Label before it on screen is "Page" (was "of").
    page = ax.get_by_role("textField", name="Page")
    assert page.value(timeout=20) == "1"
    assert ax.query_count('textField[label="of"]') == 0
    # Icon-only buttons (icon="chevron-left", icon_only=True) are named by their icon (were unnamed).
    for name in ("chevron bar left", "chevron left", "chevron right", "chevron bar right"):
        assert ax.get_by_role("button", name=name, exact=True).count() == 1, name
    # Its masked Entry ("supertopsecret") is bullets.
    secret = ax.locator("secureTextField")
    assert secret.value() == "\u2022" * len("supertopsecret")
    assert ax.query_count(':text("supertopsecret")') == 0


def test_ttkbootstrap_radio_buttons_are_a_radio_group(ttkdemo):
    _, ax = ttkdemo
    ax.get_by_role("button", name="Unselected", exact=True).element(timeout=20)  # the demo maps in parts
    # "Selected" and "Disabled" share one variable (and value): one group; "Unselected" has a variable of its own.
    assert ax.query_count('segmentedControl > button') == 2, ax.tree_text()
    assert ax.locator('segmentedControl > button[label="Selected"]').is_selected()
    assert ax.query_count('segmentedControl > button[label="Unselected"]') == 0
