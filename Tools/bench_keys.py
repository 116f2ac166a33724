#!/usr/bin/python3
"""Key latency figures (issue 10): a forwarded key on AXServer vs a real X key on GTK4, and what `input.key` costs.

Usage: /usr/bin/python3 Tools/bench_keys.py [--presses N] [--json]
       (AXSERVER_BIN = the folder with axserver; default .build/release if built, else .build/debug)

One private stack with Xvfb (Tools/a11y-stack.sh), `axserver --demo` and the GTK4 twin (Tools/gtk4_demo_twin.py)
side by side, and a pyatspi listener process (its own GLib main loop) that stamps every `focus:` event with
CLOCK_MONOTONIC (the same clock as this process). The listener can also register a keystroke listener the way Orca
43 does (every modifier mask, press and release, synchronous, preemptive) that never consumes: that is "an AT
listening", which makes the registry hold every key until the listener answers, and makes AXServer forward
`input.key` to the registry's DeviceEventController (NotifyListenersSync) before acting on it.

Rows (p50 / p95 / mean over N presses, milliseconds):
  * ours   Tab via input.key → focus: event              (with and without the keystroke listener)
  * ours   focus.move next/previous → focus: event      (the server's focus move alone, no key path)
  * GTK4   Tab via XTEST (libXtst, no subprocess) → focus: event (with and without the keystroke listener)
  * RPC round trips: ping (no-op) and input.key with a key nobody handles ("h"), with and without the listener.
Tab presses zigzag over the tab bar (Home → Settings → Profile → Settings → Home …) so every press moves focus on
both sides (UIKit's Tab sequence does not wrap). A figure, not a timed test.
"""
import argparse
import ctypes
import json
import os
import select
import statistics
import subprocess
import sys
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
sys.path.insert(0, os.path.join(ROOT, "Tests", "Integration"))
if not os.environ.get("AXSERVER_BIN"):
    release = os.path.join(ROOT, ".build", "release")
    if os.path.exists(os.path.join(release, "axserver")):
        os.environ["AXSERVER_BIN"] = release

from harness import AXSERVER, RPC, A11yStack, start_server  # noqa: E402
import orca_transcript as ot  # noqa: E402

PY = "/usr/bin/python3"

LISTENER = r'''
import sys, time
import pyatspi
from gi.repository import GLib

def on_focus(event):
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
    return False          # never consume: an AT that listens and lets every key through

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

pyatspi.Registry.registerEventListener(on_focus, "focus:")
GLib.io_add_watch(sys.stdin, GLib.IO_IN | GLib.IO_HUP, on_stdin)
print("READY", flush=True)
# A plain GLib main loop: under pyatspi.Registry.start() (Atspi.event_main) every event reached Python about 10 ms
# late here (a raw Gio signal subscription in the same process too); libatspi dispatches on the default context.
loop = GLib.MainLoop()
loop.run()
'''


class ListenerProcess:
    """The pyatspi listener subprocess: reads its stdout for EVENT lines, writes commands to its stdin."""

    def __init__(self, env):
        self.p = subprocess.Popen([PY, "-c", LISTENER], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL, env=env, text=True, bufsize=1)
        self.pending = []
        self.read_until(lambda line: line == "READY", 30)

    def read_until(self, predicate, timeout):
        deadline = time.monotonic() + timeout
        while True:
            for index, line in enumerate(self.pending):
                if predicate(line):
                    del self.pending[:index + 1]
                    return line
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            ready, _, _ = select.select([self.p.stdout], [], [], left)
            if ready:
                line = self.p.stdout.readline()
                if not line:
                    return None
                self.pending.append(line.rstrip("\n"))

    def drain(self):
        while select.select([self.p.stdout], [], [], 0)[0]:
            line = self.p.stdout.readline()
            if not line:
                break
        self.pending = []

    def command(self, text):
        self.p.stdin.write(text + "\n")
        self.p.stdin.flush()
        if not self.read_until(lambda line: line == "OK " + text, 60):
            raise RuntimeError("listener did not confirm %r" % text)
        time.sleep(0.3)    # the registry tells the bridge about the (de)registration asynchronously

    def focus_event(self, app, since, timeout=2.0):
        """(monotonic stamp, element name) of the next focus: event from `app` stamped after `since`, or None."""
        def matches(line):
            fields = line.split("\t")
            return line.startswith("EVENT ") and len(fields) == 3 and fields[1] == app and \
                float(fields[0].split()[1]) >= since

        line = self.read_until(matches, timeout)
        if not line:
            return None
        head, _app, name = line.split("\t")
        return float(head.split()[1]), name

    def stop(self):
        try:
            self.p.stdin.close()
            self.p.wait(10)
        except Exception:
            self.p.kill()
            self.p.wait(5)


class XTest:
    """Real X key events through libXtst, in-process (no xdotool process start per key)."""

    def __init__(self, display):
        self.x11 = ctypes.CDLL("libX11.so.6")
        self.xtst = ctypes.CDLL("libXtst.so.6")
        self.x11.XOpenDisplay.restype = ctypes.c_void_p
        self.x11.XOpenDisplay.argtypes = [ctypes.c_char_p]
        self.x11.XStringToKeysym.restype = ctypes.c_ulong
        self.x11.XStringToKeysym.argtypes = [ctypes.c_char_p]
        self.x11.XKeysymToKeycode.restype = ctypes.c_ubyte
        self.x11.XKeysymToKeycode.argtypes = [ctypes.c_void_p, ctypes.c_ulong]
        self.x11.XFlush.argtypes = [ctypes.c_void_p]
        self.xtst.XTestFakeKeyEvent.argtypes = [ctypes.c_void_p, ctypes.c_uint, ctypes.c_int, ctypes.c_ulong]
        self.display = self.x11.XOpenDisplay(display.encode())
        if not self.display:
            raise RuntimeError("cannot open X display %s" % display)

    def code(self, name):
        return self.x11.XKeysymToKeycode(self.display, self.x11.XStringToKeysym(name.encode()))

    def key(self, name, shift=False):
        codes = ([self.code("Shift_L")] if shift else []) + [self.code(name)]
        for code in codes:
            self.xtst.XTestFakeKeyEvent(self.display, code, 1, 0)
        for code in reversed(codes):
            self.xtst.XTestFakeKeyEvent(self.display, code, 0, 0)
        self.x11.XFlush(self.display)


def stats(samples):
    if not samples:
        return None
    ordered = sorted(samples)
    p95 = ordered[min(len(ordered) - 1, int(round(0.95 * (len(ordered) - 1))))]
    return {"n": len(ordered), "p50": statistics.median(ordered) * 1000, "p95": p95 * 1000,
            "mean": statistics.fmean(ordered) * 1000}


ZIGZAG = [False, False, True, True]     # Tab, Tab, Shift+Tab, Shift+Tab: Home → Settings → Profile → Settings → Home


def zigzag_latency(press, listener, app, presses):
    """Times press(shift) → the pyatspi focus: callback of `app`; returns (samples, misses)."""
    samples = []
    misses = 0
    for index in range(presses):
        shift = ZIGZAG[index % len(ZIGZAG)]
        time.sleep(0.05)
        listener.drain()
        started = time.monotonic()
        press(shift)
        event = listener.focus_event(app, started)
        if event is None:
            misses += 1
        else:
            samples.append(event[0] - started)
    return samples, misses


def latency_rows(rows, label, press, listener, app, presses):
    samples, misses = zigzag_latency(press, listener, app, presses)
    rows.append((label + " → focus:", stats(samples), misses))


def round_trips(rpc, method, params, count):
    samples = []
    for _ in range(count):
        started = time.monotonic()
        reply = rpc.call(method, params)
        samples.append(time.monotonic() - started)
        if "error" in reply:
            return None, reply["error"]
    return samples, None


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--presses", type=int, default=60)
    parser.add_argument("--round-trips", type=int, default=500)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if args.presses < 1 or args.presses > 10000 or args.round_trips < 1 or args.round_trips > 100000:
        parser.error("--presses 1…10000, --round-trips 1…100000")

    rows = []
    stack = A11yStack(xvfb=True, private_home=True)
    server = twin = listener = rpc = None
    try:
        server, sock, _tmp = start_server("--demo", env=stack.env, atspi=True)
        rpc = RPC(sock, timeout=20)
        rpc.result("initialize", {"role": "automation"})
        twin = ot.start_twin(stack)
        listener = ListenerProcess(stack.env)
        xtest = XTest(stack.env["DISPLAY"])
        ot.XKeys(stack.env)     # gives the twin's window the X input focus
        probe = rpc.call("input.key", {"key": ""})
        has_input_key = probe.get("error", {}).get("code") != -32601

        def ours_to_home():
            rpc.result("focus.update", {"target": {"id": "tabHome"}})
            time.sleep(0.2)

        def gtk_to_home():
            for _ in range(40):
                listener.drain()
                xtest.key("Tab")
                event = listener.focus_event(ot.TWIN_APP, 0.0)
                if event and event[1] == "Home":
                    return True
            return False

        def ours_key(shift):
            reply = rpc.call("input.key", {"key": "Tab", "modifiers": ["shift"] if shift else []})
            if "error" in reply:
                raise RuntimeError("input.key: %s" % reply["error"])

        def ours_move(shift):
            rpc.result("focus.move", {"direction": "previous" if shift else "next"})

        for keystrokes in (False, True):
            listener.command("keys on" if keystrokes else "keys off")
            label = "AT keystroke listener" if keystrokes else "no AT listening"
            if has_input_key:
                ours_to_home()
                latency_rows(rows, "ours: Tab via input.key (%s)" % label, ours_key, listener, ot.DEMO_APP,
                             args.presses)
            else:
                rows.append(("ours: Tab via input.key (%s)" % label, None, "input.key missing (-32601)"))
            ours_to_home()
            latency_rows(rows, "ours: focus.move (%s)" % label, ours_move, listener, ot.DEMO_APP, args.presses)
            if gtk_to_home():
                latency_rows(rows, "GTK4: Tab via XTEST (%s)" % label, lambda shift: xtest.key("Tab", shift),
                             listener, ot.TWIN_APP, args.presses)
            else:
                rows.append(("GTK4: Tab via XTEST (%s)" % label, None, "focus never reached Home"))
            samples, error = round_trips(rpc, "ping", None, args.round_trips)
            rows.append(("RPC round trip: ping (%s)" % label, stats(samples), error or 0))
            if has_input_key:
                samples, error = round_trips(rpc, "input.key", {"key": "h"}, args.round_trips)
                rows.append(("RPC round trip: input.key h (%s)" % label, stats(samples), error or 0))
            else:
                rows.append(("RPC round trip: input.key h (%s)" % label, None, "input.key missing (-32601)"))
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
    print("key latency (%s, %s; %d presses, %d round trips; ms)" % (AXSERVER, time.strftime("%Y-%m-%d %H:%M"),
                                                                    args.presses, args.round_trips))
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
