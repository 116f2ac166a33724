"""The conformance suite runs black-box against a live server over its socket (`axserver conformance --socket`),
the way another implementation would be checked."""
import os
import re
import subprocess
import tempfile
import unittest

from harness import AXSERVER, ROOT, start_server


class ConformanceOverSocket(unittest.TestCase):
    def test_suite_passes_over_the_socket(self):
        # The guided-access cases change restrictions, which only the operator may do (D-TRUST-1).
        tmp = tempfile.mkdtemp(prefix="axconf-")
        token = os.path.join(tmp, "operator.token")
        fd = os.open(token, os.O_WRONLY | os.O_CREAT, 0o600)
        with os.fdopen(fd, "w") as f:
            f.write("conformance-operator-token-6d1e\n")
        server, sock, _ = start_server("--operator-token-file", token)
        try:
            out = subprocess.run([AXSERVER, "conformance", "--socket", sock, "--operator-token-file", token,
                                  os.path.join(ROOT, "Specs", "conformance")],
                                 capture_output=True, text=True, timeout=600)
            lines = out.stdout.strip().splitlines()
            self.assertTrue(lines, out.stderr)
            m = re.match(r"^(\d+) passed, (\d+) failed$", lines[-1])
            self.assertIsNotNone(m, lines[-1])
            passed, failed = int(m.group(1)), int(m.group(2))
            self.assertEqual(failed, 0, "\n".join(l for l in lines if l.startswith("FAIL"))[:4000])
            self.assertGreaterEqual(passed, 150)
            self.assertEqual(out.returncode, 0)
        finally:
            server.stop()


if __name__ == "__main__":
    unittest.main()
