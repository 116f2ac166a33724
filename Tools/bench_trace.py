#!/usr/bin/env python3
"""Benchmark of accessibility traces (issue 36, Specs/trace.md §Figures): the recorder's overhead per step, the
trace's size, and the viewer's open time in Chromium — on the demo and on a 10,000-control app.

  PYTHONPATH=Sources/PythonClient .build/test-venv/bin/python Tools/bench_trace.py [--bin DIR] [--steps 100]
      [--no-viewer] [--json OUT]

Overhead per step is the recorder's own time around a call (its pipelined batches and the writing), from
``TraceRecorder.overhead_ms``; the wall-clock difference of the same 100 steps with and without a trace is printed
beside it as a cross-check. Targets: ≤ 2 ms per step on the demo, ≤ 10 ms at 10,000 controls; a 100-step trace
≤ 1 MB (demo) and ≤ 5 MB (10,000 controls); the viewer opens a 100-step trace in ≤ 1 s.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import sys
import tempfile
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
sys.path.insert(0, os.path.join(ROOT, "Sources", "PythonClient"))

import axclient  # noqa: E402
from axclient import Provider, view  # noqa: E402
from axclient.server import ServerProcess, find_axserver  # noqa: E402
from axclient.trace import read_trace, write_viewer  # noqa: E402

CONTROLS = 10_000


def demo_step(client, index):
    kind = index % 3
    if kind == 0:
        client.call("action.activate", {"target": {"selector": '#"cell.wifi"'}})
    elif kind == 1:
        client.call("focus.set", {"target": {"selector": "#textSize" if index % 2 else "#copies"}})
    else:
        client.call("input.key", {"key": "Tab"})


def big_windows():
    rows = []
    for group in range(CONTROLS // 100):
        rows.append(view("g%d" % group, "UIView", [0, 100 + group * 7, 390, 7], children=[
            view("c%d_%d" % (group, index), "UIButton" if index % 2 else "UILabel", [index * 3.9, 0, 3.9, 7],
                 title="Button %d.%d" % (group, index)) if index % 2 else
            view("c%d_%d" % (group, index), "UILabel", [index * 3.9, 0, 3.9, 7], text="Label %d.%d" % (group, index))
            for index in range(100)]))
    return [view("win", "UIWindow", [0, 0, 390, 844], isKeyWindow=True, windowTitle="Big", children=[
        view("go", "UIButton", [16, 40, 100, 44], title="Go"),
        view("counter", "UILabel", [140, 40, 200, 44], text="Count 0"), *rows])]


def big_step(client, index):
    client.call("action.activate", {"target": {"selector": 'button[label="Go"]'}})


def measure(client, step, steps, path):
    """Runs ``steps`` steps untraced, then traced; returns the figures."""
    started = time.perf_counter()
    for index in range(steps):
        step(client, index)
    plain = time.perf_counter() - started
    recorder = client.start_trace(path, title="bench")
    started = time.perf_counter()
    for index in range(steps):
        step(client, index)
    traced = time.perf_counter() - started
    client.stop_trace()
    overhead = recorder.overhead_ms[1:]          # the first step also takes the snapshot: reported apart
    trace = read_trace(path)
    assert trace.complete, trace.problem
    return {"steps": steps, "overheadMedianMs": round(statistics.median(overhead), 3),
            "overheadP95Ms": round(sorted(overhead)[int(len(overhead) * 0.95) - 1], 3),
            "firstStepMs": round(recorder.overhead_ms[0], 3),
            "wallPerStepPlainMs": round(plain * 1000 / steps, 3), "wallPerStepTracedMs": round(traced * 1000 / steps, 3),
            "bytes": os.path.getsize(path)}


def viewer_open(path, runs=3):
    """Best and worst of ``runs`` loads (page clock: navigation start → first step shown), in ms."""
    from playwright.sync_api import sync_playwright
    html = write_viewer(path)
    times = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=shutil.which("chromium") or "/usr/bin/chromium",
                                             args=["--no-sandbox"])
        try:
            for _ in range(runs):
                page = browser.new_page()
                page.goto("file://" + html)
                page.wait_for_selector("body[data-ready=true]")
                times.append(float(page.evaluate("document.body.dataset.readyMs")))
                page.close()
        finally:
            browser.close()
    return {"viewerOpenBestMs": min(times), "viewerOpenWorstMs": max(times)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[1])
    parser.add_argument("--bin", default=None, help="folder holding axserver (default: $AXSERVER_BIN, PATH)")
    parser.add_argument("--steps", type=int, default=100)
    parser.add_argument("--no-viewer", action="store_true", help="skip the Chromium open-time measurement")
    parser.add_argument("--json", default="", help="also write the figures to this file")
    options = parser.parse_args()
    binary = find_axserver(options.bin)
    work = tempfile.mkdtemp(prefix="bench-trace-")
    figures = {}
    server = ServerProcess(binary, demo=True)
    try:
        with axclient.Client(server.socket) as client:
            figures["demo"] = measure(client, demo_step, options.steps, os.path.join(work, "demo.axtrace"))
    finally:
        server.stop()
    server = ServerProcess(binary, demo=False)
    try:
        count = [0]
        provider = Provider("big", server.socket)

        def act(request):
            count[0] += 1
            provider.set_properties("counter", text="Count %d" % count[0])
            return True

        provider.on_action = act
        provider.set_hierarchy(big_windows())
        with axclient.Client(server.socket) as client:
            elements = client.apps()[0].get("elements")
            figures["big"] = measure(client, big_step, options.steps, os.path.join(work, "big.axtrace"))
            figures["big"]["elements"] = elements
        provider.close()
    finally:
        server.stop()
    if not options.no_viewer:
        figures["demo"].update(viewer_open(os.path.join(work, "demo.axtrace")))
        figures["big"].update(viewer_open(os.path.join(work, "big.axtrace")))
    for name, values in figures.items():
        print("%-5s %s" % (name, "  ".join("%s=%s" % item for item in values.items())))
    if options.json:
        with open(options.json, "w", encoding="utf-8") as handle:
            json.dump(figures, handle, indent=1)
    shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
