#!/usr/bin/python3
"""A libatspi client that keeps its cache (runs Atspi.event_main, listens to object: and window: events as Orca does)
and walks the app from that cache on request: the test side of test_atspi_cache_calls.CacheStaysValid.

Usage: /usr/bin/python3 atspi_cached_client.py APP.  Lines on stdin:
  dump             walk now; prints {"dump": [lines]}
  wait EVENT_TYPE  prints {"armed": true}, then, after the first event whose type starts with EVENT_TYPE and
                   everything already received behind it, walks; prints {"dump": [lines]} (or {"error": ...} after 20 s)
The walk is Tools/atspi_walk.py's (name, role, states, child count, extents, children) with --dump's line format.
"""
import contextlib
import io
import json
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "Tools"))

import atspi_walk  # noqa: E402
import pyatspi  # noqa: E402
from gi.repository import Atspi, GLib  # noqa: E402

APP = sys.argv[1]
state = {"want": None, "deadline": 0.0}


def say(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def dump():
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        atspi_walk.walk_pyatspi(None, None, None, APP, True)
    say({"dump": out.getvalue().splitlines()})
    return False


def on_event(event):
    want = state["want"]
    if want and event.type.startswith(want):
        state["want"] = None
        GLib.idle_add(dump, priority=GLib.PRIORITY_LOW)  # after the messages already received


def expire():
    if state["want"] and time.monotonic() > state["deadline"]:
        state["want"] = None
        say({"error": "no event of that type within 20 s"})
    return True


def on_command(channel, condition):
    line = sys.stdin.readline()
    if not line:
        Atspi.event_quit()
        return False
    words = line.split()
    if words == ["dump"]:
        dump()
    elif len(words) == 2 and words[0] == "wait":
        state["want"], state["deadline"] = words[1], time.monotonic() + 20
        say({"armed": True})
    else:
        say({"error": "unknown command %r" % line})
    return True


def start():
    desktop = pyatspi.Registry.getDesktop(0)
    app = next((a for a in desktop if a.name == APP), None)
    deadline = time.monotonic() + 10
    while app is not None and not app.cached_properties & atspi_walk.ATSPI_CACHE_CHILDREN:
        GLib.MainContext.default().iteration(False)
        if time.monotonic() > deadline:
            break
        time.sleep(0.005)
    say({"ready": app is not None and bool(app.cached_properties & atspi_walk.ATSPI_CACHE_CHILDREN)})
    GLib.io_add_watch(GLib.IOChannel.unix_new(sys.stdin.fileno()), GLib.IO_IN | GLib.IO_HUP, on_command)
    GLib.timeout_add(100, expire)
    return False


pyatspi.Registry.registerEventListener(on_event, "object:", "window:")
GLib.idle_add(start)
Atspi.event_main()
