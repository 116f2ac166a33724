"""Accessibility traces from the Swift side (issue 36; Specs/trace.md, Specs/trace-swift.md), end to end on a live
demo server:

* `axquery record FILE -- COMMAND` around a real client (a Python-client script, axquery itself): every request
  the client sent through the proxy is a step with the server's view — revision before/after, the diff, focus —
  the client's exit code is record's, tokens and text typed into a secure element never reach the file;
* `axquery mcp --trace FILE` in a real MCP session over stdio: each tool call is a `tool` step;
* `axquery trace show` on good, corrupt, truncated, newer-version and non-trace files: it shows the steps before the
  break and says where and why;
* the proxy is bounded: a client flooding one endless message does not grow it.

The traces are read here with Python's json module (not with the reader under test); expected values come from the
demo app's source (the Wi-Fi cell, identifier "cell.wifi", toggles on activate; the tab bar has 3 tabs) and from
what this test sends.
"""
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import unittest

from harness import AXQUERY, ROOT, RPC, start_server
from test_axquery import run

PYTHON_CLIENT = os.path.join(ROOT, "Sources", "PythonClient")


def read_trace(path):
    with open(path, encoding="utf-8") as handle:
        return [json.loads(line) for line in handle]


def record(sock, path, *command, timeout=60):
    env = dict(os.environ, NO_COLOR="1", PYTHONPATH=PYTHON_CLIENT)
    env.pop("AXSERVER_SOCKET", None)
    return subprocess.run([AXQUERY, "record", path, "--socket", sock, "--"] + list(command), capture_output=True,
                          text=True, timeout=timeout, env=env)


class Recording(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.server, cls.sock, cls.tmp = start_server("--demo")

    @classmethod
    def tearDownClass(cls):
        cls.server.stop()
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def test_record_around_a_python_client_script(self):
        script = os.path.join(self.tmp, "client_script.py")
        with open(script, "w") as handle:
            handle.write("import sys\nfrom axclient import Client\n"
                         "with Client() as ax:\n"
                         "    ax.locator('#\"cell.wifi\"').click()\n"
                         "    print(ax.locator('tab').count())\n"
                         "sys.exit(3)\n")
        path = os.path.join(self.tmp, "script.axtrace")
        done = record(self.sock, path, sys.executable, script)
        self.assertEqual(done.returncode, 3, done.stderr)          # the client's own exit code
        self.assertEqual(done.stdout.strip(), "3", done.stderr)    # its output is its own
        lines = read_trace(path)
        header, steps, end = lines[0], lines[1:-1], lines[-1]
        self.assertEqual((header["axtrace"], header["source"]), (1, "record"))
        self.assertEqual(end, {"end": True, "steps": len(steps), "dropped": {"steps": 0, "diffOps": 0, "events": 0}})
        self.assertEqual([s["step"] for s in steps], list(range(1, len(steps) + 1)))
        self.assertEqual(steps[0]["method"], "initialize")
        actions = [s for s in steps if s["method"] == "action.activate"]
        self.assertEqual(len(actions), 1, [s["method"] for s in steps])
        act = actions[0]
        self.assertEqual(act["kind"], "call")
        self.assertIsNone(act["error"])
        self.assertEqual(act["target"]["id"], "cellWifi")
        before, after = act["revision"]
        self.assertGreater(after, before, "activating the Wi-Fi cell changes the tree")
        self.assertIn("cellWifi", json.dumps(act["diff"]))
        observed = [s for s in steps if s["revision"] is not None]
        self.assertIn("snapshot", observed[0], "the first observed step holds the tree")
        self.assertEqual(sum("snapshot" in s for s in steps), 1)
        self.assertEqual(set(act["focus"]), {"before", "after"})
        self.assertGreaterEqual(act["ms"], 0)
        counts = [s for s in steps if s["method"] == "query.count"]
        self.assertTrue(counts and counts[0]["result"]["count"] == 3, counts)
        self.assertIsNone(counts[0]["revision"], "a read is recorded without the before/after observation")

        shown = run("trace", "show", path)
        self.assertEqual(shown[0], 0, shown[2])
        self.assertIn("call action.activate", shown[1])
        self.assertIn("revision: %d → %d" % (before, after), shown[1])
        self.assertIn("end: %d steps" % len(steps), shown[1])

    def test_record_runs_axquery_and_keys_are_key_steps(self):
        path = os.path.join(self.tmp, "keys.axtrace")
        done = record(self.sock, path, "sh", "-c", "%s key Tab && %s count tab" % (AXQUERY, AXQUERY))
        self.assertEqual(done.returncode, 0, done.stderr)
        steps = read_trace(path)[1:-1]
        keys = [s for s in steps if s["method"] == "input.key"]
        self.assertEqual(len(keys), 1, [s["method"] for s in steps])
        self.assertEqual(keys[0]["kind"], "key")
        self.assertIsNotNone(keys[0]["focus"])

    def test_a_failing_command_that_never_connects(self):
        path = os.path.join(self.tmp, "none.axtrace")
        done = record(self.sock, path, "sh", "-c", "exit 7")
        self.assertEqual(done.returncode, 7)
        self.assertEqual(read_trace(path)[-1]["steps"], 0)
        self.assertEqual(record(self.sock, path).returncode, 64)    # no command

    def test_a_flooding_client_does_not_grow_the_proxy(self):
        path = os.path.join(self.tmp, "flood.axtrace")
        script = os.path.join(self.tmp, "flood.py")
        with open(script, "w") as handle:
            handle.write(
                "import os, socket, sys\n"
                "s = socket.socket(socket.AF_UNIX); s.connect(os.environ['AXSERVER_SOCKET'])\n"
                "s.settimeout(20)\n"
                "sent = 0\nblock = b'[' * 65536\n"
                "try:\n"
                "    while sent < 64 << 20:\n"
                "        s.sendall(block); sent += len(block)\n"
                "except OSError:\n"
                "    pass\n"
                "print(sent)\n")
        env = dict(os.environ, NO_COLOR="1")
        proc = subprocess.Popen([AXQUERY, "record", path, "--socket", self.sock, "--", sys.executable, script],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
        peak = 0
        while proc.poll() is None:
            try:
                with open("/proc/%d/status" % proc.pid) as status:
                    for line in status:
                        if line.startswith("VmRSS:"):
                            peak = max(peak, int(line.split()[1]))
            except OSError:
                pass
            time.sleep(0.05)
        out, err = proc.communicate(timeout=60)
        self.assertEqual(proc.returncode, 0, err)
        self.assertLess(peak, 100 * 1024, "record's resident size stays bounded (KiB) while %s bytes flood" % out)
        # The server is still there for the next client.
        self.assertEqual(run("count", "--socket", self.sock, "tab")[1].strip(), "3")


class SecureText(unittest.TestCase):
    """A provider app with a secure text field: what is typed into it never enters a trace."""

    def test_text_typed_into_a_secure_field_is_masked(self):
        server, sock, tmp = start_server("--action-timeout-ms", "300")
        provider = RPC(sock)
        try:
            provider.result("initialize", {"role": "provider"})
            provider.result("app.register", {"name": "login"})
            provider.result("hierarchy.set", {"windows": [{"id": "w", "class": "UIWindow", "frame": [0, 0, 300, 300],
                                                          "children": [{"id": "pin", "class": "UITextField",
                                                                        "isSecureTextEntry": True, "placeholder": "PIN",
                                                                        "frame": [10, 10, 200, 40]}]}]})
            path = os.path.join(tmp, "secret.axtrace")
            done = record(sock, path, AXQUERY, "type", "4711-secret", "--target", "#pin")
            with open(path, encoding="utf-8") as handle:
                text = handle.read()
            self.assertNotIn("4711-secret", text)
            typed = [s for s in map(json.loads, text.splitlines()[1:-1]) if "text" in s.get("params", {})]
            self.assertTrue(typed, text)
            self.assertEqual(typed[0]["params"]["text"], "•••")
            self.assertIs(typed[0]["params"]["masked"], True)
            self.assertIn(done.returncode, (0, 5, 6), done.stderr)
        finally:
            provider.close()
            server.stop()
            shutil.rmtree(tmp, ignore_errors=True)


class MCPTrace(unittest.TestCase):
    def test_mcp_session_tool_calls_are_steps(self):
        server, sock, tmp = start_server("--demo")
        try:
            path = os.path.join(tmp, "mcp.axtrace")
            proc = subprocess.Popen([AXQUERY, "mcp", "--socket", sock, "--trace", path], stdin=subprocess.PIPE,
                                    stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)

            def answer(message):
                proc.stdin.write(json.dumps(message) + "\n")
                proc.stdin.flush()
                return json.loads(proc.stdout.readline())

            init = answer({"jsonrpc": "2.0", "id": 1, "method": "initialize",
                           "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                                      "clientInfo": {"name": "trace-test", "version": "1"}}})
            self.assertIn("result", init)
            proc.stdin.write('{"jsonrpc":"2.0","method":"notifications/initialized"}\n')
            click = answer({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
                            "params": {"name": "click", "arguments": {"ref": "cellWifi"}}})
            self.assertNotIn("isError", click["result"], click)
            found = answer({"jsonrpc": "2.0", "id": 3, "method": "tools/call",
                            "params": {"name": "find", "arguments": {"selector": "tab"}}})
            self.assertIn("3 match", found["result"]["content"][0]["text"])
            bad = answer({"jsonrpc": "2.0", "id": 4, "method": "tools/call",
                          "params": {"name": "click", "arguments": {"ref": "noSuchRef"}}})
            self.assertTrue(bad["result"]["isError"])
            proc.stdin.close()
            self.assertEqual(proc.wait(timeout=30), 0, proc.stderr.read())
            lines = read_trace(path)
            self.assertEqual(lines[0]["source"], "mcp")
            steps = lines[1:-1]
            self.assertEqual([(s["kind"], s["method"]) for s in steps],
                             [("tool", "click"), ("tool", "find"), ("tool", "click")])
            click_step = steps[0]
            self.assertEqual(click_step["params"], {"ref": "cellWifi"})
            self.assertEqual(click_step["target"]["id"], "cellWifi")
            self.assertGreater(click_step["revision"][1], click_step["revision"][0])
            self.assertIn("cellWifi", json.dumps(click_step["diff"]))
            self.assertIn("snapshot", click_step)
            self.assertIsNone(steps[1]["revision"])
            self.assertIn("noSuchRef", steps[2]["error"]["message"])
            self.assertEqual(steps[2]["error"]["code"], -32010)
            self.assertEqual(lines[-1]["steps"], 3)
        finally:
            server.stop()
            shutil.rmtree(tmp, ignore_errors=True)


class Show(unittest.TestCase):
    """`axquery trace show` on files written here (no server)."""

    HEADER = {"axtrace": 1, "source": "python", "title": "t", "started": "2026-11-28T02:10:00Z",
              "producer": "test_axquery_trace", "pictures": False, "screenReader": None}

    def step(self, n, method="action.activate"):
        return {"step": n, "kind": "call", "method": method, "params": {"target": {"id": "b%d" % n}},
                "target": {"id": "b%d" % n, "selector": None, "label": "Button %d" % n, "class": "UIButton"},
                "t": 10.0 * n, "ms": 1.25, "revision": [n, n + 1],
                "diff": {"fromRevision": n, "toRevision": n + 1, "added": ["new%d" % n], "removed": [], "moved": [],
                         "updated": {"b%d" % n: ["value"]}},
                "focus": {"before": {"engine": None, "accessibility": "b%d" % n},
                          "after": {"engine": None, "accessibility": "new%d" % n}},
                "events": [], "speech": {"orca": None, "preview": None}, "result": {"performed": True}, "error": None}

    def write(self, lines):
        handle = tempfile.NamedTemporaryFile("w", suffix=".axtrace", delete=False, encoding="utf-8")
        with handle:
            handle.write("".join(line if isinstance(line, str) else json.dumps(line) + "\n" for line in lines))
        self.addCleanup(os.unlink, handle.name)
        return handle.name

    def test_a_good_trace(self):
        end = {"end": True, "steps": 2, "dropped": {"steps": 0, "diffOps": 0, "events": 0}}
        code, out, err = run("trace", "show", self.write([self.HEADER, self.step(1), self.step(2), end]))
        self.assertEqual((code, err), (0, ""))
        self.assertIn("step 2  call action.activate", out)
        self.assertIn("target: b2 UIButton \"Button 2\"", out)
        self.assertIn("revision: 2 → 3", out)
        self.assertIn("+ added: new2", out)
        self.assertIn("~ updated: b2 {value}", out)
        self.assertIn("focus: accessibility b2 → new2; engine none", out)
        self.assertTrue(out.rstrip().endswith("end: 2 steps (dropped: 0 steps, 0 diffOps, 0 events)"), out)

    def test_a_corrupt_line_shows_what_is_before_it(self):
        cut = json.dumps(self.step(3))[:40] + "\n"
        code, out, err = run("trace", "show", self.write([self.HEADER, self.step(1), self.step(2), cut, self.step(4)]))
        self.assertEqual(code, 5)
        self.assertIn("step 2  call", out)
        self.assertNotIn("step 3", out)
        self.assertNotIn("step 4", out)
        self.assertIn("line 4: not JSON", err)

    def test_a_truncated_trace_says_the_recorder_stopped(self):
        code, out, err = run("trace", "show", self.write([self.HEADER, self.step(1), self.step(2)]))
        self.assertEqual(code, 0)
        self.assertIn("step 2", out)
        self.assertIn("the trace ends after step 2 without its end line (the recorder stopped mid-run)", err)

    def test_a_step_out_of_sequence(self):
        code, out, err = run("trace", "show", self.write([self.HEADER, self.step(1), self.step(3)]))
        self.assertEqual(code, 5)
        self.assertIn("line 3: step 3 where step 2 was expected", err)

    def test_a_newer_format_and_not_a_trace(self):
        newer = dict(self.HEADER, axtrace=2)
        code, out, err = run("trace", "show", self.write([newer, self.step(1)]))
        self.assertEqual((code, out), (5, ""))
        self.assertIn("trace format 2 is newer than this reader (1): update axclient / axquery", err)
        code, out, err = run("trace", "show", self.write(['{"windows": []}\n']))
        self.assertEqual(code, 5)
        self.assertIn("not an AXServer trace (no header line)", err)
        code, out, err = run("trace", "show", os.path.join(tempfile.gettempdir(), "no-such-trace-%d" % os.getpid()))
        self.assertEqual(code, 5)
        self.assertIn("cannot read", err)


SESSION = """import sys
from axclient import Client
with Client() as ax:
    ax.start_trace(sys.argv[1], title="replay session")
    ax.locator('#"cell.wifi"').click()
    ax.locator('tab[label="Home"]').click()
    ax.keyboard.press("Tab")
    print(ax.locator("tab").count())
    ax.stop_trace()
"""


class Replay(unittest.TestCase):
    """`axquery trace replay`: a session recorded by the real Python client (and an MCP session) on one demo server,
    replayed on a fresh one; a changed app; corrupt and masked traces. Expected steps come from the trace file."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="axreplay-")
        server, sock, tmp = start_server("--demo")
        try:
            cls.path = os.path.join(cls.tmp, "session.axtrace")
            script = os.path.join(cls.tmp, "session.py")
            with open(script, "w") as handle:
                handle.write(SESSION)
            env = dict(os.environ, PYTHONPATH=PYTHON_CLIENT, AXSERVER_SOCKET=sock)
            done = subprocess.run([sys.executable, script, cls.path], capture_output=True, text=True, timeout=60,
                                  env=env)
            assert done.returncode == 0, done.stderr
        finally:
            server.stop()
            shutil.rmtree(tmp, ignore_errors=True)
        cls.steps = read_trace(cls.path)[1:-1]

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def fresh_server(self):
        server, sock, tmp = start_server("--demo")
        self.addCleanup(shutil.rmtree, tmp, True)
        self.addCleanup(server.stop)
        return sock

    def step_on(self, element):
        return next(s for s in self.steps if (s.get("target") or {}).get("id") == element and s["revision"])

    def test_a_recorded_session_replays_on_a_fresh_demo(self):
        self.assertTrue(any(s["kind"] == "key" for s in self.steps), [s["method"] for s in self.steps])
        sock = self.fresh_server()
        started = time.monotonic()
        code, out, err = run("trace", "replay", self.path, "--socket", sock, timeout=60)
        elapsed = time.monotonic() - started
        self.assertEqual(code, 0, out + err)
        self.assertIn("every step agrees", out)
        wifi = self.step_on("cellWifi")
        self.assertIn("step %d call action.activate: agrees" % wifi["step"], out)
        self.assertIn("key input.key: agrees", out)
        # The uptime label ticks every second: seen changing during the watch, it is no difference.
        self.assertIn("ignored in diffs: uptime", out)
        self.assertLess(elapsed, 30)
        # The same element named by --ignore instead of being watched.
        code, out, err = run("trace", "replay", self.path, "--socket", self.fresh_server(), "--watch", "0",
                             "--ignore", "#uptime", timeout=60)
        self.assertEqual(code, 0, out + err)
        self.assertIn("ignored in diffs: uptime\n", out)

    def test_a_changed_app_reports_the_step_that_differs(self):
        sock = self.fresh_server()
        env = dict(os.environ, PYTHONPATH=PYTHON_CLIENT, AXSERVER_SOCKET=sock)
        subprocess.run([sys.executable, "-c", "from axclient import Client\nwith Client() as ax: "
                        "ax.locator('tab[label=\"Home\"]').click()"], check=True, env=env, timeout=30)
        code, out, err = run("trace", "replay", self.path, "--socket", sock, timeout=60)
        self.assertEqual(code, 1, out + err)
        home = self.step_on("tabHome")
        self.assertIn("step %d call action.activate" % home["step"], out)
        self.assertIn("differs from the recording", out)
        self.assertIn("diff: expected ", out)
        self.assertIn("~tabHome{", out)
        self.assertIn("step %d call action.activate: agrees" % self.step_on("cellWifi")["step"], out)
        self.assertNotIn("step %d " % (home["step"] + 1), out, "the replay stops at the first difference")

    def test_an_mcp_session_with_a_tool_error_replays(self):
        sock = self.fresh_server()
        path = os.path.join(self.tmp, "mcp.axtrace")
        proc = subprocess.Popen([AXQUERY, "mcp", "--socket", sock, "--trace", path], stdin=subprocess.PIPE,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        calls = [{"name": "click", "arguments": {"ref": "cellWifi"}},
                 {"name": "find", "arguments": {"selector": "tab"}},
                 {"name": "click", "arguments": {"ref": "noSuchRef"}}]
        messages = [{"jsonrpc": "2.0", "id": 1, "method": "initialize",
                     "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                                "clientInfo": {"name": "replay-test", "version": "1"}}},
                    {"jsonrpc": "2.0", "method": "notifications/initialized"}]
        messages += [{"jsonrpc": "2.0", "id": n + 2, "method": "tools/call", "params": c} for n, c in enumerate(calls)]
        for message in messages:
            proc.stdin.write(json.dumps(message) + "\n")
            proc.stdin.flush()
            if "id" in message:
                proc.stdout.readline()
        proc.stdin.close()
        self.assertEqual(proc.wait(timeout=30), 0)
        self.assertEqual(read_trace(path)[3]["error"]["code"], -32010)
        code, out, err = run("trace", "replay", path, "--socket", self.fresh_server(), timeout=60)
        self.assertEqual(code, 0, out + err)
        self.assertIn("step 1 tool click: agrees", out)
        self.assertIn("step 3 tool click: agrees", out)
        # On the first server the Wi-Fi cell is now off: its click gives the same shape (values are not compared),
        # but a missing element is another error.
        broken = os.path.join(self.tmp, "mcp-other.axtrace")
        with open(path) as source, open(broken, "w") as target:
            target.write(source.read().replace('"noSuchRef"', '"cellWifi"'))
        code, out, err = run("trace", "replay", broken, "--socket", sock, timeout=60)
        self.assertEqual(code, 1, out + err)
        self.assertIn("step 3 tool click", out)
        self.assertIn("error: expected error -32010", out)

    def test_a_corrupt_trace_gives_the_readers_message(self):
        with open(self.path) as handle:
            lines = handle.readlines()
        broken = os.path.join(self.tmp, "corrupt.axtrace")
        with open(broken, "w") as handle:
            handle.writelines(lines[:2] + [lines[2][:30] + "\n"] + lines[3:])
        code, out, err = run("trace", "replay", broken, "--socket", os.path.join(self.tmp, "no-server.sock"))
        self.assertEqual((code, out), (5, ""), err)
        self.assertIn("line 3: not JSON", err)
        newer = os.path.join(self.tmp, "newer.axtrace")
        with open(newer, "w") as handle:
            handle.write(json.dumps(dict(json.loads(lines[0]), axtrace=2)) + "\n")
        code, out, err = run("trace", "replay", newer)
        self.assertEqual(code, 5)
        self.assertIn("trace format 2 is newer than this reader (1)", err)

    def test_a_masked_step_stops_the_replay(self):
        sock = self.fresh_server()
        header = json.loads(open(self.path).readline())
        typed = {"step": 2, "kind": "call", "method": "action.typeText", "revision": [3, 4], "error": None,
                 "params": {"target": {"id": "nameField"}, "text": "\u2022\u2022\u2022", "masked": True}}
        path = os.path.join(self.tmp, "masked.axtrace")
        with open(path, "w") as handle:
            for line in (header, self.step_on("cellWifi") | {"step": 1}, typed, {"end": True, "steps": 2}):
                handle.write(json.dumps(line) + "\n")
        code, out, err = run("trace", "replay", path, "--socket", sock, timeout=60)
        self.assertEqual(code, 7, out + err)
        self.assertIn("step 1 call action.activate: agrees", out)
        self.assertIn("step 2 (action.typeText): its text was masked when recorded", err)


if __name__ == "__main__":
    unittest.main()
