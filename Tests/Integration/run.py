#!/usr/bin/python3
"""Runs the integration suite (Tests/Integration/test_*.py) with real parts and prints 'N passed, M failed'.

Environment: AXSERVER_BIN = the folder holding the built axserver and axquery binaries.
"""
import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)


class Result(unittest.TextTestResult):
    pass


def main():
    loader = unittest.TestLoader()
    pattern = os.environ.get("AX_TEST_PATTERN", "test_*.py")
    suite = loader.discover(HERE, pattern=pattern, top_level_dir=HERE)
    runner = unittest.TextTestRunner(verbosity=2, resultclass=Result, stream=sys.stdout)
    res = runner.run(suite)
    failed = len(res.failures) + len(res.errors) + len(res.unexpectedSuccesses)
    skipped = len(res.skipped)
    # A failed setUpClass is an error that ran no test: count it as failed, never as a negative pass count.
    passed = max(0, res.testsRun - failed - skipped)
    sys.stdout.flush()
    print("integration: %d passed, %d failed, %d skipped" % (passed, failed, skipped) if skipped else
          "integration: %d passed, %d failed" % (passed, failed))
    sys.exit(0 if failed == 0 and res.testsRun > 0 else 1)


if __name__ == "__main__":
    main()
