"""The trace viewer read by real Orca: Debian's Chromium, with its accessibility on, runs on the screen_reader
fixture's private X display and AT-SPI bus (Orca 43, and Orca 48.1 on at-spi2-core 2.56: the test runs on both,
orca_stacks.on_both_orcas); Orca announces the loaded viewer by its title and counts its landmarks
and headings as a user hears them."""
import os
import re
import shutil
import time

import pytest

from axclient.screen_reader import missing_prerequisite
from axclient.trace import TraceWriter, make_header, write_viewer
from orca_stacks import on_both_orcas

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"


def small_trace(path, version):
    writer = TraceWriter(str(path), make_header("pytest", "test_orca_reads_me", "test", False, version))
    writer.step({"step": 1, "kind": "key", "method": "input.key", "params": {"key": "Tab"}, "target": None,
                 "t": 1.0, "ms": 2.0, "revision": None, "diff": None, "focus": None, "events": [],
                 "speech": {"orca": ["Edit push button"], "preview": ["Edit push button"]}, "error": None})
    writer.end(1, {"steps": 0, "diffOps": 0, "events": 0})
    return str(path)


@pytest.mark.skipif(missing_prerequisite() is not None, reason=str(missing_prerequisite()))
@on_both_orcas(fresh=True)     # a stack and Orca of its own: the browser window leaves nothing behind
def test_orca_reads_the_viewer_its_title_landmarks_and_headings(stack, screen_reader, axserver, axserver_pool,
                                                                tmp_path):
    from playwright.sync_api import sync_playwright
    session = axserver_pool.session_for(axserver)
    html = write_viewer(small_trace(tmp_path / "orca.axtrace", screen_reader.version))
    env = session.stack.env(dict(os.environ))
    env.pop("WAYLAND_DISPLAY", None)
    mark = screen_reader.orca.speech_count()
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=False, env=env,
                                             args=["--no-sandbox", "--force-renderer-accessibility",
                                                   "--ozone-platform=x11"])
        try:
            context = browser.new_context()
            page = context.new_page()
            page.goto("file://" + html)
            page.wait_for_selector("body[data-ready=true]")
            landmarks = page.evaluate("document.querySelectorAll('header, nav, main, footer, "
                                      "section[aria-labelledby]').length")
            headings = page.evaluate("document.querySelectorAll('h1, h2, h3, h4, h5, h6').length")
            # The viewer's window again, now titled: a user switching back to it hears its title (Orca 48 says
            # no "Finished loading <title>" and names the window only when it is activated, often while it is
            # still "Untitled").
            other = context.new_page()
            other.close()
            page.bring_to_front()
            # Until Orca has said both the title and the summary, in either order (Orca 48 may say the summary
            # first; before, the wait ended at the summary and the title after it was missed).
            deadline = time.monotonic() + 20
            summary = titled = None
            while not (summary and titled) and time.monotonic() < deadline:
                said = screen_reader.orca.speech(mark)
                summary = next((re.search(r"Page has (\d+) landmarks?, (\d+) headings?", line) for line in said
                                if re.search(r"Page has (\d+) landmarks?, (\d+) headings?", line)), None)
                titled = any("AXServer trace: test_orca_reads_me" in line for line in said)
                time.sleep(0.1)
        finally:
            browser.close()
    assert summary is not None, "Orca did not summarise the page; it said: %s" % said
    print("Orca said:", said)
    assert (int(summary.group(1)), int(summary.group(2))) == (landmarks, headings)
    if not titled and stack == "48":
        # Orca 48 names Chromium's window only when it is activated, often while it is still "about:blank"; under
        # Xvfb without a window manager the re-activation does not always reach it (CI run 10d). Known, not fixed.
        pytest.xfail("Orca 48 did not say the page's title; it said: %s" % said)
    assert titled, "Orca did not say the page's title; it said: %s" % said
