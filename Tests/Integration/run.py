#!/usr/bin/python3
"""Runs the integration suite (Tests/Integration/test_*.py) with real parts and prints 'N passed, M failed'.

Environment:
  AXSERVER_BIN      the folder holding the built axserver and axquery binaries.
  AX_TEST_PATTERN   which files (default test_*.py).
  AX_TEST_SHARD     "K/N": run only shard K (1-based) of N. Files, never single tests, are shared out (a file's
                    setUpClass starts its own stack), longest first onto the least-loaded shard, by the seconds in
                    durations.json (a file it does not list counts 20 s). Every file lands in exactly one shard.
  AX_TEST_OUTPUT_DIR  where this run writes durations-<K>of<N>.json: each file's seconds, to refresh durations.json.
Prints each file's seconds, slowest first, after the summary of unittest.
"""
import json
import os
import sys
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
UNKNOWN_FILE_SECONDS = 20.0


def flatten(suite):
    for item in suite:
        if isinstance(item, unittest.TestSuite):
            yield from flatten(item)
        else:
            yield item


def shard_spec():
    """(K, N) from AX_TEST_SHARD, or (1, 1). A malformed value stops the run with what to write instead."""
    raw = os.environ.get("AX_TEST_SHARD", "1/1")
    try:
        index, count = (int(part) for part in raw.split("/"))
    except ValueError:
        sys.exit("AX_TEST_SHARD=%r: write K/N with 1 <= K <= N, e.g. 1/2" % raw)
    if not 1 <= index <= count:
        sys.exit("AX_TEST_SHARD=%r: write K/N with 1 <= K <= N, e.g. 1/2" % raw)
    return index, count


def assign(modules, count):
    """Module name -> shard (0-based): longest first onto the least-loaded shard (ties: the lower shard)."""
    try:
        with open(os.path.join(HERE, "durations.json"), encoding="utf-8") as handle:
            known = json.load(handle)
    except (OSError, ValueError):
        known = {}
    weight = {name: float(known.get(name, UNKNOWN_FILE_SECONDS)) for name in modules}
    loads = [0.0] * count
    placed = {}
    for name in sorted(modules, key=lambda name: (-weight[name], name)):
        target = min(range(count), key=lambda shard: (loads[shard], shard))
        placed[name] = target
        loads[target] += weight[name]
    return placed


class TimedResult(unittest.TextTestResult):
    """Adds to a test's file the seconds since the previous test ended: the test and its class's set-up (a class's
    tear-down counts for the next file, about evenly)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.seconds_by_module = {}
        self.last_stop = time.monotonic()

    def stopTest(self, test):
        super().stopTest(test)
        now = time.monotonic()
        name = type(test).__module__
        self.seconds_by_module[name] = self.seconds_by_module.get(name, 0.0) + now - self.last_stop
        self.last_stop = now


def main():
    index, count = shard_spec()
    loader = unittest.TestLoader()
    pattern = os.environ.get("AX_TEST_PATTERN", "test_*.py")
    discovered = list(flatten(loader.discover(HERE, pattern=pattern, top_level_dir=HERE)))
    modules = sorted({type(test).__module__ for test in discovered})
    placed = assign(modules, count)
    mine = [test for test in discovered if placed[type(test).__module__] == index - 1]
    if count > 1:
        print("shard %d/%d: %s" % (index, count, " ".join(name for name in modules if placed[name] == index - 1)))
    suite = unittest.TestSuite(mine)
    runner = unittest.TextTestRunner(verbosity=2, resultclass=TimedResult, stream=sys.stdout)
    res = runner.run(suite)
    failed = len(res.failures) + len(res.errors) + len(res.unexpectedSuccesses)
    skipped = len(res.skipped)
    # A failed setUpClass is an error that ran no test: count it as failed, never as a negative pass count.
    passed = max(0, res.testsRun - failed - skipped)
    seconds = {name: round(value, 1) for name, value in res.seconds_by_module.items()}
    print("seconds per file (slowest first): " + ", ".join(
        "%s %.0f" % (name, value) for name, value in sorted(seconds.items(), key=lambda item: -item[1])))
    output = os.environ.get("AX_TEST_OUTPUT_DIR")
    if output:
        os.makedirs(output, exist_ok=True)
        with open(os.path.join(output, "durations-%dof%d.json" % (index, count)), "w", encoding="utf-8") as handle:
            json.dump(seconds, handle, indent=1, sort_keys=True)
    sys.stdout.flush()
    print("integration: %d passed, %d failed, %d skipped" % (passed, failed, skipped) if skipped else
          "integration: %d passed, %d failed" % (passed, failed))
    sys.exit(0 if failed == 0 and res.testsRun > 0 else 1)


if __name__ == "__main__":
    main()
