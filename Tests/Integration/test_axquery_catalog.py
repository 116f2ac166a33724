"""axquery through the protocol catalog (issue 31 item 1, D-CATALOG-1), end to end on a live demo server.

* `axquery find SELECTOR --limit N` with no match still explains the near misses: before the catalog, find sent its
  own params (with `limit`) to `query.explain`, which does not take `limit`, so the explanation was refused (−32602)
  and silently left out; typed keys made that a compile error.
* `axquery protocol --json` prints the committed Specs/protocol.json (the catalog's machine-readable form).

Expected values come from the demo app's source (the Edit button, label "Edit") and the committed file.
"""
import os
import shutil
import unittest

from harness import ROOT, start_server
from test_axquery import run


class FindExplainsWithALimit(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.server, cls.sock, cls.tmp = start_server("--demo")

    @classmethod
    def tearDownClass(cls):
        cls.server.stop()
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def test_near_misses_with_limit(self):
        code, out, err = run("find", "--socket", self.sock, 'button[label="Edt"]', "--limit", "3")
        self.assertEqual(code, 1, err)
        self.assertEqual(out, "")
        self.assertIn("no element matches", err)
        self.assertIn('"Edit"', err, "the near miss names the real label even with --limit")


class ProtocolCommand(unittest.TestCase):
    def test_json_is_the_committed_catalog(self):
        code, out, err = run("protocol", "--json")
        self.assertEqual(code, 0, err)
        with open(os.path.join(ROOT, "Specs", "protocol.json"), encoding="utf-8") as handle:
            self.assertEqual(out, handle.read(), "regenerate: axquery protocol --json > Specs/protocol.json")


if __name__ == "__main__":
    unittest.main()
