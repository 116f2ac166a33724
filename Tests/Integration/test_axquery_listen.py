"""`axquery listen`: a private stack, server and headless Orca from the command line (issue 26 item 1). What Orca
says is checked against the demo's source (Sources/AXDemo/DemoApp.swift: Tab starts at the navigation bar's Edit
button, then the Wi-Fi cell's switch, on at start) and Orca 43's role words. The second test serves no demo: an
app process of its own (`axserver demo-app --name kitchen-panel`) connects to the printed socket, and another
shell's `axquery key Tab` is heard. Both screen-reader stacks: ListenTest runs the system's Orca 43, ListenTestOnOrca48
`axquery listen --orca 48` (Orca 48.1 on at-spi2-core 2.56, Tools/install-orca48.sh), whose role words differ
(orca_transcript.ROLE_WORDS, D-SPEECH-3).
"""
import json
import os
import select
import shutil
import subprocess
import time
import unittest

import orca_transcript as ot
from harness import AXQUERY, AXSERVER

HAVE_ORCA = shutil.which("orca") is not None and shutil.which("Xvfb") is not None


@unittest.skipUnless(HAVE_ORCA, "Orca and Xvfb are not installed (Tools/install-deps.sh installs them)")
class ListenTest(unittest.TestCase):
    #: The screen-reader stack (`axquery listen --orca`): "43" here, "48" in the …OnOrca48 variant.
    orca = "43"

    def words(self, role):
        return ot.ROLE_WORDS["orca-" + self.orca][role]

    def test_keys_and_what_orca_said(self):
        done = subprocess.run([AXQUERY, "listen", "--orca", self.orca, "--keys", "Tab,Tab,space", "--json"],
                              capture_output=True, text=True, timeout=120)
        self.assertEqual(done.returncode, 0, done.stderr)
        steps = json.loads(done.stdout)["steps"]
        self.assertEqual([step["keys"] for step in steps], ["Tab", "Tab", "space"])
        self.assertIn("Edit %s." % self.words("push button"), steps[0]["spoken"])
        self.assertIn("Wi-Fi %s pressed." % self.words("switch"), steps[1]["spoken"])
        self.assertTrue(any("not pressed" in line for line in steps[2]["spoken"]), steps[2])

    def test_another_shell_drives_an_app_of_its_own(self):
        listen = subprocess.Popen([AXQUERY, "listen", "--orca", self.orca, "--no-demo", "--seconds", "20"],
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        app = None
        try:
            ready = read_line(self, listen, "READY", 60)
            sock = ready.split("socket=")[1].split()[0]
            app = subprocess.Popen([AXSERVER, "demo-app", "--socket", sock, "--name", "kitchen-panel"],
                                   stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
            read_line(self, app, "READY", 60)
            key = subprocess.run([AXQUERY, "--socket", sock, "key", "Tab"], capture_output=True, text=True,
                                 timeout=30)
            self.assertEqual(key.returncode, 0, key.stderr)
            read_line(self, listen, "Edit %s" % self.words("push button"), 15)
        finally:
            for process in (app, listen):
                if process is not None and process.poll() is None:
                    process.terminate()
                    process.wait(30)
        self.assertEqual(listen.returncode, 130, "SIGTERM ends listen like Ctrl-C")
        self.assertFalse(os.path.exists(os.path.dirname(sock)), "the server's folder was removed: it was stopped")


ListenTestOnOrca48 = ot.on_orca48(ListenTest)


@unittest.skipUnless(HAVE_ORCA, "Orca and Xvfb are not installed (Tools/install-deps.sh installs them)")
class ListenPipeTest(unittest.TestCase):
    def test_a_closed_stdout_stops_it_cleanly(self):
        """Issue 38 item 6: `axquery listen --seconds 60 | head -1` ends soon after the READY line, exit 0."""
        started = time.monotonic()
        pipeline = subprocess.run(["bash", "-c", "set -o pipefail; %s listen --seconds 60 | head -1" % AXQUERY],
                                  capture_output=True, text=True, timeout=90)
        self.assertEqual(pipeline.returncode, 0, pipeline.stderr[-2000:])
        self.assertTrue(pipeline.stdout.startswith("READY socket="), pipeline.stdout)
        self.assertNotIn("Traceback", pipeline.stderr)
        self.assertLess(time.monotonic() - started, 50)


def read_line(test, process, text, timeout):
    """The first line of `process` containing `text` within `timeout` seconds, else `test` fails with what it saw."""
    deadline = time.monotonic() + timeout
    seen = []
    while time.monotonic() < deadline:
        ready, _, _ = select.select([process.stdout], [], [], 0.2)
        if ready:
            line = process.stdout.readline()
            if not line:
                break
            seen.append(line)
            if text in line:
                return line
    test.fail("no line with %r within %d s; saw %r" % (text, timeout, seen))


if __name__ == "__main__":
    unittest.main()
