"""The trace viewer in real Chromium (Debian's, driven by Playwright) with axe-core: a 100-step trace of the demo
recorded against the real server opens within a second, has no axe violations, is keyboard operable (step list,
ARIA tree, copy selector — the copied selector finds the same element on the server), marks diffs and speech
differences, filters by kind, and says where a damaged trace breaks. One browser for the module."""
import json
import os
import shutil

import pytest

import axclient
from axclient.server import ServerProcess
from axclient.trace import TraceWriter, make_header, read_trace, write_viewer

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
STEPS = 100


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        try:
            yield launched
        finally:
            launched.close()


@pytest.fixture(scope="module")
def demo(axserver_pool):
    server = ServerProcess(axserver_pool.binary, demo=True)
    client = axclient.Client(server.socket)
    try:
        yield client
    finally:
        client.close()
        server.stop()


@pytest.fixture(scope="module")
def recorded(demo, tmp_path_factory):
    """A 100-step trace of the demo: clicks, focus moves, Tab keys, one failing call, the alert opened last."""
    path = str(tmp_path_factory.mktemp("viewer") / "demo.axtrace")
    demo.start_trace(path, title="test_demo.py::test_settings")
    for index in range(STEPS - 3):
        kind = index % 3
        if kind == 0:
            demo.call("action.activate", {"target": {"selector": '#"cell.wifi"'}})
        elif kind == 1:
            demo.call("focus.set", {"target": {"selector": "#textSize" if index % 2 else "#copies"}})
        else:
            demo.call("input.key", {"key": "Tab"})
    with pytest.raises(axclient.NoSuchElement):
        demo.call("action.activate", {"target": {"selector": "#doesNotExist"}})
    demo.call("action.activate", {"target": {"selector": "#showAlert"}})
    demo.call("focus.set", {"target": {"selector": "button[label=\"Cancel\"]"}})
    demo.stop_trace()
    return path


def open_viewer(browser, trace_path):
    """The viewer page and its open time: seconds from navigation start to the first step shown (the page's own
    clock, so Playwright's messaging on a loaded machine is not counted)."""
    html = write_viewer(trace_path)
    page = browser.new_page()
    page.goto("file://" + html)
    page.wait_for_selector("body[data-ready=true]")
    return page, float(page.evaluate("document.body.dataset.readyMs")) / 1000.0


def test_a_100_step_demo_trace_is_small_and_opens_within_a_second(browser, recorded):
    trace = read_trace(recorded)
    assert trace.complete and len(trace.steps) == STEPS
    assert os.path.getsize(recorded) <= 1024 * 1024
    times = []
    for _ in range(3):     # the machine is shared: the best of three loads is the viewer's own time
        page, seconds = open_viewer(browser, recorded)
        times.append(seconds)
        assert page.locator("ol.steps button").count() == STEPS
        page.close()
    assert min(times) <= 1.0, "the viewer took %s s to open" % times


def test_the_viewer_has_no_axe_violations(browser, recorded):
    from axe_playwright_python.sync_playwright import Axe
    page, _ = open_viewer(browser, recorded)
    try:
        assert page.locator("#step-heading").inner_text().endswith("(error)")    # opens at the failing step
        page.locator("ol.steps button").nth(STEPS - 2).click()                    # the alert: a diff
        page.locator("#tree [role=treeitem]").first.focus()
        page.keyboard.press("ArrowDown")
        results = Axe().run(page)
        assert results.violations_count == 0, results.generate_report()
    finally:
        page.close()


def test_landmarks_headings_tree_widget_and_speech_log(browser, recorded):
    page, _ = open_viewer(browser, recorded)
    try:
        assert page.locator("header").count() == 1 and page.locator("nav").count() == 1
        assert page.locator("main").count() == 1 and page.locator("h1").count() == 1
        assert page.get_by_role("tree").count() == 1 and page.get_by_role("treeitem").count() > 10
        assert page.get_by_role("log").count() == 1
        headings = page.locator("h2, h3").all_inner_texts()
        assert {"Steps", "Call", "Picture", "Tree", "Focus", "Speech", "Events", "Errors and policy"} <= set(headings)
    finally:
        page.close()


def test_keyboard_steps_tree_and_copy_selector_find_the_same_element(browser, recorded, demo):
    page, _ = open_viewer(browser, recorded)
    try:
        first = page.locator("ol.steps button").first
        first.focus()
        page.keyboard.press("ArrowDown")
        assert page.locator("#step-heading").inner_text().startswith("Step 2:")
        assert page.locator("ol.steps button[aria-current=true]").inner_text().startswith("2.")
        page.keyboard.press("End")
        assert page.locator("#step-heading").inner_text().startswith("Step %d:" % STEPS)
        page.locator("#tree [role=treeitem]").first.focus()
        collapsed = None
        for _ in range(40):        # walk the tree with the keyboard to a collapsed node, open it
            page.keyboard.press("ArrowDown")
            selected = page.locator("#tree [role=treeitem][aria-selected=true]")
            if selected.get_attribute("aria-expanded") == "false":
                collapsed = selected.get_attribute("data-id")
                break
        if collapsed is not None:
            page.keyboard.press("ArrowRight")
            item = page.locator('#tree [data-id="%s"]' % collapsed)
            assert item.get_attribute("aria-expanded") == "true"
            assert item.locator("[role=group] > [role=treeitem]").count() > 0
        page.keyboard.press("ArrowDown")
        node_id = page.locator("#tree [role=treeitem][aria-selected=true]").get_attribute("data-id")
        page.keyboard.press("c")
        selector = page.locator("body").get_attribute("data-copied")
        assert selector and page.locator("#copied").inner_text() == "Copied " + selector
        assert demo.query_one(selector).id == node_id
    finally:
        page.close()


def test_the_diff_is_marked_before_and_after(browser, recorded):
    page, _ = open_viewer(browser, recorded)
    try:
        page.locator("ol.steps button").nth(STEPS - 2).click()     # the alert replaced the settings
        assert page.locator("#tree .m-added").count() >= 1
        assert "added" in page.locator("#tree-note").inner_text()
        page.get_by_label("Before the step").check()
        assert page.locator("#tree .m-removed").count() >= 1
        assert page.locator("#tree").get_by_text("Reset All Settings").count() == 1
    finally:
        page.close()


def test_filter_by_kind(browser, recorded):
    page, _ = open_viewer(browser, recorded)
    try:
        keys = sum(1 for step in read_trace(recorded).steps if step["kind"] == "key")
        page.get_by_label("call (", exact=False).uncheck()
        assert page.locator("ol.steps button").count() == keys
        page.get_by_label("only steps with errors").check()
        page.get_by_label("call (", exact=False).check()
        assert page.locator("ol.steps button").count() == 1
    finally:
        page.close()


def synthetic(path, steps, cut_after=None):
    writer = TraceWriter(str(path), make_header("pytest", "synthetic", "test", False, "orca-43"))
    for step in steps:
        writer.step(step)
    if cut_after is None:
        writer.end(len(steps), {"steps": 0, "diffOps": 0, "events": 0})
    else:
        writer.abandon()
    return str(path)


def step(number, **fields):
    record = {"step": number, "kind": "key", "method": "input.key", "params": {"key": "Tab"}, "target": None,
              "t": float(number), "ms": 1.0, "revision": None, "diff": None, "focus": None, "events": [],
              "speech": {"orca": None, "preview": None}, "error": None}
    record.update(fields)
    return record


def test_speech_real_and_preview_side_by_side_with_differences_marked(browser, tmp_path):
    path = synthetic(tmp_path / "speech.axtrace", [step(1, speech={"orca": ["Wi-Fi switch on.", "Settings"],
                                                                   "preview": ["Wi-Fi  switch on", "Double tap"]})])
    page, _ = open_viewer(browser, path)
    try:
        speech = page.get_by_role("log")
        rows = speech.locator("tr")
        assert rows.nth(1).inner_text().split("\t")[0].strip() == "Wi-Fi switch on."
        assert "not in the preview" not in rows.nth(1).inner_text()          # same words: no mark
        assert "not in the preview" in rows.nth(2).locator("td").nth(0).inner_text()    # "Settings"
        assert "Orca did not say this" in rows.nth(2).locator("td").nth(1).inner_text()  # "Double tap"
    finally:
        page.close()


def test_a_damaged_trace_shows_where_it_breaks_and_the_steps_before(browser, tmp_path):
    path = synthetic(tmp_path / "broken.axtrace", [step(1), step(2), step(3)], cut_after=3)
    with open(path, "a", encoding="utf-8") as handle:
        handle.write('{"step": 4, "kind": "ca')       # a write cut short
    page, _ = open_viewer(browser, path)
    try:
        problem = page.get_by_role("alert")
        assert "line 5: not JSON" in problem.inner_text() and "Every step before it is shown" in problem.inner_text()
        assert page.locator("ol.steps button").count() == 3
    finally:
        page.close()
    newer = tmp_path / "newer.axtrace"
    newer.write_text(json.dumps({"axtrace": 7, "source": "swift", "title": "x"}) + "\n", encoding="utf-8")
    page, _ = open_viewer(browser, str(newer))
    try:
        assert "trace format 7 is newer than this reader (1)" in page.get_by_role("alert").inner_text()
    finally:
        page.close()


def test_malformed_fields_spoil_only_their_own_section(browser, tmp_path):
    from test_trace_reader import HOSTILE_STEP
    path = synthetic(tmp_path / "hostile.axtrace", [HOSTILE_STEP, step(2, speech={"orca": ["Edit"], "preview": None})])
    page, _ = open_viewer(browser, path)
    try:
        assert page.locator("ol.steps button").count() == 2
        assert page.locator("#step-heading").inner_text().startswith("Step 1:")
        page.locator("ol.steps button").nth(1).click()
        assert page.get_by_role("log").get_by_text("Edit").count() == 1      # the next step shows whole
    finally:
        page.close()
