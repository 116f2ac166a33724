"""pytest's ``--ax-trace`` (one trace per test, its path in the failure report) and the ``screen_reader``
fixture's real Orca speech on the trace step beside the preview (Specs/trace.md)."""
import json
import os
import textwrap

import pytest

from axclient import expect
from axclient.screen_reader import missing_prerequisite
from axclient.trace import new_recorder, read_trace
from orca_stacks import on_both_orcas

PACKAGE_DIR = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", "Sources", "PythonClient"))

USER_TESTS = '''
    from axclient import expect

    def test_passes(ax):
        ax.get_by_id("cell.wifi").click()

    def test_fails(ax):
        ax.get_by_id("cell.bluetooth").click()
        assert ax.get_by_id("cell.bluetooth").value() == "purple", "Bluetooth is not purple"
'''


def run(pytester, *options):
    pytester.makepyfile(test_user=textwrap.dedent(USER_TESTS))
    env_path = os.pathsep.join([PACKAGE_DIR] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p])
    pytester._monkeypatch.setenv("PYTHONPATH", env_path)
    return pytester.runpytest_subprocess("-p", "axclient.pytest_plugin", "-p", "no:cacheprovider",
                                         "--ax-trace-dir", "traces", *options, timeout=120)


def test_retain_on_failure_keeps_the_failing_tests_trace_and_names_it_in_the_report(pytester):
    result = run(pytester, "--ax-trace", "retain-on-failure")
    result.assert_outcomes(passed=1, failed=1)
    traces = pytester.path / "traces"
    assert sorted(os.listdir(traces)) == ["test_user.py-test_fails.axtrace", "test_user.py-test_fails.html"]
    result.stdout.fnmatch_lines(["*axserver trace*", "trace: traces/test_user.py-test_fails.axtrace",
                                 "viewer: traces/test_user.py-test_fails.html"])
    trace = read_trace(str(traces / "test_user.py-test_fails.axtrace"))
    assert trace.complete and trace.header["source"] == "pytest"
    assert trace.header["title"] == "test_user.py::test_fails"
    click = next(step for step in trace.steps if step["method"] == "action.activate")
    assert click["target"]["label"] == "Bluetooth" and click["diff"]["nodes"]
    last = trace.steps[-1]
    assert last["kind"] == "note" and last["method"] == "test.failed" and "Bluetooth is not purple" in last["message"]
    page = (traces / "test_user.py-test_fails.html").read_text(encoding="utf-8")
    assert "Bluetooth is not purple" in page


def test_on_records_every_test_and_off_records_none(pytester):
    run(pytester, "--ax-trace", "on").assert_outcomes(passed=1, failed=1)
    names = sorted(os.listdir(pytester.path / "traces"))
    assert names == ["test_user.py-test_fails.axtrace", "test_user.py-test_fails.html",
                     "test_user.py-test_passes.axtrace", "test_user.py-test_passes.html"]
    passed = read_trace(str(pytester.path / "traces" / "test_user.py-test_passes.axtrace"))
    assert passed.complete and not any(step["kind"] == "note" for step in passed.steps)
    (pytester.path / "traces").rename(pytester.path / "earlier")
    run(pytester, "-k", "test_fails").assert_outcomes(failed=1, deselected=1)     # the default: off
    assert not (pytester.path / "traces").exists()


@pytest.mark.skipif(missing_prerequisite() is not None, reason=str(missing_prerequisite()))
@on_both_orcas()
def test_what_orca_said_is_attached_to_its_step_beside_the_preview(stack, screen_reader, ax, tmp_path):
    from axclient.pytest_plugin import _speech_source
    path = str(tmp_path / "speech.axtrace")
    recorder = new_recorder(path, title="speech", source="pytest", speech=_speech_source(screen_reader),
                            screen_reader=screen_reader.version)
    screen_reader.client.start_trace(recorder=recorder)
    ax.start_trace(recorder=recorder)       # two recorded clients, each with its event subscription
    screen_reader.press("Tab")
    expect(screen_reader).to_say("Edit")
    screen_reader.press("Tab")
    expect(screen_reader).to_say("Wi-Fi")
    recorder.finish()
    trace = read_trace(path)
    assert trace.complete and trace.header["screenReader"] == screen_reader.version
    first, second = [step for step in trace.steps if step["method"] == "input.key"]
    assert any("Edit" in line for line in first["speech"]["orca"])
    assert not any("Wi-Fi" in line for line in first["speech"]["orca"])     # each step has its own speech
    assert any("Wi-Fi" in line for line in second["speech"]["orca"])
    assert second["speech"]["preview"] and "Wi-Fi" in second["speech"]["preview"][0]
    seen = [json.dumps({key: value for key, value in event.items() if key != "t"}, sort_keys=True)
            for event in first["events"] + second["events"]]
    assert seen and len(seen) == len(set(seen)), "an event recorded twice: %s" % seen
