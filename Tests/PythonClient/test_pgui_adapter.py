"""axclient.pygame_gui on an unmodified pygame_gui app (pguiapps/settings_form.py, run by `python3 -m
axclient.pygame_gui` under Xvfb, mirrored into the real axserver): the mapping (Specs/pygame-gui-adapter.md
§Mapping), actions as a user's input so the app's own loop runs its handlers (§Actions), masked text, live
patches and no work while nothing changes (§Live)."""
import json
import re
import time

import pytest

from axclient import expect
from axclient.errors import RPCError
from pgui_support import ModuleApp, needs_pgui, pgui_display  # noqa: F401

pytestmark = [needs_pgui]


@pytest.fixture(scope="module")
def form(axserver_pool, pgui_display):
    module = ModuleApp(axserver_pool, pgui_display, "settings_form.py", env={"AXCLIENT_TK_DEBUG": "1"})
    try:
        yield module.app, module.client()
    finally:
        module.stop()


def test_app_named_after_the_script_and_its_window_after_the_caption(form):
    app, ax = form
    assert app.app_id == "settings_form"
    assert ax.query_one("window").label == "Settings"


def test_elements_map_to_roles_names_values_and_states(form):
    _, ax = form
    name = ax.get_by_id("name")
    assert name.role() == "textField" and name.label() == "Name"  # the UILabel "Name:" left of it
    password = ax.get_by_id("password")
    assert password.role() == "secureTextField" and password.label() == "Password"
    volume = ax.get_by_id("volume")
    assert volume.role() == "adjustable" and volume.label() == "Volume"
    theme = ax.get_by_id("theme")
    assert theme.role() == "button" and theme.label() == "Theme"
    assert re.search(r'button "Theme" value="Light" #theme \[collapsed\]', ax.tree_text())
    news = ax.get_by_role("switch", name="Newsletter")
    assert news.value() == "off"
    assert ax.get_by_role("button", name="Save").count() == 1
    assert ax.get_by_id("export").is_disabled()
    assert ax.get_by_id("status").label() == "Not saved"
    progress = ax.get_by_id("progress")
    assert progress.label() == "Upload" and progress.value() == "40%"


def test_masked_text_never_leaves(form):
    _, ax = form
    tree = json.dumps(ax.tree())
    assert "hunter2" not in tree
    assert ax.get_by_id("password").value() == "\u2022" * len("hunter2")


def test_actions_are_input_the_apps_loop_handles(form):
    app, ax = form
    ax.get_by_id("save").click()
    app.wait_line("saved Ada")  # the app's own UI_BUTTON_PRESSED handler ran
    expect(ax.get_by_id("status")).to_have_label("Saved Ada")
    ax.get_by_id("volume").increment()
    app.wait_line("volume 55")  # a click on the slider's arrow: pygame_gui's UI_HORIZONTAL_SLIDER_MOVED
    expect(ax.get_by_id("volume")).to_have_value("55%")
    ax.get_by_id("volume").set_value("20")
    app.wait_line("volume 20")
    ax.get_by_id("news").click()
    app.wait_line("news True")
    expect(ax.get_by_role("switch", name="Newsletter")).to_have_value("on")


def test_text_is_typed_and_set_as_the_app_sees_it(form):
    app, ax = form
    name = ax.get_by_id("name")
    name.fill("Grace")
    app.wait_line("text Grace")
    name.type_text(" H")  # TEXTINPUT at the caret, the end of the text
    app.wait_line("text Grace H")
    expect(name).to_have_value("Grace H")
    assert ax.wait_until(lambda: name.is_focused(), timeout=5)  # pygame_gui's focus is the mirror's


def test_drop_down_expands_into_a_popup_of_options(form):
    app, ax = form
    ax.get_by_id("theme").click()
    dark = ax.locator('window[label="Theme"] >> button[label="Dark"]')
    expect(dark).to_be_visible()
    assert ax.locator('window[label="Theme"] >> button[label="Light"]').is_selected()
    dark.click()
    app.wait_line("theme Dark")
    expect(ax.get_by_id("theme")).to_have_value("Dark")
    expect(ax.locator('window[label="Theme"]')).to_be_hidden()


def test_a_confirmation_dialog_is_a_modal_window_and_escape_cancels_it(form):
    app, ax = form
    ax.get_by_id("reset").click()
    app.wait_line("dialog open")
    dialog = ax.locator('window[label="Reset settings"]')
    expect(dialog).to_be_visible()
    assert re.search(r'window "Reset settings" #confirm \[modal', ax.tree_text())  # a blocking UIWindow
    assert ax.locator('window[label="Reset settings"] >> button[label="OK"]').count() == 1  # translated key
    message = ax.locator('window[label="Reset settings"] >> staticText').first()  # its UITextBox
    assert message.value() == "Reset every setting?"
    ax.locator('window[label="Reset settings"] >> staticText').first().escape()
    app.wait_line("dialog closed")
    expect(dialog).to_be_hidden()
    assert "reset" not in app.lines  # cancelled, not confirmed


def test_a_change_is_one_small_patch_and_nothing_is_sent_while_idle(form):
    app, ax = form
    status = ax.get_by_id("status")
    before = ax.revision()
    ax.get_by_id("save").click()
    expect(status).to_have_label(re.compile(r"^Saved "))
    changes = ax.diff(before)
    changed_ids = {change.get("id") for change in changes.get("changes", [])}
    assert "screen/Label0" not in changed_ids  # the labels that did not change are not re-sent
    count = lambda: len(re.findall(r"flush \d+:", app.stderr_text()))  # noqa: E731
    flushes, quiet_since, deadline = count(), time.monotonic(), time.monotonic() + 10
    while time.monotonic() - quiet_since < 0.5 and time.monotonic() < deadline:  # the button's press fades out
        time.sleep(0.05)
        if count() != flushes:
            flushes, quiet_since = count(), time.monotonic()
    time.sleep(1.0)  # the app draws 60 frames a second meanwhile: none is walked
    assert len(re.findall(r"flush \d+:", app.stderr_text())) == flushes, app.stderr_text()[-3000:]


def test_an_action_on_an_unknown_element_is_a_typed_error(form):
    _, ax = form
    with pytest.raises(RPCError):
        ax.call("action.activate", {"target": {"id": "screen/nothing"}})


def test_the_command_line_runs_a_module_and_says_what_is_wrong(pgui_display, tmp_path):
    """``python3 -m axclient.pygame_gui -m MODULE`` runs the module as ``__main__`` with the adapter installed
    (here without a server: it says so and the app runs); a missing script and no target are usage errors."""
    import os
    import subprocess
    import sys
    from pgui_support import APPS, SDL_ENV
    from tk_support import PACKAGE_DIR
    env = dict(os.environ, DISPLAY=pgui_display, PYTHONPATH=PACKAGE_DIR + os.pathsep + APPS, **SDL_ENV)
    socket = str(tmp_path / "none.sock")
    run = subprocess.run([sys.executable, "-m", "axclient.pygame_gui", "--socket", socket, "-m", "many_app", "20",
                          "--quit-after-ready"], env=env, capture_output=True, text=True, timeout=60)
    assert run.returncode == 0 and "ready" in run.stdout, run.stderr[-2000:]
    assert "axclient.pygame_gui: " in run.stderr and "cannot connect" in run.stderr
    missing = subprocess.run([sys.executable, "-m", "axclient.pygame_gui", "nothing_here.py"], env=env,
                             capture_output=True, text=True, timeout=60)
    assert missing.returncode == 2 and "no such script: nothing_here.py" in missing.stderr
    bare = subprocess.run([sys.executable, "-m", "axclient.pygame_gui"], env=env, capture_output=True, text=True,
                          timeout=60)
    assert bare.returncode == 2 and "usage: python3 -m axclient.pygame_gui" in bare.stderr
