#!/usr/bin/python3
"""Runs the integration suite (Tests/Integration/test_*.py) with real parts and prints 'N passed, M failed'.

Environment:
  AXSERVER_BIN      the folder holding the built axserver and axquery binaries.
  AX_TEST_PATTERN   which files (default test_*.py).
  AX_TEST_SHARD     "K/N": run only shard K (1-based) of N. Test classes, never single tests, are shared out (a
                    class's setUpClass starts its own stack; no file has module-level set-up), longest first onto
                    the least-loaded shard, by the seconds in durations.json: a class's "module.Class" entry, else
                    its file's entry shared evenly among the file's classes, else 20 s. So a file's Orca 43 and
                    Orca 48 classes (…OnOrca48) can run in two shards at once. Every class lands in one shard.
  AX_TEST_OUTPUT_DIR  where this run writes durations-<K>of<N>.json: each class's seconds, to refresh durations.json.
Prints each file's seconds, slowest first, after the summary of unittest.

A failed class whose file drives a real Orca (its name has "orca", or it imports orca_transcript) runs once more, on a
fresh stack; when it passes then, its tests count as passed and the summary names it "passed on a rerun"
(Specs/decisions.md D-TEST-FLAKE-1). At most MAX_RERUNS classes: more failures than that are not timing.
"""
import json
import os
import re
import sys
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
UNKNOWN_FILE_SECONDS = 20.0
MAX_RERUNS = 3


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


def unit_of(test):
    """The unit a shard takes whole: the test's class, "module.Class"."""
    return "%s.%s" % (type(test).__module__, type(test).__name__)


def weights(units, known):
    """Each unit's expected seconds: its own entry, else its module's shared evenly among the module's units."""
    per_module = {}
    for unit in units:
        per_module.setdefault(unit.rsplit(".", 1)[0], []).append(unit)
    weight = {}
    for module, members in per_module.items():
        share = float(known.get(module, UNKNOWN_FILE_SECONDS * len(members))) / len(members)
        for unit in members:
            weight[unit] = float(known.get(unit, share))
    return weight


def assign(units, count):
    """Unit ("module.Class") -> shard (0-based): longest first onto the least-loaded shard (ties: the lower)."""
    try:
        with open(os.path.join(HERE, "durations.json"), encoding="utf-8") as handle:
            known = json.load(handle)
    except (OSError, ValueError):
        known = {}
    weight = weights(units, known)
    loads = [0.0] * count
    placed = {}
    for name in sorted(units, key=lambda name: (-weight[name], name)):
        target = min(range(count), key=lambda shard: (loads[shard], shard))
        placed[name] = target
        loads[target] += weight[name]
    return placed


def failed_unit(test):
    """The "module.Class" a failure or error belongs to: a test's class, or the class named by a failed
    setUpClass/tearDownClass ("setUpClass (module.Class)")."""
    if isinstance(getattr(test, "test_case", None), unittest.TestCase):  # a failed subTest
        return unit_of(test.test_case)
    if isinstance(test, unittest.TestCase) and not type(test).__name__.startswith("_"):
        return unit_of(test)
    description = getattr(test, "description", str(test))
    match = re.search(r"\(([\w.]+)\)", description)
    return match.group(1) if match else None


def drives_orca(unit):
    """True when the class's file drives a real Orca: its name says so, or it imports orca_transcript."""
    module_name = unit.rsplit(".", 1)[0]
    if "orca" in module_name:
        return True
    module = sys.modules.get(module_name)
    return module is not None and any(getattr(value, "__name__", "") == "orca_transcript"
                                      for value in vars(module).values())


def rerun_orca_failures(res, loader):
    """Runs each failed Orca class once more (at most MAX_RERUNS of them). Returns (tests that passed on the rerun,
    the classes that passed)."""
    failures = {}
    for test, _trace in res.failures + res.errors + [(test, None) for test in res.unexpectedSuccesses]:
        unit = failed_unit(test)
        failures[unit] = failures.get(unit, 0) + 1
    if None in failures or not failures or len(failures) > MAX_RERUNS or not all(map(drives_orca, failures)):
        return 0, []
    recovered, names = 0, []
    for unit, count in sorted(failures.items()):
        print("rerun once (a class driving a real Orca, D-TEST-FLAKE-1): %s" % unit)
        sys.stdout.flush()
        again = unittest.TextTestRunner(verbosity=2, stream=sys.stdout).run(loader.loadTestsFromName(unit))
        if again.wasSuccessful() and again.testsRun > 0:
            recovered += count
            names.append(unit)
    return recovered, names


class TimedResult(unittest.TextTestResult):
    """Adds to a test's class the seconds since the previous test ended: the test and its class's set-up (a class's
    tear-down counts for the next class, about evenly)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.seconds_by_unit = {}
        self.last_stop = time.monotonic()

    def stopTest(self, test):
        super().stopTest(test)
        now = time.monotonic()
        name = unit_of(test)
        self.seconds_by_unit[name] = self.seconds_by_unit.get(name, 0.0) + now - self.last_stop
        self.last_stop = now


def main():
    index, count = shard_spec()
    loader = unittest.TestLoader()
    pattern = os.environ.get("AX_TEST_PATTERN", "test_*.py")
    discovered = list(flatten(loader.discover(HERE, pattern=pattern, top_level_dir=HERE)))
    units = sorted({unit_of(test) for test in discovered})
    placed = assign(units, count)
    mine = [test for test in discovered if placed[unit_of(test)] == index - 1]
    if count > 1:
        print("shard %d/%d: %s" % (index, count, " ".join(name for name in units if placed[name] == index - 1)))
    suite = unittest.TestSuite(mine)
    runner = unittest.TextTestRunner(verbosity=2, resultclass=TimedResult, stream=sys.stdout)
    res = runner.run(suite)
    failed = len(res.failures) + len(res.errors) + len(res.unexpectedSuccesses)
    skipped = len(res.skipped)
    # A failed setUpClass is an error that ran no test: count it as failed, never as a negative pass count.
    passed = max(0, res.testsRun - failed - skipped)
    recovered, flaky = rerun_orca_failures(res, loader) if failed else (0, [])
    failed -= recovered
    passed += recovered
    seconds = {name: round(value, 1) for name, value in res.seconds_by_unit.items()}
    by_file = {}
    for name, value in seconds.items():
        module = name.rsplit(".", 1)[0]
        by_file[module] = by_file.get(module, 0.0) + value
    print("seconds per file (slowest first): " + ", ".join(
        "%s %.0f" % (name, value) for name, value in sorted(by_file.items(), key=lambda item: -item[1])))
    output = os.environ.get("AX_TEST_OUTPUT_DIR")
    if output:
        os.makedirs(output, exist_ok=True)
        with open(os.path.join(output, "durations-%dof%d.json" % (index, count)), "w", encoding="utf-8") as handle:
            json.dump(seconds, handle, indent=1, sort_keys=True)
    sys.stdout.flush()
    if flaky:
        print("passed on a rerun (failed once; D-TEST-FLAKE-1): %s" % " ".join(flaky))
    print("integration: %d passed, %d failed, %d skipped" % (passed, failed, skipped) if skipped else
          "integration: %d passed, %d failed" % (passed, failed))
    sys.exit(0 if failed == 0 and res.testsRun > 0 else 1)


if __name__ == "__main__":
    main()
