#!/usr/bin/env python3
"""`axquery mcp` against Playwright on the same content: snapshot sizes, the size of a click's answer, the cost of a
tool call over the JSON-RPC call under it, and the snapshot's time. Prints figures and asserts nothing.

For each N the server serves the bench tree of N leaf controls (`axserver dump --bench-tree N --snapshot`, the shape of
Sources/AXDemo/BenchTree.swift) from a provider in this process whose switches toggle when clicked, and
`axquery mcp --socket S` is driven with raw JSON-RPC lines (no MCP SDK on the measured path). With the `playwright`
package (PyPI) and a Chromium (Debian's /usr/bin/chromium; nothing is downloaded), the equal page of
Tools/bench_playwright.py is loaded and `aria_snapshot()` (the default YAML) and `aria_snapshot(mode="ai")` (the form
Playwright MCP's browser_snapshot sends, with [ref=eN]) are measured on it; without them the Playwright columns say so.

Measured (medians of --runs after --warmup):
  * snapshot bytes: full detail (maxNodes/maxBytes 10^7) and the default budget, against Playwright's two forms;
  * click answer bytes: `click` on one switch (one element changes);
  * tool-call overhead: `find` (one match) through axquery mcp minus `query.find` on a raw socket, p50;
  * snapshot time: `snapshot` (default budget, full) through axquery mcp, and the server's share: the calls it
    makes (`tree.get` 3 levels deep + `apps.list`; the whole `tree.get` for full) on a raw socket, to the last byte.

The demo (`axserver --demo`) is measured too: its full and default snapshot and a click's answer, against
Playwright's `mode="ai"` snapshot of DEMO_PAGE, the same screen in HTML (the same elements, roles, labels, values
and states; a header per section, the segmented control a radio group, the tab bar a tab list).

Usage: python3 Tools/bench_mcp.py [--bin DIR] [--sizes 1000,10000] [--runs 30] [--chromium PATH]
"""
import argparse
import json
import os
import select
import socket
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(ROOT, "Sources", "PythonClient"))
sys.path.insert(0, HERE)

from axclient import Provider  # noqa: E402
from bench_lines import LineReader  # noqa: E402


class RawSocket:
    """JSON-RPC lines on the server's Unix socket; replies are read to their newline and not decoded."""

    def __init__(self, path):
        self.conn = socket.socket(socket.AF_UNIX)
        self.conn.connect(path)
        self.lines = LineReader(self.conn)
        self.next_id = 0
        self.call("initialize", {"role": "automation"})

    def call(self, method, params):
        self.next_id += 1
        self.conn.sendall(json.dumps({"jsonrpc": "2.0", "id": self.next_id, "method": method,
                                      "params": params}).encode() + b"\n")
        return self.lines.read_line()


class RawMCP:
    """`axquery mcp` with raw JSON-RPC lines."""

    def __init__(self, axquery, socket_path, app):
        self.process = subprocess.Popen([axquery, "mcp", "--socket", socket_path, "--app", app],
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        self.next_id = 0
        self.call("initialize", {"protocolVersion": "2025-11-25"}, method="initialize")

    def call(self, name, arguments, method="tools/call"):
        self.next_id += 1
        params = arguments if method != "tools/call" else {"name": name, "arguments": arguments}
        self.process.stdin.write(json.dumps({"jsonrpc": "2.0", "id": self.next_id, "method": method,
                                             "params": params}).encode() + b"\n")
        self.process.stdin.flush()
        return self.process.stdout.readline()

    def text(self, name, arguments):
        reply = json.loads(self.call(name, arguments))
        return reply["result"]["content"][0]["text"]

    def close(self):
        self.process.stdin.close()
        self.process.wait(timeout=10)


def median_ms(action, runs, warmup):
    for _ in range(warmup):
        action()
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        action()
        samples.append((time.perf_counter() - start) * 1000)
    return statistics.median(samples)


# The demo's settings screen (Sources/AXDemo/DemoApp.swift) in HTML, element for element.
DEMO_PAGE = """<!doctype html><html><head><title>Settings</title></head><body>
<h1>Accessibility</h1><button>General</button><button>Edit</button>
<h2>Connectivity</h2>
<input type="checkbox" role="switch" aria-label="Wi-Fi" checked>
<input type="checkbox" role="switch" aria-label="Bluetooth">
<button>Display &amp; Brightness</button><button>About, AXServer</button>
<p>Toggles apply immediately.</p>
<h2>Preferences</h2>
<input type="range" aria-label="Text Size" min="0" max="100" value="50">
<input type="number" aria-label="Copies" min="1" max="10" value="2">
<div role="radiogroup" aria-label="Appearance"><button role="radio" aria-checked="true">Light</button>
<button role="radio" aria-checked="false">Dark</button><button role="radio" aria-checked="false">Automatic</button></div>
<input type="text" aria-label="Device Name">
<img alt="Profile photo" width="40" height="40" src="data:image/gif;base64,R0lGODlhAQABAAAAACw=">
<p>Uptime 0 s</p>
<button>Reset All Settings</button><a href="#help">Help</a>
<div role="tablist"><button role="tab" aria-selected="false">Home</button>
<button role="tab" aria-selected="true">Settings</button><button role="tab" aria-selected="false">Profile</button></div>
</body></html>"""


def playwright_sizes(leaves, chromium):
    """(default bytes, ai-mode bytes, note) of Playwright's aria snapshots of the equal page (leaves None: the demo
    page), or a reason."""
    try:
        from playwright.sync_api import sync_playwright
        from bench_playwright import bench_page
    except ImportError as error:
        return None, None, "playwright not importable: %s" % error
    if not os.access(chromium, os.X_OK):
        return None, None, "no Chromium at %s" % chromium
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
        page = browser.new_page()
        page.set_content(DEMO_PAGE if leaves is None else bench_page(leaves))
        body = page.locator("body")
        default = body.aria_snapshot()
        ai = body.aria_snapshot(mode="ai")
        started = time.perf_counter()
        body.aria_snapshot(mode="ai")
        ai_ms = (time.perf_counter() - started) * 1000
        version = browser.version
        browser.close()
    return len(default.encode()), len(ai.encode()), "Chromium %s, ai snapshot %.0f ms" % (version, ai_ms)


def demo_figures(axserver, axquery, chromium, show):
    """The demo's snapshot and click sizes beside Playwright's snapshot of DEMO_PAGE."""
    directory = tempfile.mkdtemp(prefix="axbench-mcp-")
    os.chmod(directory, 0o700)
    socket_path = os.path.join(directory, "ax.sock")
    server = subprocess.Popen([axserver, "serve", "--demo", "--no-atspi", "--socket", socket_path],
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    assert server.stdout.readline().startswith(b"READY")
    mcp = RawMCP(axquery, socket_path, "axserver-demo")
    try:
        full = mcp.text("snapshot", {"maxNodes": 10_000_000, "maxBytes": 10_000_000})
        default = mcp.text("snapshot", {})
        click = mcp.text("click", {"selector": 'switch[label="Bluetooth"]'})
    finally:
        mcp.close()
        server.terminate()
        server.wait(timeout=10)
    _, pw_ai, note = playwright_sizes(None, chromium)
    full_bytes = len(full.encode())
    print("demo (axserver --demo, %d lines); load %.2f %.2f %.2f" % ((full.count("\n"),) + os.getloadavg()))
    print("  snapshot, full detail:     %9d bytes" % full_bytes)
    if pw_ai:
        print("  Playwright mode='ai':      %9d bytes  (ours %.2fx; DEMO_PAGE)" % (pw_ai, full_bytes / pw_ai))
    print("  Playwright: %s" % note)
    print("  snapshot, default budget:  %9d bytes" % len(default.encode()))
    print("  click answer (Bluetooth):  %9d bytes  %r" % (len(click.encode()), click))
    if show:
        print("  full snapshot text:\n    " + "\n    ".join(full.splitlines()))
    sys.stdout.flush()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bin", default=os.path.join(ROOT, ".build", "release"))
    parser.add_argument("--sizes", default="1000,10000")
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--warmup", type=int, default=5)
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    parser.add_argument("--show", action="store_true", help="print the demo's full snapshot text")
    args = parser.parse_args()
    axserver = os.path.join(args.bin, "axserver")
    axquery = os.path.join(args.bin, "axquery")
    demo_figures(axserver, axquery, args.chromium, args.show)
    for leaves in [int(n) for n in args.sizes.split(",")]:
        directory = tempfile.mkdtemp(prefix="axbench-mcp-")
        os.chmod(directory, 0o700)
        socket_path = os.path.join(directory, "ax.sock")
        snapshot = json.loads(subprocess.run([axserver, "dump", "--bench-tree", str(leaves), "--snapshot"],
                                             capture_output=True, check=True).stdout)
        server = subprocess.Popen([axserver, "serve", "--no-atspi", "--socket", socket_path],
                                  stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        assert server.stdout.readline().startswith(b"READY")
        switches = {}

        def on_action(request):
            if request.action == "activate" and request.target in switches:
                switches[request.target] = not switches[request.target]
                provider.set_properties(request.target, isOn=switches[request.target])
                return True
            return False

        def collect(view):
            if view.get("class") == "UISwitch":
                switches[view["id"]] = bool(view.get("isOn"))
            for child in view.get("children", []):
                collect(child)

        for window in snapshot["windows"]:
            collect(window)
        provider = Provider("bench-mcp", socket_path, on_action=on_action)
        provider.set_hierarchy(snapshot["windows"])
        mcp = RawMCP(axquery, socket_path, provider.app)
        raw = RawSocket(socket_path)
        try:
            full = mcp.text("snapshot", {"maxNodes": 10_000_000, "maxBytes": 10_000_000})
            default = mcp.text("snapshot", {})
            click = mcp.text("click", {"ref": "n2"})
            button = 'button[label="Button %d"]' % (leaves - 5)
            find_ms = median_ms(lambda: mcp.call("find", {"selector": button}), args.runs, args.warmup)
            raw_find_ms = median_ms(lambda: raw.call("query.find", {"selector": button, "limit": 51,
                                                                    "app": provider.app}),
                                    args.runs, args.warmup)
            snapshot_ms = median_ms(lambda: mcp.call("snapshot", {}), args.runs, args.warmup)
            full_ms = median_ms(lambda: mcp.call("snapshot", {"maxNodes": 10_000_000, "maxBytes": 10_000_000}),
                                max(5, args.runs // 3), 2)
            tree_ms = median_ms(lambda: raw.call("tree.get", {"format": "json", "app": provider.app}),
                                args.runs, args.warmup)
            tree_bytes = len(raw.call("tree.get", {"format": "json", "app": provider.app}))
            # What the default snapshot asks the server for (Sources/AXMCP: 3 levels, maxChildren 301, + apps.list).
            cut_ms = median_ms(lambda: (raw.call("tree.get", {"format": "json", "app": provider.app, "depth": 3,
                                                              "maxChildren": 301}),
                                        raw.call("apps.list", {})), args.runs, args.warmup)
        finally:
            mcp.close()
            raw.conn.close()
            provider.close()
            server.terminate()
            server.wait(timeout=10)
        pw_default, pw_ai, note = playwright_sizes(leaves, args.chromium)
        full_bytes = len(full.encode())
        print("N=%d controls (%d lines in the full snapshot); load %.2f %.2f %.2f"
              % ((leaves, full.count("\n")) + os.getloadavg()))
        print("  snapshot, full detail:     %9d bytes" % full_bytes)
        if pw_default:
            print("  Playwright aria_snapshot:  %9d bytes  (ours %.2fx)" % (pw_default, full_bytes / pw_default))
            print("  Playwright mode='ai':      %9d bytes  (ours %.2fx; what Playwright MCP sends)"
                  % (pw_ai, full_bytes / pw_ai))
        print("  Playwright: %s" % note)
        print("  snapshot, default budget:  %9d bytes  truncated marker: %s"
              % (len(default.encode()), "[truncated:" in default))
        print("  click answer (1 switch):   %9d bytes  %r" % (len(click.encode()), click))
        print("  tree.get json reply:       %9d bytes" % tree_bytes)
        print("  find via MCP p50 %.3f ms, query.find raw p50 %.3f ms: overhead %.3f ms"
              % (find_ms, raw_find_ms, find_ms - raw_find_ms))
        print("  snapshot (default) via MCP p50 %.1f ms (server share: tree.get depth 3 + apps.list raw p50 %.1f ms)"
              % (snapshot_ms, cut_ms))
        print("  snapshot (full) via MCP p50 %.1f ms (server share: tree.get json raw p50 %.1f ms)" % (full_ms, tree_ms))
        print("  default snapshot text:\n    " + "\n    ".join(default.splitlines()[:8]) + "\n    …\n    "
              + default.splitlines()[-1])
        sys.stdout.flush()


if __name__ == "__main__":
    main()
