"""A keystroke listener like a screen reader's, for test_keys.py: registers with the registry's
DeviceEventController through pyatspi (pyatspi.Registry.registerKeystrokeListener, synchronous and
preemptive, every key, the modifier masks none/shift/control/alt), prints one JSON line per key it hears and
answers "consumed" for the keys named in --consume. A key named in --hang is never answered in time: the
callback sleeps --hang-seconds, so the registry's NotifyEvent call times out.

Run with /usr/bin/python3 (pyatspi) in the private stack's environment; prints READY once registered.
"""
import argparse
import json
import sys
import time

import pyatspi
from gi.repository import GLib

parser = argparse.ArgumentParser()
parser.add_argument("--consume", default="", help="comma-separated event strings to consume")
parser.add_argument("--hang", default="", help="comma-separated event strings not to answer in time")
parser.add_argument("--hang-seconds", type=float, default=8.0)
args = parser.parse_args()
consume = set(filter(None, args.consume.split(",")))
hang = set(filter(None, args.hang.split(",")))


def on_key(event):
    name = event.event_string
    out = {"type": "press" if event.type == pyatspi.KEY_PRESSED_EVENT else "release", "id": event.id,
           "hw_code": event.hw_code, "modifiers": event.modifiers, "event_string": name,
           "is_text": bool(event.is_text), "consumed": name in consume, "hung": name in hang}
    sys.stdout.write(json.dumps(out) + "\n")
    sys.stdout.flush()
    if name in hang:
        time.sleep(args.hang_seconds)
    return name in consume


MASKS = [0, 1, 4, 8]
pyatspi.Registry.registerKeystrokeListener(on_key, mask=MASKS, synchronous=True, preemptive=True)


def quit_cleanly():
    """SIGTERM: deregister first, as Orca does on exit (the registry keeps a dead listener otherwise)."""
    pyatspi.Registry.deregisterKeystrokeListener(on_key, mask=MASKS)
    pyatspi.Registry.stop()
    return False


GLib.unix_signal_add(GLib.PRIORITY_HIGH, 15, quit_cleanly)
GLib.idle_add(lambda: (sys.stdout.write("READY\n"), sys.stdout.flush(), False)[2])
pyatspi.Registry.start()
