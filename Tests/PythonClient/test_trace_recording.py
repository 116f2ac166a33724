"""Accessibility traces recorded by the Python client (Specs/trace.md): what a step holds, secrets, a flooding app,
a server restart and a process that dies mid-step — against the real server and demo."""
import json
import os
import signal
import subprocess
import sys
import textwrap

import pytest

import axclient
from axclient import view
from axclient.server import ServerProcess
from axclient.trace import read_trace

PACKAGE_DIR = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", "Sources", "PythonClient"))


def steps_of(path):
    trace = read_trace(path)
    assert trace.problem is None, trace.problem
    return trace


def test_a_step_holds_call_target_revisions_diff_focus_events_and_preview(ax, tmp_path):
    path = str(tmp_path / "demo.axtrace")
    wifi_before = ax.get_by_id("cell.wifi").value()
    revision_before = ax.revision()
    ax.start_trace(path, title="demo")
    ax.get_by_id("cell.wifi").click()
    ax.set_focus("#textSize")
    ax.keyboard.press("Tab")
    with pytest.raises(axclient.NoSuchElement):
        ax.call("action.activate", {"target": {"selector": "#nope"}})
    assert ax.stop_trace() == path
    wifi_after = ax.get_by_id("cell.wifi").value()
    focused_after_tab = ax.focused().id
    trace = steps_of(path)
    assert trace.header["axtrace"] == 1 and trace.header["source"] == "python" and trace.header["title"] == "demo"
    assert [step["step"] for step in trace.steps] == list(range(1, len(trace.steps) + 1))
    full = [step for step in trace.steps if step["revision"] is not None]
    assert [step["method"] for step in full] == ["action.activate", "focus.set", "input.key", "action.activate"]
    click, focus_set, tab, missing = full
    # the first full step carries the snapshot (the tree before it), later ones diffs
    assert click["snapshot"]["revision"] == revision_before
    assert sum(1 for step in trace.steps if "snapshot" in step) == 1
    assert click["target"]["selector"] == '#"cell.wifi"' and click["target"]["label"] == "Wi-Fi"
    assert click["revision"][0] == revision_before and click["revision"][1] > revision_before
    changed = click["diff"]["nodes"]
    values = [node.get("value") for node in changed.values() if node.get("label") == "Wi-Fi"]
    assert wifi_before in ("on", "off") and values == [wifi_after] and wifi_after != wifi_before
    assert focus_set["focus"]["after"]["accessibility"] == "textSize"
    assert focus_set["speech"]["preview"] and "Text Size" in focus_set["speech"]["preview"][0]
    assert focus_set["diff"] is None    # focus moved, the tree did not change
    assert tab["kind"] == "key" and tab["focus"]["before"]["accessibility"] == "textSize"
    assert tab["focus"]["after"]["accessibility"] == focused_after_tab
    assert tab["focus"]["after"]["engine"] == focused_after_tab    # Tab moves engine focus, accessibility follows
    assert any(event["type"] == "focus.changed" and event.get("focus") == "engine" for event in tab["events"])
    assert missing["error"]["code"] == -32010 and "#nope" in missing["error"]["message"]
    assert trace.end["steps"] == len(trace.steps)


def secure_windows():
    return [view("win", "UIWindow", [0, 0, 390, 844], isKeyWindow=True, windowTitle="Login", children=[
        view("user", "UITextField", [16, 100, 300, 40], text="", accessibilityLabel="User name"),
        view("pw", "UITextField", [16, 160, 300, 40], text="", isSecureTextEntry=True, accessibilityLabel="Password"),
    ])]


@pytest.mark.axserver(demo=False)
def test_masked_text_never_enters_a_trace(ax, ax_provider, tmp_path):
    fields = {"user": "", "pw": ""}

    def typed(request):
        if request.action in ("typeText", "setValue") and request.target in fields:
            fields[request.target] += str(request.value)
            provider.set_properties(request.target, text=fields[request.target])
            return True
        return False

    provider = ax_provider("login", secure_windows(), on_action=typed)
    path = str(tmp_path / "login.axtrace")
    ax.start_trace(path)
    ax.call("action.typeText", {"target": {"selector": 'textField[label="User name"]'}, "text": "alice-visible"})
    ax.call("action.typeText", {"target": {"selector": '[label="Password"]'}, "text": "hunter2-secret"})
    ax.set_focus('[label="Password"]')
    ax.call("input.type", {"text": "more-secret-9"})
    ax.stop_trace()
    assert fields["pw"] == "hunter2-secretmore-secret-9"    # the app really got the text
    data = open(path, encoding="utf-8").read()
    assert "hunter2" not in data and "more-secret-9" not in data
    assert "alice-visible" in data     # a plain field's text is recorded: masking is for secure fields only
    steps = steps_of(path).steps
    secure = [step for step in steps if step["params"].get("masked")]
    assert [step["method"] for step in secure] == ["action.typeText", "input.type"]
    assert all(step["params"].get("text") == "•••" for step in secure)


@pytest.mark.axserver(demo=False)
def test_an_app_flooding_changes_gets_bounded_diffs_that_say_what_they_dropped(ax, ax_provider, tmp_path):
    count = 2600

    def flood(request):
        if request.action == "activate" and request.target == "go":
            labels = [view("l%d" % index, "UILabel", [0, 100 + index % 700, 100, 1], text="row %d" % index)
                      for index in range(count)]
            provider.set_hierarchy([view("win", "UIWindow", [0, 0, 390, 844], isKeyWindow=True, children=[
                view("go", "UIButton", [16, 40, 100, 44], title="Go"), *labels])])
            return True
        return False

    provider = ax_provider("flood", [view("win", "UIWindow", [0, 0, 390, 844], isKeyWindow=True, children=[
        view("go", "UIButton", [16, 40, 100, 44], title="Go")])], on_action=flood)
    path = str(tmp_path / "flood.axtrace")
    revision = ax.revision()
    ax.start_trace(path)
    ax.get_by_role("button", name="Go").click()
    ax.stop_trace()
    whole = ax.diff(revision)
    total = sum(len(whole.get(key) or []) for key in ("added", "removed", "moved")) + len(whole.get("updated") or {})
    assert total > 2000
    trace = steps_of(path)
    step = next(step for step in trace.steps if step["method"] == "action.activate")
    kept = sum(len(step["diff"].get(key) or []) for key in ("added", "removed", "moved")) + len(step["diff"]["updated"])
    assert kept == 2000 and step["diffDropped"] == total - 2000
    assert trace.end["dropped"]["diffOps"] == total - 2000
    assert os.path.getsize(path) < 2 * 1024 * 1024


def test_a_server_restart_during_recording_is_a_note_and_the_trace_goes_on(axserver_pool, tmp_path):
    path = str(tmp_path / "restart.axtrace")
    first = ServerProcess(axserver_pool.binary, demo=True)
    try:
        client = axclient.Client(first.socket)
        recorder = client.start_trace(path, title="restart")
        client.get_by_id("cell.wifi").click()
        first.stop()
        with pytest.raises(axclient.AXConnectionError):
            client.call("action.activate", {"target": {"selector": '#"cell.wifi"'}})
    finally:
        first.stop()
    second = ServerProcess(axserver_pool.binary, demo=True)
    try:
        other = axclient.Client(second.socket)
        other.start_trace(recorder=recorder)
        other.get_by_id("cell.bluetooth").click()
        other.stop_trace()
        assert client.stop_trace() == path
        other.close()
        client.close()
    finally:
        second.stop()
    steps = steps_of(path).steps
    methods = [step["method"] for step in steps if step["kind"] != "call" or step["revision"] is not None
               or step["error"]]
    lost = next(index for index, step in enumerate(steps) if step["method"] == "server.connectionLost")
    assert steps[lost]["kind"] == "note" and "server.connectionLost" in methods
    assert steps[lost - 1]["error"] is not None      # the step that met the stopped server
    after = [step for step in steps[lost + 1:] if step["revision"] is not None]
    assert after and "snapshot" in after[0]          # a fresh snapshot of the new server's tree
    assert after[0]["target"]["label"] == "Bluetooth"


def test_a_process_that_dies_mid_step_leaves_every_finished_step_readable(axserver, tmp_path):
    path = str(tmp_path / "killed.axtrace")
    script = textwrap.dedent('''
        import os, signal, sys, threading
        import axclient
        client = axclient.Client(sys.argv[1])
        client.start_trace(sys.argv[2])
        client.get_by_id("cell.wifi").click()
        client.get_by_id("cell.bluetooth").click()
        threading.Timer(0.3, lambda: os.kill(os.getpid(), signal.SIGKILL)).start()
        client.wait_for("#neverThere", state="visible", timeout=20)   # the process dies inside this step
    ''')
    env = dict(os.environ, PYTHONPATH=PACKAGE_DIR)
    done = subprocess.run([sys.executable, "-c", script, axserver.socket, path], env=env, timeout=60,
                          capture_output=True)
    assert done.returncode == -signal.SIGKILL
    trace = read_trace(path)
    assert trace.end is None
    clicks = [step for step in trace.steps if step["method"] == "action.activate"]
    assert [step["target"]["label"] for step in clicks] == ["Wi-Fi", "Bluetooth"]
    assert trace.problem == ("the trace ends after step %d without its end line (the recorder stopped mid-run)"
                             % len(trace.steps))
    shown = subprocess.run([sys.executable, "-m", "axclient.trace", "show", path], env=env, capture_output=True,
                           text=True, timeout=30)
    assert shown.returncode == 1 and "Bluetooth" in shown.stdout and "without its end line" in shown.stderr


def test_pictures_are_recorded_only_when_asked(ax, tmp_path):
    plain, pictured = str(tmp_path / "plain.axtrace"), str(tmp_path / "pictured.axtrace")
    ax.start_trace(plain)
    ax.get_by_id("cell.wifi").click()
    ax.stop_trace()
    ax.start_trace(pictured, pictures=True)
    ax.get_by_id("cell.wifi").click()
    ax.stop_trace()
    assert not any("picture" in step for step in steps_of(plain).steps)
    step = next(step for step in steps_of(pictured).steps if step["method"] == "action.activate")
    import base64
    assert base64.b64decode(step["picture"]["base64"])[:8] == b"\x89PNG\r\n\x1a\n"
    outline = {item["why"]: item for item in step["picture"]["outline"]}
    frame = ax.get_by_id("cell.wifi").element().frame
    assert outline["target"]["frame"] == [frame["x"], frame["y"], frame["width"], frame["height"]]
    assert json.loads(open(pictured, encoding="utf-8").readline())["pictures"] is True


def test_keys_with_nothing_focused_are_recorded_as_pressed_and_the_tree_untouched(ax, tmp_path):
    path = str(tmp_path / "keys.axtrace")
    assert ax.focused() is None
    ax.start_trace(path)
    ax.keyboard.press("Tab")
    ax.stop_trace()
    step = next(step for step in steps_of(path).steps if step["method"] == "input.key")
    assert step["params"].get("key") == "Tab" and "masked" not in step["params"]
    assert '"settingsTable"' in json.dumps(step["snapshot"])     # a key name is no secret to scrub from the tree


def test_a_guided_access_denial_is_a_policy_decision_of_its_step(axserver_pool, tmp_path):
    policy, token = tmp_path / "policy.json", tmp_path / "operator.token"
    policy.write_text(json.dumps({"version": 1, "unknownApps": "allow",
                                  "apps": {"axserver-demo": {"deny": ["org.axserver.demo.wifi"]}}}))
    token.write_text("operator-secret-token-1234567890\n")
    os.chmod(str(token), 0o600)
    server = ServerProcess(axserver_pool.binary, demo=True,
                           args=["--policy", str(policy), "--operator-token-file", str(token)])
    path = str(tmp_path / "kiosk.axtrace")
    try:
        with axclient.Client(server.socket) as client:
            client.start_trace(path)
            with pytest.raises(axclient.PolicyDenied):
                client.call("action.activate", {"target": {"selector": '#"cell.wifi"'}})
            client.get_by_id("cell.bluetooth").click()
            client.stop_trace()
    finally:
        server.stop()
    denied, allowed = [step for step in steps_of(path).steps if step["method"] == "action.activate"]
    assert denied["policy"] == [{"restriction": "org.axserver.demo.wifi", "decision": "denied"}]
    assert denied["error"]["code"] == -32017 and "policy" not in allowed
    assert "operator-secret-token" not in open(path, encoding="utf-8").read()


def test_a_trace_started_without_a_path_is_moved_where_stop_trace_says(ax, tmp_path):
    recorder = ax.start_trace()
    temporary = recorder.writer.path
    with pytest.raises(axclient.InvalidArgument):
        ax.start_trace()                       # one trace at a time per client
    ax.get_by_id("cell.wifi").click()
    destination = str(tmp_path / "sub" / "moved.axtrace")
    assert ax.stop_trace(destination) == destination
    assert not os.path.exists(temporary) and steps_of(destination).end["steps"] >= 1
    assert ax.stop_trace() is None             # nothing runs any more
    ax.get_by_id("cell.wifi").click()          # and nothing is recorded
    assert steps_of(destination).end["steps"] == len(steps_of(destination).steps)
