"""The trace viewer read by real Orca: Debian's Chromium, with its accessibility on, runs on the screen_reader
fixture's private X display and AT-SPI bus; Orca announces the loaded viewer by its title and counts its landmarks
and headings as a user hears them."""
import os
import re
import shutil
import time

import pytest

from axclient.screen_reader import missing_prerequisite
from axclient.trace import TraceWriter, make_header, write_viewer

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"


def small_trace(path):
    writer = TraceWriter(str(path), make_header("pytest", "test_orca_reads_me", "test", False, "orca-43"))
    writer.step({"step": 1, "kind": "key", "method": "input.key", "params": {"key": "Tab"}, "target": None,
                 "t": 1.0, "ms": 2.0, "revision": None, "diff": None, "focus": None, "events": [],
                 "speech": {"orca": ["Edit push button"], "preview": ["Edit push button"]}, "error": None})
    writer.end(1, {"steps": 0, "diffOps": 0, "events": 0})
    return str(path)


@pytest.mark.skipif(missing_prerequisite() is not None, reason=str(missing_prerequisite()))
@pytest.mark.axserver(fresh=True)     # a stack and Orca of its own: the browser window leaves nothing behind
def test_orca_reads_the_viewer_its_title_landmarks_and_headings(screen_reader, axserver, axserver_pool, tmp_path):
    from playwright.sync_api import sync_playwright
    session = axserver_pool.session_for(axserver)
    html = write_viewer(small_trace(tmp_path / "orca.axtrace"))
    env = session.stack.env(dict(os.environ))
    env.pop("WAYLAND_DISPLAY", None)
    mark = screen_reader.orca.speech_count()
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=False, env=env,
                                             args=["--no-sandbox", "--force-renderer-accessibility",
                                                   "--ozone-platform=x11"])
        try:
            page = browser.new_page()
            page.goto("file://" + html)
            page.wait_for_selector("body[data-ready=true]")
            landmarks = page.evaluate("document.querySelectorAll('header, nav, main, footer, "
                                      "section[aria-labelledby]').length")
            headings = page.evaluate("document.querySelectorAll('h1, h2, h3, h4, h5, h6').length")
            deadline = time.monotonic() + 20
            summary = None
            while summary is None and time.monotonic() < deadline:
                said = screen_reader.orca.speech(mark)
                summary = next((re.search(r"Page has (\d+) landmarks?, (\d+) headings?", line) for line in said
                                if re.search(r"Page has (\d+) landmarks?, (\d+) headings?", line)), None)
                time.sleep(0.1)
        finally:
            browser.close()
    assert summary is not None, "Orca did not summarise the page; it said: %s" % said
    assert any("AXServer trace: test_orca_reads_me" in line for line in said)
    assert (int(summary.group(1)), int(summary.group(2))) == (landmarks, headings)
