"""Reading traces (Specs/trace.md §Readers): a corrupt, truncated, headerless or newer trace says where it breaks and
shows every step before it — in ``show`` and in the viewer's data. These tests need no server: the trace files are
written by the real writer, then damaged the way a disk, a crash or a newer producer would."""
import json
import os
import subprocess
import sys

import pytest

from axclient.trace import TraceWriter, make_header, read_trace, render_viewer, show_text

PACKAGE_DIR = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", "Sources", "PythonClient"))


def write_trace(path, steps=3, end=True):
    writer = TraceWriter(str(path), make_header("python", "reader test", "test", False, None))
    for number in range(1, steps + 1):
        writer.step({"step": number, "kind": "call", "method": "action.activate", "params": {},
                     "target": {"id": "b%d" % number, "selector": "#b%d" % number, "label": "Button %d" % number,
                                "class": "UIButton"}, "t": number * 10.0, "ms": 1.0, "revision": [number, number + 1],
                     "diff": None, "focus": None, "events": [], "speech": {"orca": None, "preview": None},
                     "error": None})
    if end:
        writer.end(steps, {"steps": 0, "diffOps": 0, "events": 0})
    else:
        writer.abandon()
    return str(path)


def show(path):
    env = dict(os.environ, PYTHONPATH=PACKAGE_DIR)
    return subprocess.run([sys.executable, "-m", "axclient.trace", "show", path], env=env, capture_output=True,
                          text=True, timeout=30)


def embedded(trace):
    page = render_viewer(trace)
    start = page.index('<script type="application/json" id="trace-data">') + len(
        '<script type="application/json" id="trace-data">')
    return json.loads(page[start:page.index("</script>", start)])


def test_a_complete_trace_reads_whole(tmp_path):
    path = write_trace(tmp_path / "ok.axtrace")
    trace = read_trace(path)
    assert trace.complete and [step["step"] for step in trace.steps] == [1, 2, 3]
    done = show(path)
    assert done.returncode == 0 and "#3 call action.activate → #b3 b3 \"Button 3\"" in done.stdout


def test_a_corrupt_line_is_where_the_trace_breaks(tmp_path):
    path = write_trace(tmp_path / "corrupt.axtrace", steps=4)
    lines = open(path, encoding="utf-8").read().split("\n")
    lines[3] = lines[3][:20] + "\x00garbage"     # line 4 (step 3) damaged
    open(path, "w", encoding="utf-8").write("\n".join(lines))
    trace = read_trace(path)
    assert [step["step"] for step in trace.steps] == [1, 2]
    assert trace.problem.startswith("line 4: not JSON")
    done = show(path)
    assert done.returncode == 1 and "#2 call" in done.stdout and "#3" not in done.stdout
    assert "line 4: not JSON" in done.stderr
    data = embedded(trace)
    assert data["problem"] == trace.problem and len(data["steps"]) == 2


def test_a_truncated_trace_keeps_its_whole_lines(tmp_path):
    path = write_trace(tmp_path / "cut.axtrace", steps=3, end=False)
    size = os.path.getsize(path)
    with open(path, "r+b") as handle:
        handle.truncate(size - 25)                  # the last step's line is cut in the middle
    trace = read_trace(path)
    assert [step["step"] for step in trace.steps] == [1, 2]
    assert trace.problem.startswith("line 4: not JSON")


def test_no_end_line_says_the_recorder_stopped_mid_run(tmp_path):
    trace = read_trace(write_trace(tmp_path / "open.axtrace", steps=2, end=False))
    assert len(trace.steps) == 2 and trace.end is None
    assert trace.problem == "the trace ends after step 2 without its end line (the recorder stopped mid-run)"


def test_a_newer_format_is_refused_clearly(tmp_path):
    path = write_trace(tmp_path / "new.axtrace")
    lines = open(path, encoding="utf-8").read().split("\n")
    header = json.loads(lines[0])
    header["axtrace"] = 2
    lines[0] = json.dumps(header)
    open(path, "w", encoding="utf-8").write("\n".join(lines))
    trace = read_trace(path)
    assert trace.problem == "trace format 2 is newer than this reader (1): update axclient / axquery"
    assert trace.steps == []
    assert "newer than this reader" in show(path).stderr


@pytest.mark.parametrize("content", [b"", b"{\"step\": 1, \"kind\": \"call\"}\n", b"not json at all\n",
                                     b"\xff\xfe binary\n"])
def test_a_file_without_a_header_is_not_a_trace(tmp_path, content):
    path = tmp_path / "other.axtrace"
    path.write_bytes(content)
    trace = read_trace(str(path))
    assert trace.problem == "not an AXServer trace (no header line)" and trace.steps == []


def test_a_step_out_of_sequence_and_a_line_after_the_end(tmp_path):
    path = write_trace(tmp_path / "seq.axtrace", steps=3)
    lines = open(path, encoding="utf-8").read().rstrip("\n").split("\n")
    skipped = lines[:2] + lines[3:]                 # step 2 missing
    (tmp_path / "skip.axtrace").write_text("\n".join(skipped) + "\n", encoding="utf-8")
    trace = read_trace(str(tmp_path / "skip.axtrace"))
    assert trace.problem == "line 3: step 3 where step 2 was due" and len(trace.steps) == 1
    (tmp_path / "after.axtrace").write_text("\n".join(lines + [lines[1]]) + "\n", encoding="utf-8")
    trace = read_trace(str(tmp_path / "after.axtrace"))
    assert trace.problem == "line 6: a line after the end line" and len(trace.steps) == 3


def test_the_viewer_cannot_be_broken_out_of_by_trace_text(tmp_path):
    path = write_trace(tmp_path / "script.axtrace", steps=1)
    trace = read_trace(path)
    trace.steps[0]["target"]["label"] = "</script><script>alert(1)</script><!--"
    page = render_viewer(trace)
    assert page.count("</script>") == 2             # the template's own two: the label stays data
    assert embedded(trace)["steps"][0]["target"]["label"] == "</script><script>alert(1)</script><!--"
    assert "http://" not in page.replace("http://www.w3.org/2000/svg", "") and "https://" not in page


def test_show_text_names_diff_focus_speech_and_errors():
    from axclient.trace.reader import parse_trace
    header = json.dumps(make_header("pytest", "t", "test", False, "orca-43"))
    step = {"step": 1, "kind": "key", "method": "input.key", "params": {"key": "Tab"}, "target": None, "t": 1.0,
            "ms": 2.0, "revision": [4, 5], "diff": {"added": ["a"], "removed": [], "moved": [], "updated": {"b": []}},
            "diffDropped": 7, "focus": {"before": {"engine": None, "accessibility": "x"},
                                        "after": {"engine": "y", "accessibility": "y"}},
            "events": [{"t": 1.5, "type": "focus.changed"}], "speech": {"orca": ["Wi-Fi switch on"],
                                                                      "preview": ["Wi-Fi switch on"]},
            "error": {"code": -32013, "message": "not hittable"}}
    text = show_text(parse_trace((header + "\n" + json.dumps(step) + "\n").encode()))
    assert "rev 4→5" in text and "added 1, updated 1 (7 ops dropped)" in text
    assert "focus: x → y (engine None → y)" in text and "orca: Wi-Fi switch on" in text
    assert "error: [-32013] not hittable" in text and "screen reader orca-43" in text
    assert "problem: the trace ends after step 1" in text


HOSTILE_STEP = {"step": 1, "kind": ["x"], "method": 7, "params": "p", "target": "#t", "t": "soon", "ms": "slow",
                "revision": "r", "diff": {"added": 5, "removed": None, "updated": "u", "nodes": 3}, "focus": [1],
                "events": {"t": 1}, "speech": {"orca": "said", "preview": 4}, "error": "boom",
                "picture": {"base64": 12, "outline": "o"}, "snapshot": {"windows": "w"}}


def test_malformed_fields_are_shown_as_absent_not_fatal(tmp_path):
    path = write_trace(tmp_path / "hostile.axtrace", steps=0, end=False)
    with open(path, "a", encoding="utf-8") as handle:
        handle.write(json.dumps(HOSTILE_STEP) + "\n")
    text = show_text(read_trace(path))
    assert "#1 ['x'] 7" in text and "error: [None] boom" in text and "the trace ends after step 1" in text
    done = show(path)
    assert done.returncode == 1 and "Traceback" not in done.stderr


def test_a_failing_disk_ends_the_trace_not_the_test(tmp_path):
    writer = TraceWriter("/dev/full", make_header("python", "full", "test", False, None))
    assert writer.failure is not None and "No space left" in writer.failure and writer.closed
    writer.step({"step": 1})          # nothing raised: the test's own call goes on
    writer.end(1, {"steps": 0, "diffOps": 0, "events": 0})
