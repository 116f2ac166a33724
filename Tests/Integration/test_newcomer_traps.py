"""Traps a newcomer met on a fresh clone (issue 26, item 5), each as the test that would have caught it:

  * a command line that does not parse printed "Please provide one of the following:" and nothing after it;
  * `axquery do setValue` (the protocol's name) was refused where `set-value` (the CLI's) works;
  * `axquery rotor next` marked every item [disabled,offscreen] (the rotor's answer carries no states);
  * `axserver` errors named `allowNonLoopback` instead of the flag, and did not name `--token-file`;
  * "no server" errors suggested `axserver serve` (a server with no app to look at);
  * `axserver dump` printed `#cell.wifi`, which is no valid selector when pasted;
  * `axserver conformance Specs/conformance` worked only from the checkout root.

A second app (a provider process, `axserver demo-app --name kitchen-panel`) runs beside the demo where the output
depends on the app.
"""
import os
import re
import shutil
import subprocess
import tempfile
import unittest

from harness import AXQUERY, AXSERVER, ROOT, Proc, start_server


def run(binary, *args, cwd=None, timeout=60):
    env = dict(os.environ, NO_COLOR="1")
    env.pop("AXSERVER_SOCKET", None)
    done = subprocess.run([binary] + list(args), capture_output=True, text=True, timeout=timeout, cwd=cwd, env=env)
    return done.returncode, done.stdout, done.stderr


class ParserMessages(unittest.TestCase):
    def test_a_wrong_value_lists_the_accepted_values(self):
        code, _out, err = run(AXQUERY, "wait", "--state", "bogus", "#x")
        self.assertEqual(code, 64, err)
        self.assertIn("Please provide one of the following:", err)
        for accepted in ("attached", "visible", "focused", "label"):
            self.assertRegex(err, r"\n\s*- %s\n" % accepted, "the message lists %r: %s" % (accepted, err))

    def test_an_unknown_action_lists_the_actions(self):
        code, _out, err = run(AXQUERY, "do", "flip", "#x")
        self.assertEqual(code, 64, err)
        self.assertIn("- set-value", err)
        self.assertIn("- activate", err)


class NoServer(unittest.TestCase):
    def test_the_hint_names_a_command_that_serves_an_app(self):
        folder = tempfile.mkdtemp(prefix="axtrap-")
        try:
            code, _out, err = run(AXQUERY, "--socket", os.path.join(folder, "none.sock"), "tree")
        finally:
            shutil.rmtree(folder, ignore_errors=True)
        self.assertEqual(code, 5, err)
        self.assertIn("'axserver --demo'", err)
        self.assertNotIn("axserver serve", err)

    def test_tcp_errors_name_the_flags(self):
        folder = tempfile.mkdtemp(prefix="axtrap-")
        try:
            sock = os.path.join(folder, "ax.sock")
            code, _out, err = run(AXSERVER, "--no-atspi", "--socket", sock, "--listen", "tcp:0.0.0.0:0",
                                  "--token-file", os.path.join(folder, "token"))
            self.assertNotEqual(code, 0)
            self.assertIn("--allow-non-loopback", err)
            self.assertNotIn("allowNonLoopback", err)
            code, _out, err = run(AXSERVER, "--no-atspi", "--socket", sock, "--listen", "tcp:127.0.0.1:0")
            self.assertNotEqual(code, 0)
            self.assertIn("--token-file", err)
        finally:
            shutil.rmtree(folder, ignore_errors=True)


class Live(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.server, cls.sock, cls.tmp = start_server("--demo")
        cls.second = Proc([AXSERVER, "demo-app", "--socket", cls.sock, "--name", "kitchen-panel"])
        cls.second.wait_line("READY", timeout=60)

    @classmethod
    def tearDownClass(cls):
        cls.second.stop()
        cls.server.stop()
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def ax(self, *args):
        return run(AXQUERY, "--socket", self.sock, *args)

    def test_set_value_takes_the_protocols_name_too(self):
        for name in ("set-value", "setValue", "action.setValue"):
            code, out, err = self.ax("do", name, "#textSize", "--value", "0.5")
            self.assertEqual(code, 0, "%s: %s %s" % (name, out, err))
        code, out, err = self.ax("do", "magicTap")
        self.assertIn(code, (0, 6), "magicTap parses as magic-tap: %s %s" % (out, err))

    def test_rotor_items_carry_no_invented_states(self):
        for app in ("axserver-demo", "kitchen-panel"):
            code, out, err = self.ax("--app", app, "rotor", "next", "heading")
            self.assertEqual(code, 0, err)
            self.assertNotIn("disabled", out, "%s: the heading is enabled and on screen: %s" % (app, out))
            self.assertNotIn("offscreen", out, out)

    def test_tree_elements_still_show_their_states(self):
        code, out, err = self.ax("tree")
        self.assertEqual(code, 0, err)
        self.assertRegex(out, r'switch "Wi-Fi" .*\[checked\]')


class DumpSelectors(unittest.TestCase):
    def test_dump_prints_identifiers_as_pasteable_selectors(self):
        code, out, err = run(AXSERVER, "dump", "--demo")
        self.assertEqual(code, 0, err)
        self.assertIn('#"cell.wifi"', out)
        self.assertIn(" #edit", out)
        self.assertNotRegex(out, r"#cell\.", "a bare identifier with a dot does not parse as a selector")
        server, sock, tmp = start_server("--demo")
        try:
            for selector in re.findall(r'#(?:"(?:[^"\\]|\\.)*"|[\w-]+)', out)[:12]:
                code, _out, err = run(AXQUERY, "--socket", sock, "count", selector)
                self.assertEqual(code, 0, "%s pasted from `axserver dump` into axquery: %s" % (selector, err))
        finally:
            server.stop()
            shutil.rmtree(tmp, ignore_errors=True)


class ConformanceFromAnywhere(unittest.TestCase):
    def test_the_default_cases_are_found_from_another_directory(self):
        elsewhere = tempfile.mkdtemp(prefix="axtrap-")
        try:
            code, out, err = run(AXSERVER, "conformance", "Specs/conformance", cwd=elsewhere, timeout=600)
            self.assertEqual(code, 0, err[-2000:])
            self.assertRegex(out, r"\n\d+ passed, 0 failed\n?$")
            code, _out, err = run(AXSERVER, "conformance", "No/Such/Dir", cwd=elsewhere)
            self.assertEqual(code, 2)
            self.assertIn("no such directory: No/Such/Dir", err)
        finally:
            shutil.rmtree(elsewhere, ignore_errors=True)


if __name__ == "__main__":
    unittest.main()
