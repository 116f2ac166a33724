#!/usr/bin/python3
"""`org.freedesktop.DBus.Peer.Ping` latency while a provider patches at full speed (issue 21 item 6, Speed).

Usage: /usr/bin/python3 Tools/bench_ping_load.py [--seconds S] [--interval-ms I] [--window W] [--json]
       (AXSERVER_BIN = the folder with axserver; default .build/release if built, else .build/debug)

at-spi2-core ≥ 2.60.1's registry pings every registered application (`Peer.Ping` on path "/" at the app's bus
name, every 30 s, 10 s timeout) and stops listing an application as a child of the desktop while its ping fails
(registryd/registry.c `ping_applications`, commit b4788dc7). This benchmark starts a private stack
(Tools/a11y-stack.sh), `axserver serve` with AT-SPI, a pyatspi process listening to every `object:` event (so the
bridge emits what it would emit to Orca), and a JSON-RPC provider app ("pingload", 200 labelled cells) that sends
`hierarchy.update` as fast as the server accepts them (W requests in flight, each changing every cell's label).
Meanwhile this process pings the app's bus name on the accessibility bus every I ms over GDBus, as the registry
does, and reports the ping round trip (p50 / p95 / p99 / max, ms), the number of pings that took ≥ 10 s (the
registry would hide the app) and the patch rate. A figure, not a timed test; the target is p99 ≤ 50 ms.
"""
import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import threading
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
sys.path.insert(0, os.path.join(ROOT, "Tests", "Integration"))
if not os.environ.get("AXSERVER_BIN"):
    release = os.path.join(ROOT, ".build", "release")
    if os.path.exists(os.path.join(release, "axserver")):
        os.environ["AXSERVER_BIN"] = release

from harness import AXSERVER, A11yStack, start_server  # noqa: E402

PY = "/usr/bin/python3"
APP = "pingload"
CELLS = 200

LISTENER = r'''
import sys
import pyatspi
from gi.repository import GLib
count = [0]
def on_event(event):
    count[0] += 1
for kind in ("object:", "window:", "focus:"):
    pyatspi.Registry.registerEventListener(on_event, kind)
def report():
    print("EVENTS %d" % count[0], flush=True)
    return True
GLib.timeout_add(1000, report)
print("READY", flush=True)
GLib.MainLoop().run()
'''


def hierarchy(generation):
    cells = [{"id": "c%d" % i, "class": "UITableViewCell", "frame": [0, 20 * i, 400, 20],
              "accessibilityLabel": "Row %d" % i} for i in range(CELLS)]
    return {"windows": [{"id": "w", "class": "UIWindow", "frame": [0, 0, 800, 600], "isKeyWindow": True,
                         "title": "Ping load", "children": [
                             {"id": "list", "class": "UITableView", "frame": [0, 0, 400, 600],
                              "children": cells}]}]}


class Provider:
    """A JSON-RPC provider that patches every cell's label with W `hierarchy.update` requests in flight."""

    def __init__(self, path, window):
        self.s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.s.connect(path)
        self.buf = b""
        self.window = window
        self.updates = 0
        self.errors = 0
        self.stop = threading.Event()
        self.call(1, "initialize", {"role": "provider", "clientInfo": {"name": APP}})
        self.call(2, "app.register", {"name": APP})
        self.call(3, "hierarchy.set", hierarchy(0))

    def send(self, ident, method, params):
        self.s.sendall((json.dumps({"jsonrpc": "2.0", "id": ident, "method": method, "params": params}) + "\n")
                       .encode())

    def read(self):
        while b"\n" not in self.buf:
            chunk = self.s.recv(1 << 20)
            if not chunk:
                raise EOFError
            self.buf += chunk
        line, self.buf = self.buf.split(b"\n", 1)
        return json.loads(line)

    def call(self, ident, method, params):
        self.send(ident, method, params)
        while True:
            message = self.read()
            if message.get("id") == ident:
                if "error" in message:
                    raise RuntimeError("%s: %s" % (method, message["error"]))
                return message.get("result")

    def update(self, generation):
        ops = [{"op": "set", "id": "c%d" % i, "properties": {"accessibilityLabel": "Row %d · %d" % (i, generation)}}
               for i in range(CELLS)]
        self.send("u%d" % generation, "hierarchy.update", {"ops": ops})

    def run(self):
        generation = 0
        in_flight = 0
        while not self.stop.is_set():
            while in_flight < self.window:
                generation += 1
                self.update(generation)
                in_flight += 1
            message = self.read()
            if str(message.get("id", "")).startswith("u"):
                in_flight -= 1
                self.updates += 1
                self.errors += "error" in message
        while in_flight:
            message = self.read()
            in_flight -= str(message.get("id", "")).startswith("u")


def app_bus_name(conn, Gio, GLib, timeout=30):
    """The bus name of the application named APP among the registry's children."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        children = conn.call_sync("org.a11y.atspi.Registry", "/org/a11y/atspi/accessible/root",
                                  "org.a11y.atspi.Accessible", "GetChildren", None, GLib.VariantType("(a(so))"),
                                  Gio.DBusCallFlags.NONE, 5000, None).unpack()[0]
        for bus_name, path in children:
            try:
                name = conn.call_sync(bus_name, path, "org.freedesktop.DBus.Properties", "Get",
                                      GLib.Variant("(ss)", ("org.a11y.atspi.Accessible", "Name")), None,
                                      Gio.DBusCallFlags.NONE, 5000, None).unpack()[0]
            except GLib.Error:
                continue
            if name == APP:
                return bus_name
        time.sleep(0.1)
    raise AssertionError("the provider app never appeared among the registry's children")


def percentile(ordered, fraction):
    return ordered[min(len(ordered) - 1, int(round(fraction * (len(ordered) - 1))))]


def measure(args):
    import gi
    gi.require_version("Gio", "2.0")
    from gi.repository import Gio, GLib
    stack = A11yStack()
    server = listener = provider = None
    try:
        server, sock, _ = start_server(atspi=True, env=stack.env)
        listener = subprocess.Popen([PY, "-c", LISTENER], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                    env=stack.env, text=True)
        assert listener.stdout.readline().startswith("READY")
        provider = Provider(sock, args.window)
        conn = Gio.DBusConnection.new_for_address_sync(
            stack.env["AT_SPI_BUS_ADDRESS"],
            Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION,
            None, None)
        bus_name = app_bus_name(conn, Gio, GLib)
        worker = threading.Thread(target=provider.run, daemon=True)
        worker.start()
        time.sleep(0.5)  # the provider reaches full speed
        samples, hidden, registry_samples = [], 0, []
        end = time.monotonic() + args.seconds
        started_updates = provider.updates
        started = time.monotonic()
        while time.monotonic() < end:
            begin = time.monotonic()
            try:
                conn.call_sync(bus_name, "/", "org.freedesktop.DBus.Peer", "Ping", None, None,
                               Gio.DBusCallFlags.NONE, 10000, None)
            except GLib.Error:
                hidden += 1
            samples.append((time.monotonic() - begin) * 1000)
            begin = time.monotonic()
            conn.call_sync("org.a11y.atspi.Registry", "/", "org.freedesktop.DBus.Peer", "Ping", None, None,
                           Gio.DBusCallFlags.NONE, 10000, None)
            registry_samples.append((time.monotonic() - begin) * 1000)
            time.sleep(args.interval_ms / 1000)
        elapsed = time.monotonic() - started
        updates = provider.updates - started_updates
        provider.stop.set()
        worker.join(30)
        ordered = sorted(samples)
        registry = sorted(registry_samples)
        return {"registry_p50": statistics.median(registry), "registry_max": registry[-1],"pings": len(ordered), "p50": statistics.median(ordered), "p95": percentile(ordered, 0.95),
                "p99": percentile(ordered, 0.99), "max": ordered[-1], "failed_or_10s": hidden,
                "updates_per_s": updates / elapsed, "cells_per_update": CELLS, "provider_errors": provider.errors,
                "server": AXSERVER}
    finally:
        if listener:
            listener.kill()
            listener.wait()
        if server:
            server.stop()
        stack.stop()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--interval-ms", type=float, default=10)
    parser.add_argument("--window", type=int, default=8, help="hierarchy.update requests in flight")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    result = measure(args)
    if args.json:
        print(json.dumps(result))
        return
    print("Peer.Ping while a provider patches at full speed (%s)" % result["server"])
    print("  pings %d: p50 %.2f ms, p95 %.2f ms, p99 %.2f ms, max %.2f ms; failed or ≥ 10 s: %d"
          % (result["pings"], result["p50"], result["p95"], result["p99"], result["max"], result["failed_or_10s"]))
    print("  the registry's own Ping on the same bus (the bus daemon's share): p50 %.2f ms, max %.2f ms"
          % (result["registry_p50"], result["registry_max"]))
    print("  provider: %.0f hierarchy.update/s (%d cells relabelled each), errors %d"
          % (result["updates_per_s"], result["cells_per_update"], result["provider_errors"]))


if __name__ == "__main__":
    main()
