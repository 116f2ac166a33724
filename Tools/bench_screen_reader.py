#!/usr/bin/env python3
"""How fast the screen_reader fixture is: start-up (private stack + demo server + Orca until "Screen reader on")
and Tab-to-speech (a key sent through `input.key` until Orca's first utterance for it is in the speech log).

Starts --sessions sessions one after the other (each: Tools/a11y-stack.sh --xvfb --private-home, `axserver
--demo`, headless Orca), then presses Tab and Shift+Tab alternately --steps times on the last one, waiting for
speech to settle after each. Prints medians and p95; asserts nothing (benchmarks are never timed tests).

Usage: python3 Tools/bench_screen_reader.py [--axserver PATH] [--sessions 3] [--steps 60]
"""
import argparse
import os
import statistics
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(ROOT, "Sources", "PythonClient"))
os.environ.setdefault("AXSERVER_A11Y_STACK", os.path.join(HERE, "a11y-stack.sh"))

from axclient import Client, ScreenReaderSession  # noqa: E402


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(fraction * (len(ordered) - 1))))]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--axserver", default=os.path.join(ROOT, ".build", "debug", "axserver"))
    parser.add_argument("--sessions", type=int, default=3)
    parser.add_argument("--steps", type=int, default=60)
    options = parser.parse_args()
    ready = []
    orca_ready = []
    session = None
    for index in range(options.sessions):
        if session is not None:
            session.stop()
        session = ScreenReaderSession(options.axserver)
        ready.append(session.ready_seconds)
        orca_ready.append(session.orca.startup_seconds)
    latencies = []
    silent = 0
    try:
        with Client(session.server.socket) as client:
            reader = session.reader(client)
            for index in range(options.steps):
                step = reader.press("Tab" if index % 2 == 0 else "Shift+Tab")
                reader.wait_until_quiet()
                if step.first_speech is None:
                    silent += 1
                else:
                    latencies.append(step.first_speech)
    finally:
        session.stop()
    print("screen reader ready (stack + server + Orca): median %.2f s, max %.2f s over %d sessions "
          "(Orca alone: median %.2f s)" % (statistics.median(ready), max(ready), len(ready),
                                           statistics.median(orca_ready)))
    if latencies:
        print("Tab/Shift+Tab to Orca's first utterance: median %.0f ms, p95 %.0f ms, max %.0f ms over %d steps "
              "(%d silent)" % (1000 * statistics.median(latencies), 1000 * percentile(latencies, 0.95),
                               1000 * max(latencies), len(latencies), silent))


if __name__ == "__main__":
    main()
