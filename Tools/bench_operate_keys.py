#!/usr/bin/python3
"""Latency of keys that operate a control (issue 21, Speed): a forwarded arrow on a slider → `object:value-changed`
(or `property-change:accessible-value`) at a pyatspi listener, and a typed character → `object:text-changed:insert`,
on AXServer (`input.key`) and on GTK4 (real X keys through XTEST) in the same run, with and without an AT keystroke
listener registered the way Orca 43 registers (so every key waits for the AT before it acts).

Usage: /usr/bin/python3 Tools/bench_operate_keys.py [--presses N] [--json]
       (AXSERVER_BIN = the folder with axserver; default .build/release if built, else .build/debug)

Rows (p50 / p95 / mean, ms): ours/GTK4 × slider arrow / typed character × AT listening or not. The slider presses
alternate Right and Left, the typed character alternates with BackSpace (only the character is timed). A figure,
not a timed test. Reuses Tools/bench_keys.py's XTEST driver and statistics. GTK 4.8's GtkScale changes its value on
Right/Left (Value.CurrentValue 50 → 60) but emits no AT-SPI event for it, so its slider rows show only misses: Orca
hears a GTK4 slider's new value only by re-reading it.
"""
import argparse
import json
import os
import select
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import bench_keys as bk  # noqa: E402  (sets AXSERVER_BIN and the import path of the integration helpers)
from harness import AXSERVER, RPC, A11yStack, start_server  # noqa: E402
import orca_transcript as ot  # noqa: E402

LISTENER = r'''
import sys, time
import pyatspi
from gi.repository import GLib

def on_event(event):
    stamp = time.monotonic()
    try:
        app = event.host_application.name if event.host_application else ""
    except Exception:
        app = ""
    try:
        name = event.source.name
    except Exception:
        name = "?"
    print("EVENT %.6f %s\t%s\t%s" % (stamp, event.type, app, name), flush=True)

def on_key(event):
    return False

listening = [False]
MASKS = list(range(256))
KINDS = (pyatspi.KEY_PRESSED_EVENT, pyatspi.KEY_RELEASED_EVENT)

def on_stdin(source, condition):
    line = sys.stdin.readline()
    if not line:
        loop.quit()
        return False
    command = line.strip()
    if command == "keys on" and not listening[0]:
        pyatspi.Registry.registerKeystrokeListener(on_key, mask=MASKS, kind=KINDS, synchronous=True, preemptive=True)
        listening[0] = True
    elif command == "keys off" and listening[0]:
        pyatspi.Registry.deregisterKeystrokeListener(on_key, mask=MASKS, kind=KINDS)
        listening[0] = False
    print("OK " + command, flush=True)
    return True

for kind in ("focus:", "object:value-changed", "object:property-change:accessible-value",
             "object:text-changed:insert", "object:text-changed:delete"):
    pyatspi.Registry.registerEventListener(on_event, kind)
GLib.io_add_watch(sys.stdin, GLib.IO_IN | GLib.IO_HUP, on_stdin)
print("READY", flush=True)
loop = GLib.MainLoop()
loop.run()
'''


class Listener(bk.ListenerProcess):
    def __init__(self, env):
        self.p = subprocess.Popen([bk.PY, "-c", LISTENER], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL, env=env, text=True, bufsize=1)
        self.pending = []
        self.read_until(lambda line: line == "READY", 30)

    def event(self, app, kinds, since, timeout=2.0):
        """(stamp, type, name) of the next event of one of `kinds` from `app` after `since`, or None."""
        def matches(line):
            fields = line.split("\t")
            if not line.startswith("EVENT ") or len(fields) != 3 or fields[1] != app:
                return False
            _, stamp, kind = fields[0].split(" ", 2)
            return float(stamp) >= since and any(kind.startswith(k) for k in kinds)

        line = self.read_until(matches, timeout)
        if not line:
            return None
        head, _app, name = line.split("\t")
        _, stamp, kind = head.split(" ", 2)
        return float(stamp), kind, name


VALUE = ("object:value-changed", "object:property-change:accessible-value")
INSERT = ("object:text-changed:insert",)
DELETE = ("object:text-changed:delete",)


def measure(press, listener, app, kinds, presses, between=None):
    samples, misses = [], 0
    for index in range(presses):
        time.sleep(0.05)
        listener.drain()
        started = time.monotonic()
        press(index)
        event = listener.event(app, kinds, started)
        if event is None:
            misses += 1
        else:
            samples.append(event[0] - started)
        if between:
            time.sleep(0.05)
            listener.drain()
            mark = time.monotonic()
            between(index)
            listener.event(app, DELETE, mark)
    return bk.stats(samples), misses


def gtk_focus(listener, xtest, name, limit=40):
    for _ in range(limit):
        listener.drain()
        mark = time.monotonic()
        xtest.key("Tab")
        event = listener.event(ot.TWIN_APP, ("focus:",), mark)
        if event and event[2] == name:
            return True
    return False


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--presses", type=int, default=40)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if not 1 <= args.presses <= 10000:
        parser.error("--presses 1…10000")
    rows = []
    stack = A11yStack(xvfb=True, private_home=True)
    server = twin = listener = rpc = None
    try:
        server, sock, _tmp = start_server("--demo", env=stack.env, atspi=True)
        rpc = RPC(sock, timeout=20)
        rpc.result("initialize", {"role": "automation"})
        twin = ot.start_twin(stack)
        listener = Listener(stack.env)
        xtest = bk.XTest(stack.env["DISPLAY"])
        ot.XKeys(stack.env)     # gives the twin's window the X input focus

        def ours_key(name):
            reply = rpc.call("input.key", {"key": name})
            if "error" in reply:
                raise RuntimeError("input.key: %s" % reply["error"])

        for keystrokes in (False, True):
            listener.command("keys on" if keystrokes else "keys off")
            label = "AT keystroke listener" if keystrokes else "no AT listening"
            rpc.result("focus.update", {"target": {"id": "textSize"}})
            figures, misses = measure(lambda i: ours_key("Right" if i % 2 == 0 else "Left"), listener,
                                      ot.DEMO_APP, VALUE, args.presses)
            rows.append(("ours: slider Right/Left via input.key → value event (%s)" % label, figures, misses))
            rpc.result("focus.update", {"target": {"id": "nameField"}})
            figures, misses = measure(lambda i: ours_key("a"), listener, ot.DEMO_APP, INSERT, args.presses,
                                      between=lambda i: ours_key("BackSpace"))
            rows.append(("ours: typed 'a' via input.key → text-changed:insert (%s)" % label, figures, misses))
            if gtk_focus(listener, xtest, "Text Size"):
                figures, misses = measure(lambda i: xtest.key("Right" if i % 2 == 0 else "Left"), listener,
                                          ot.TWIN_APP, VALUE, args.presses)
                rows.append(("GTK4: slider Right/Left via XTEST → value event (%s)" % label, figures, misses))
            else:
                rows.append(("GTK4: slider (%s)" % label, None, "focus never reached Text Size"))
            if gtk_focus(listener, xtest, "Device Name"):
                figures, misses = measure(lambda i: xtest.key("a"), listener, ot.TWIN_APP, INSERT, args.presses,
                                          between=lambda i: xtest.key("BackSpace"))
                rows.append(("GTK4: typed 'a' via XTEST → text-changed:insert (%s)" % label, figures, misses))
            else:
                rows.append(("GTK4: typed 'a' (%s)" % label, None, "focus never reached Device Name"))
    finally:
        if listener:
            listener.stop()
        if rpc:
            rpc.close()
        for proc in (twin, server):
            if proc:
                proc.stop()
        stack.stop()

    if args.json:
        print(json.dumps([{"row": name, "stats": figures, "misses": misses} for name, figures, misses in rows]))
        return
    print("operating-key latency (%s, %s; %d presses; ms)" % (AXSERVER, time.strftime("%Y-%m-%d %H:%M"),
                                                              args.presses))
    print("| path | n | p50 | p95 | mean | misses |")
    print("|---|---:|---:|---:|---:|---|")
    for name, figures, misses in rows:
        if figures:
            print("| %s | %d | %.3f | %.3f | %.3f | %s |" % (name, figures["n"], figures["p50"], figures["p95"],
                                                             figures["mean"], misses))
        else:
            print("| %s | – | – | – | – | %s |" % (name, misses))


if __name__ == "__main__":
    main()
