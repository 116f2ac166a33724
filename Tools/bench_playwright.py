#!/usr/bin/env python3
"""Side by side: Playwright (Chromium) on an ARIA page against AXServer on the same tree, as medians and ratios.

For N leaf controls the page mirrors `axserver serve --bench-tree N` (Sources/AXDemo/BenchTree.swift): leaves cycle
through button "Button i", static text "Label i", switch "Check i" (on when i is even), slider "Scale i"
(value i % 100 of 0...100) and text field "Entry i", in groups of 10 inside groups of 50, in one scroll container.

Measured, each as the median of --runs repetitions after --warmup unmeasured ones:
  * lookup:   Playwright `page.get_by_role("button", name="Button K", exact=True).count()` and `.element_handle()`
              against AXServer `query.one` with `button[label="Button K"]` (K = the last button, N - 5);
  * snapshot: Playwright `page.locator("body").aria_snapshot()` against AXServer `tree.get` (format json; and with
              `fields: [role, label, value, states, children]`, what an ARIA snapshot carries), as `tree()` returns
              (its elements decoded on first read, D-PYCLIENT-TREE-1) and with every element then read,
both through a Python client (Playwright's sync API; the project's `axclient` over the Unix socket), for AXServer
also through the Swift client (`axbench --client-tree`: `AXClient.tree()`, which decodes every element, and
`treeReply()`, which decodes what is read, D-CLIENT-TREE-2; each full and with `fields`, and each also with every
element read; `--swift-axbench` names one or more builds, `label=path`, so a before and an after run side by
side) and over a raw socket that does not decode the reply (the server's share without Python's json.loads).

Needs a Python with the `playwright` package (PyPI) and a Chromium at --chromium (Debian's package: /usr/bin/chromium);
it never downloads a browser. Prints figures and asserts nothing.

Usage: python3 Tools/bench_playwright.py [--axserver PATH] [--sizes 1000,10000] [--runs 30] [--chromium PATH]
                                        [--swift-axbench [LABEL=]PATH[,...]] [--no-python-client]
"""
import argparse
import os
import json
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(ROOT, "Sources", "PythonClient"))

from axclient import Client  # noqa: E402
from bench_lines import LineReader  # noqa: E402


def leaf_html(index):
    kind = index % 5
    if kind == 0:
        return '<button>Button %d</button>' % index
    if kind == 1:
        return '<span>Label %d</span>' % index
    if kind == 2:
        checked = "true" if index % 2 == 0 else "false"
        return '<button role="switch" aria-checked="%s">Check %d</button>' % (checked, index)
    if kind == 3:
        return ('<div role="slider" tabindex="0" aria-label="Scale %d" aria-valuemin="0" aria-valuemax="100" '
                'aria-valuenow="%d"></div>' % (index, index % 100))
    return '<input type="text" aria-label="Entry %d" value="">' % index


def bench_page(leaves):
    """The HTML page with the same shape as BenchTree.snapshot(leaves:)."""
    parts = ['<!doctype html><html><head><title>AXServer Bench N=%d</title></head><body>' % leaves,
             '<div role="group" aria-label="scroll" style="overflow:auto;height:600px">']
    leaf = 0
    outer = 0
    while leaf < leaves:
        parts.append('<div role="group" aria-label="g%d">' % outer)
        inner = 0
        while inner < 5 and leaf < leaves:
            parts.append('<div role="group" aria-label="g%d_%d">' % (outer, inner))
            for _ in range(10):
                if leaf >= leaves:
                    break
                parts.append(leaf_html(leaf))
                leaf += 1
            parts.append('</div>')
            inner += 1
        parts.append('</div>')
        outer += 1
    parts.append('</div></body></html>')
    return "".join(parts)


def median_ms(action, runs, warmup):
    for _ in range(warmup):
        action()
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        action()
        samples.append((time.perf_counter() - start) * 1000.0)
    return statistics.median(samples)


def start_axserver(axserver, leaves, socket_dir):
    socket_path = os.path.join(socket_dir, "bench-%d.sock" % leaves)
    proc = subprocess.Popen([axserver, "serve", "--bench-tree", str(leaves), "--no-atspi", "--socket", socket_path],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    deadline = time.time() + 60
    while time.time() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        if line.startswith("READY"):
            return proc, socket_path
    proc.terminate()
    raise RuntimeError("axserver --bench-tree %d printed no READY line" % leaves)


def stop(proc):
    proc.terminate()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


class RawSocket:
    """Newline-delimited JSON-RPC over the Unix socket with no decoding of replies: the server's own share."""

    def __init__(self, path):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.connect(path)
        self.lines = LineReader(self.sock)
        self.next_id = 0
        self.call("initialize", {"clientInfo": {"name": "bench_playwright-raw", "version": "0"}})

    def call(self, method, params):
        self.next_id += 1
        self.sock.sendall(json.dumps({"jsonrpc": "2.0", "id": self.next_id, "method": method,
                                      "params": params}).encode() + b"\n")
        return self.lines.read_line()

    def close(self):
        self.sock.close()


LEAN_FIELDS = ["role", "label", "value", "states", "children"]


def count_elements(tree):
    """Reads every element of a tree() answer (each element's role), as a caller that uses the whole tree does."""
    stack, count = list(tree["windows"]), 0
    while stack:
        element = stack.pop()
        count += element.get("role") is not None
        stack.extend(element.get("children", ()))
    return count


SWIFT_MEASURES = (("tree_full", "swift tree() (all decoded)"), ("tree_lean", "swift tree(fields: lean)"),
                  ("tree_full_read", "swift tree() + every element read"),
                  ("tree_lean_read", "swift tree(lean) + every element read"),
                  ("reply_full", "swift treeReply() (windows on read)"),
                  ("reply_lean", "swift treeReply(fields: lean)"),
                  ("reply_full_read", "swift treeReply() + every element read"),
                  ("reply_lean_read", "swift treeReply(lean) + every element read"))


def measure_swift(axbenches, socket_path, runs, warmup):
    """The Swift client's figures from each axbench build (`axbench --client-tree`), keyed by label."""
    figures = {}
    for label, path in axbenches:
        out = subprocess.run([path, "--client-tree", socket_path, "--runs", str(runs), "--warmup",
                              str(max(1, warmup // 3))], capture_output=True, text=True, timeout=600, check=True)
        figures[label] = json.loads(out.stdout.strip().splitlines()[-1])
    return figures


def measure_python_client(socket_path, selector, runs, warmup):
    with Client(socket_path) as client:
            found = client.query_one(selector)
            tree = client.tree()
            lookup = median_ms(lambda: client.query_one(selector), runs, warmup)
            snapshot = median_ms(lambda: client.tree(), runs, max(1, warmup // 3))
            # what aria_snapshot() gives: role, name, value, states, nesting (tree.get fields, issue 26)
            lean = median_ms(lambda: client.tree(fields=LEAN_FIELDS), runs, max(1, warmup // 3))
            # the same, then every element read (tree() decodes the elements on first read, D-PYCLIENT-TREE-1)
            snapshot_read = median_ms(lambda: count_elements(client.tree()), runs, max(1, warmup // 3))
            lean_read = median_ms(lambda: count_elements(client.tree(fields=LEAN_FIELDS)), runs, max(1, warmup // 3))
    return {"lookup": lookup, "snapshot": snapshot, "lean": lean, "snapshot_read": snapshot_read,
            "lean_read": lean_read, "found": found.label, "tree_count": tree.get("count")}


def measure_axserver(axserver, leaves, target_label, runs, warmup, socket_dir, axbenches, python_client):
    proc, socket_path = start_axserver(axserver, leaves, socket_dir)
    try:
        selector = 'button[label="%s"]' % target_label
        figures = measure_python_client(socket_path, selector, runs, warmup) if python_client else {}
        figures["swift"] = measure_swift(axbenches, socket_path, runs, warmup)
        raw = RawSocket(socket_path)
        try:
            raw_lookup = median_ms(lambda: raw.call("query.one", {"selector": selector}), runs, warmup)
            raw_snapshot = median_ms(lambda: raw.call("tree.get", {"format": "json"}), runs, max(1, warmup // 3))
            raw_text = median_ms(lambda: raw.call("tree.get", {"format": "text"}), runs, max(1, warmup // 3))
            tree_bytes = len(raw.call("tree.get", {"format": "json"}))
        finally:
            raw.close()
        figures.update({"raw_lookup": raw_lookup, "raw_snapshot": raw_snapshot, "raw_text": raw_text,
                        "tree_bytes": tree_bytes})
        return figures
    finally:
        stop(proc)


def measure_playwright(browser, leaves, target_label, runs, warmup):
    page = browser.new_page()
    try:
        page.set_content(bench_page(leaves))
        locator = page.get_by_role("button", name=target_label, exact=True)
        matches = locator.count()
        snapshot_text = page.locator("body").aria_snapshot()
        lookup_count = median_ms(lambda: locator.count(), runs, warmup)
        lookup_handle = median_ms(lambda: page.get_by_role("button", name=target_label, exact=True)
                                  .element_handle().dispose(), runs, warmup)
        snapshot = median_ms(lambda: page.locator("body").aria_snapshot(), runs, max(1, warmup // 3))
        return {"lookup_count": lookup_count, "lookup_handle": lookup_handle, "snapshot": snapshot,
                "matches": matches, "snapshot_lines": snapshot_text.count("\n") + 1}
    finally:
        page.close()


def swift_builds(option, default_path):
    """[(label, path)] of the axbench builds to measure the Swift client with."""
    if option is None:
        return [("swift", default_path)] if os.path.exists(default_path) else []
    if option == "none":
        return []
    builds = []
    for item in option.split(","):
        label, _, path = item.rpartition("=")
        builds.append((label or "swift", path))
    return builds


def load_average():
    with open("/proc/loadavg") as handle:
        return handle.read().split()[0]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--axserver", default=os.path.join(ROOT, ".build", "release", "axserver"))
    parser.add_argument("--chromium", default=shutil.which("chromium") or "/usr/bin/chromium")
    parser.add_argument("--sizes", default="1000,10000")
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--warmup", type=int, default=5)
    parser.add_argument("--swift-axbench", default=None,
                        help="axbench builds for the Swift client's figures, [LABEL=]PATH[,...] (default: the "
                             "release axbench beside --axserver when it exists; 'none' for none)")
    parser.add_argument("--no-python-client", action="store_true", help="skip the Python client's figures")
    args = parser.parse_args()
    axbenches = swift_builds(args.swift_axbench, os.path.join(os.path.dirname(args.axserver), "axbench"))

    try:
        from playwright.sync_api import sync_playwright
    except ImportError as error:
        print("playwright is not importable with %s: %s" % (sys.executable, error))
        return 0

    from importlib import metadata
    print("python %s, playwright %s, chromium %s, axserver %s" % (
        sys.version.split()[0], metadata.version("playwright"), args.chromium, args.axserver))
    sizes = [int(size) for size in args.sizes.split(",") if size.strip()]
    socket_dir = tempfile.mkdtemp(prefix="ax-bench-pw-")
    rows = []
    with sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=args.chromium, headless=True)
        print("browser version %s" % browser.version)
        try:
            for leaves in sizes:
                last_button = (leaves - 1) - ((leaves - 1) % 5)
                target_label = "Button %d" % last_button
                ours = measure_axserver(args.axserver, leaves, target_label, args.runs, args.warmup, socket_dir,
                                        axbenches, not args.no_python_client)
                theirs = measure_playwright(browser, leaves, target_label, args.runs, args.warmup)
                rows.append((leaves, target_label, ours, theirs))
        finally:
            browser.close()
    shutil.rmtree(socket_dir, ignore_errors=True)

    print()
    print("load average %s (1 min) at the end" % load_average())
    print("medians over %d runs (ms); ratio = AXServer / Playwright (goal <= 0.1)" % args.runs)
    header = "%7s  %-44s %10s %10s %8s" % ("N", "measure", "AXServer", "Playwright", "ratio")
    print(header)
    print("-" * len(header))
    for leaves, target_label, ours, theirs in rows:
        lines = [] if "lookup" not in ours else [
            ("query.one vs get_by_role().count()", ours["lookup"], theirs["lookup_count"]),
            ("query.one vs get_by_role().element_handle()", ours["lookup"], theirs["lookup_handle"]),
            ("tree.get vs aria_snapshot()", ours["snapshot"], theirs["snapshot"]),
            ("tree.get lean fields vs aria_snapshot", ours["lean"],
             theirs["snapshot"]),
            ("tree.get + every element read", ours["snapshot_read"], theirs["snapshot"]),
            ("tree.get lean + every element read", ours["lean_read"], theirs["snapshot"]),
        ]
        for label, swift in ours["swift"].items():
            lines += [("%s %s" % (label, title.split(" ", 1)[1]), swift[key], theirs["snapshot"])
                      for key, title in SWIFT_MEASURES]
        lines += [
            ("raw query.one vs get_by_role().count()", ours["raw_lookup"], theirs["lookup_count"]),
            ("raw tree.get json vs aria_snapshot()", ours["raw_snapshot"], theirs["snapshot"]),
            ("raw tree.get text vs aria_snapshot()", ours["raw_text"], theirs["snapshot"]),
        ]
        for label, mine, other in lines:
            print("%7d  %-44s %10.3f %10.3f %8.3f" % (leaves, label[:44], mine, other, mine / other))
        print("%7s  target %r: AXServer found %r; Playwright matches %d; tree.get count %s (%d bytes); "
              "aria_snapshot %d lines; Swift elements read %s" % (
                  "", target_label, ours.get("found"), theirs["matches"], ours.get("tree_count"), ours["tree_bytes"],
                  theirs["snapshot_lines"], {label: swift["elements_read"] for label, swift in ours["swift"].items()}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
