#!/usr/bin/env python3
"""Makes Specs/images/trace-viewer.png: the trace viewer showing a failing pytest test's trace.

  PYTHONPATH=Sources/PythonClient AXSERVER_BIN=.build/debug .build/test-venv/bin/python Tools/trace_screenshot.py
      [--out Specs/images/trace-viewer.png]

Runs a small failing test (the screen_reader and ax fixtures on the demo: Tab, Tab, space, then a wrong
expectation) under ``pytest --ax-trace retain-on-failure --ax-trace-pictures``, opens the trace's viewer in Debian's
Chromium with Playwright and photographs it at the last step before the failure (picture, tree diff, Orca's speech
beside the preview).
"""
from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import textwrap

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))

EXAMPLE = '''
    from axclient import expect

    def test_wifi_switch_turns_off(screen_reader, ax):
        screen_reader.press("Tab")
        screen_reader.press("Tab")
        expect(screen_reader).to_say("Wi-Fi")
        screen_reader.press("space")
        expect(screen_reader).to_say("not pressed")
        assert ax.get_by_id("cell.wifi").value() == "on", "Wi-Fi should stay on"
'''


def main() -> int:
    parser = argparse.ArgumentParser(description="the trace viewer's screenshot for the README")
    parser.add_argument("--out", default=os.path.join(ROOT, "Specs", "images", "trace-viewer.png"))
    options = parser.parse_args()
    work = tempfile.mkdtemp(prefix="trace-shot-")
    try:
        with open(os.path.join(work, "test_example.py"), "w", encoding="utf-8") as handle:
            handle.write(textwrap.dedent(EXAMPLE))
        env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "Sources", "PythonClient"),
                   AXSERVER_A11Y_STACK=os.environ.get("AXSERVER_A11Y_STACK",
                                                      os.path.join(ROOT, "Tools", "a11y-stack.sh")))
        run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "axclient.pytest_plugin", "-p",
                              "no:cacheprovider", "--ax-trace", "retain-on-failure", "--ax-trace-pictures",
                              "--ax-trace-dir", "traces", "test_example.py"], cwd=work, env=env,
                             capture_output=True, text=True, timeout=300)
        html = os.path.join(work, "traces", "test_example.py-test_wifi_switch_turns_off.html")
        if not os.path.exists(html):
            sys.stderr.write(run.stdout + run.stderr)
            print("trace_screenshot: the example test left no trace", file=sys.stderr)
            return 1
        from playwright.sync_api import sync_playwright
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=shutil.which("chromium") or "/usr/bin/chromium",
                                                 args=["--no-sandbox"])
            try:
                page = browser.new_page(viewport={"width": 1280, "height": 1000})
                page.goto("file://" + html)
                page.wait_for_selector("body[data-ready=true]")
                keys = page.locator("ol.steps button", has_text="input.key")
                keys.nth(keys.count() - 1).click()
                page.screenshot(path=options.out, full_page=True)
            finally:
                browser.close()
        print(options.out)
        return 0
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
