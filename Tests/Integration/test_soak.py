"""A short run of the load and soak command (Tools/soak.py): 10 clients for 5 s with a provider streaming
patches, pending waits and never-reading clients. Proves the tool works and that the server answers every
request exactly once under that mix (issue 12)."""
import json
import os
import subprocess
import sys
import tempfile
import unittest

from harness import BIN, ROOT


class SoakShort(unittest.TestCase):
    def test_short_soak_answers_every_request(self):
        out = tempfile.NamedTemporaryFile(prefix="axsoak-", suffix=".json", delete=False)
        out.close()
        try:
            # RSS growth over 5 s mostly measures warm-up, so the growth limit is loose here; the long runs
            # (Tools/soak.sh) use the 10 % default.
            p = subprocess.run([sys.executable, os.path.join(ROOT, "Tools", "soak.py"), "--bin", BIN,
                                "--seconds", "5", "--clients", "10", "--bench-tree", "300", "--patch-rate", "100",
                                "--pending-waits", "2", "--pending-wait-ms", "1500", "--never-read", "2",
                                "--churn", "3",
                                "--rss-growth", "300", "--json", out.name],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=180)
            self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
            with open(out.name) as f:
                result = json.load(f)
        finally:
            os.unlink(out.name)
        self.assertEqual(result["lost"], 0)
        self.assertEqual(result["requests"], result["replies"])
        self.assertGreater(result["replies"], 50, result)
        self.assertGreater(result["patchesSent"], 50, result)
        self.assertIn("wait.for", result["latencyByMethod"])
        self.assertIn("action.activate", result["latencyByMethod"])
        self.assertGreater(result["actionsPerformedByProvider"], 0)
        # Subscribed providers closed abruptly mid-stream (issue 19 item 1): the server kept answering.
        self.assertGreater(result["churnCycles"], 5, result)
        for key in ("p50_ms", "p95_ms", "p99_ms"):
            self.assertGreaterEqual(result["latency"][key], 0)
        self.assertTrue(result["samples"], "no RSS/fd samples")
        self.assertIsNotNone(result["rssKiB"]["before"])
        self.assertIsNotNone(result["fds"]["after"])
        self.assertEqual(result["failures"], [])


if __name__ == "__main__":
    unittest.main()
