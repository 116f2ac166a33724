"""The trace viewer read by real Orca: Debian's Chromium, with its accessibility on, runs on the screen_reader
fixture's private X display and AT-SPI bus (Orca 43, and Orca 48.1 on at-spi2-core 2.56: the test runs on both,
orca_stacks.on_both_orcas); Orca announces the loaded viewer by its title and counts its landmarks
and headings as a user hears them."""
import os
import re
import shutil
import subprocess
import time

import pytest

from axclient.screen_reader import missing_prerequisite
from axclient.trace import TraceWriter, make_header, write_viewer
from orca_stacks import on_both_orcas

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"


def wait_for_title_and_summary(screen_reader, mark, seconds):
    """What Orca said since `mark`, its page summary (a match) and whether it said the viewer's title: until both
    are said, in either order (Orca 48 may say the summary first), or `seconds` have passed."""
    deadline = time.monotonic() + seconds
    pattern = re.compile(r"Page has (\d+) landmarks?, (\d+) headings?")
    while True:
        said = screen_reader.orca.speech(mark)
        summary = next((match for match in map(pattern.search, said) if match), None)
        titled = any("AXServer trace: test_orca_reads_me" in line for line in said)
        if (summary and titled) or time.monotonic() >= deadline:
            return said, summary, titled
        time.sleep(0.1)


def click_into_page(page, env):
    """A real click (xdotool, on the test's X display) in the middle of the page's content: the browser's keyboard
    focus moves into the page, as a user's click moves it (a click Playwright sends reaches only the renderer)."""
    x, y = page.evaluate("[Math.round(window.screenX + window.outerWidth / 2),"
                         " Math.round(window.screenY + window.outerHeight - window.innerHeight / 2)]")
    subprocess.run(["xdotool", "mousemove", "--sync", str(x), str(y), "click", "1"], env=env, check=False, timeout=10)
    time.sleep(0.5)


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
            said, summary, titled = wait_for_title_and_summary(screen_reader, mark, 10)
            if summary is None:
                # Orca summarises a loaded page only when the keyboard focus is in it at the end of the load ("WEB:
                # Not presenting content, focus is outside of document"), and Chromium sometimes still has it in the
                # address bar then (CI run 10e; Orca 43 here too). A user clicks into the page and reloads it.
                click_into_page(page, env)
                page.reload()
                page.wait_for_selector("body[data-ready=true]")
                said, summary, titled = wait_for_title_and_summary(screen_reader, mark, 12)
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
