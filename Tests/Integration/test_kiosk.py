"""Kiosk policy with real processes (issue 15, D-GA-3, D-TRUST-1): a denial survives an app crash (kill -9), an app
restart and a server restart, on JSON-RPC and AT-SPI routes; operator changes are written back; the file is
re-read on SIGHUP; malformed files are refused with their line."""
import json
import os
import signal
import time
import unittest

from atspi_helpers import AtspiClient
from harness import AXQUERY, AXSERVER, RPC, A11yStack, Proc, start_server

APP_NAME = "kiosk-demo"
WIFI = "org.axserver.demo.wifi"
RESET = "org.axserver.demo.reset"
TOKEN = "kiosk-operator-token-4f9c2a7e1b"


def write_private(path, text):
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as f:
        f.write(text)


class KioskPolicy(unittest.TestCase):
    def setUp(self):
        self.procs = []
        self.server = None
        self.server, self.sock, self.tmp = None, None, None
        import tempfile
        self.dir = tempfile.mkdtemp(prefix="axkiosk-")
        self.policy = os.path.join(self.dir, "policy.json")
        self.token = os.path.join(self.dir, "operator.token")
        write_private(self.token, TOKEN + "\n")
        write_private(self.policy, json.dumps({"version": 1, "unknownApps": "allow",
                                               "apps": {APP_NAME: {"deny": [WIFI]}}}, indent=2) + "\n")

    def tearDown(self):
        for p in self.procs:
            p.stop(signal.SIGKILL)
        if self.server:
            self.server.stop()

    # -- helpers --------------------------------------------------------------------------------------------

    def start(self, env=None, atspi=False):
        self.server, self.sock, self.tmp = start_server("--policy", self.policy, "--operator-token-file", self.token,
                                                        env=env, atspi=atspi)
        return self.server

    def start_app(self, env=None):
        p = Proc([AXSERVER, "demo-app", "--socket", self.sock, "--name", APP_NAME], env=env)
        p.wait_line("READY", timeout=30)
        self.procs.append(p)
        return p

    def client(self, role="automation"):
        c = RPC(self.sock)
        params = {"role": role, "clientInfo": {"name": "test_kiosk"}}
        if role == "operator":
            params["operatorToken"] = TOKEN
        c.result("initialize", params)
        return c

    def wait_app(self, c, present=True, timeout=10):
        deadline = time.time() + timeout
        while time.time() < deadline:
            if (APP_NAME in [a["name"] for a in c.result("apps.list")]) == present:
                return
            time.sleep(0.05)
        self.fail("app %s did not %s" % (APP_NAME, "appear" if present else "leave"))

    def wifi_on(self, c):
        # The cell is the element; it carries its switch's state (the switch itself is not exposed).
        return "checked" in c.result("element.get", {"app": APP_NAME, "target": {"id": "cellWifi"}})["states"]

    def assert_every_route_blocked(self, c, restriction=WIFI):
        before = self.wifi_on(c)
        routes = [("action.activate", {"target": {"id": "cellWifi"}}),
                  ("action.escape", {"target": {"id": "cellWifi"}}),
                  ("action.magicTap", {"target": {"id": "cellWifi"}}),
                  ("action.tap", {"target": {"id": "cellWifi"}})]
        for method, params in routes:
            params = dict(params, app=APP_NAME)
            r = c.call(method, params)
            self.assertIn("error", r, "%s %s was not blocked: %s" % (method, params, r))
            self.assertEqual(r["error"]["code"], -32017, r)
            self.assertEqual(r["error"]["data"]["restriction"], restriction, r)
        self.assertEqual(self.wifi_on(c), before, "a blocked action changed the switch")

    def state(self, c, restriction):
        for r in c.result("policy.get", {"app": APP_NAME})["restrictions"]:
            if r["id"] == restriction:
                return r["state"], r["source"]
        self.fail("no restriction %s" % restriction)

    # -- tests ----------------------------------------------------------------------------------------------

    def test_denial_survives_kill_9_and_restart_of_the_app(self):
        self.start()
        app = self.start_app()
        c = self.client()
        self.wait_app(c)
        self.assertEqual(self.state(c, WIFI), ("deny", "file"))
        self.assert_every_route_blocked(c)
        app.stop(signal.SIGKILL)
        self.wait_app(c, present=False)
        self.start_app()
        self.wait_app(c)
        self.assertEqual(self.state(c, WIFI), ("deny", "file"))
        self.assert_every_route_blocked(c)
        # The relaunched app cannot clear it: it has no operator role.
        c.close()

    def test_operator_changes_are_written_back_and_survive_a_server_restart(self):
        self.start()
        self.start_app()
        c = self.client()
        self.wait_app(c)
        refused = c.call("policy.set", {"app": APP_NAME, "restriction": RESET, "state": "deny"})
        self.assertEqual(refused["error"]["code"], -32018, refused)
        op = self.client("operator")
        op.result("policy.set", {"app": APP_NAME, "restriction": RESET, "state": "deny"})
        with open(self.policy) as f:
            on_disk = json.load(f)
        self.assertEqual(sorted(on_disk["apps"][APP_NAME]["deny"]), sorted([RESET, WIFI]))
        self.assertEqual(oct(os.stat(self.policy).st_mode & 0o777), oct(0o600))
        self.assertFalse([n for n in os.listdir(self.dir) if ".tmp-" in n], "a temporary file was left behind")
        op.close()
        c.close()
        self.server.stop()
        for p in self.procs:
            p.stop(signal.SIGKILL)
        self.procs = []
        self.start()
        self.start_app()
        c = self.client()
        self.wait_app(c)
        self.assertEqual(self.state(c, RESET), ("deny", "file"))
        self.assert_every_route_blocked(c)
        r = c.call("action.activate", {"app": APP_NAME, "target": {"id": "showAlert"}})
        self.assertEqual(r["error"]["code"], -32017, r)
        c.close()

    def test_the_operator_command_of_axquery_sets_and_the_file_keeps_it(self):
        """Issue 38 item 8: `axquery policy set ID allow|deny --operator-token-file F` (the README's kiosk section)."""
        import subprocess
        self.start()
        self.start_app()

        def axquery(*args):
            env = dict(os.environ, NO_COLOR="1")
            env.pop("AXSERVER_SOCKET", None)
            return subprocess.run([AXQUERY, *args, "--socket", self.sock], capture_output=True, text=True,
                                  timeout=30, env=env)
        before = axquery("policy", "get", "--app", APP_NAME)
        self.assertEqual(before.returncode, 0, before.stderr)
        self.assertRegex(before.stdout, r"deny\s+%s" % WIFI.replace(".", r"\."))
        changed = axquery("policy", "set", WIFI, "allow", "--app-name", APP_NAME, "--operator-token-file", self.token)
        self.assertEqual(changed.returncode, 0, changed.stderr)
        after = axquery("policy", "get", "--app", APP_NAME, "--json")
        states = {r["id"]: r["state"] for r in json.loads(after.stdout)["restrictions"]}
        self.assertEqual(states[WIFI], "allow")
        with open(self.policy) as f:
            self.assertNotIn(WIFI, json.load(f)["apps"][APP_NAME].get("deny", []))   # written back
        wrong = os.path.join(self.dir, "wrong.token")
        write_private(wrong, "not-the-token\n")
        refused = axquery("policy", "set", WIFI, "deny", "--app-name", APP_NAME, "--operator-token-file", wrong)
        self.assertEqual(refused.returncode, 5, refused.stdout + refused.stderr)
        plain = axquery("policy", "set", "no.such.restriction", "deny", "--app", APP_NAME,
                        "--operator-token-file", self.token)
        self.assertEqual(plain.returncode, 6, plain.stdout + plain.stderr)

    def test_malformed_or_partially_written_files_are_refused_at_start(self):
        for text, line in [('{"version": 1,\n "apps": {"kiosk-demo": {"deny": ["x"\n', 3),
                           ('{"version": 1,\n "apps": {"kiosk-demo": {"deny": ["x"], "allow": ["x"]}}}\n', 2),
                           ('{"version": 1, "bogus": true}\n', 1)]:
            write_private(self.policy, text)
            p = Proc([AXSERVER, "serve", "--no-atspi", "--socket", os.path.join(self.dir, "s.sock"), "--policy", self.policy])
            try:
                _, err = p.p.communicate(timeout=30)
            finally:
                p.stop()
            self.assertNotEqual(p.p.returncode, 0, "a malformed policy was accepted: %r" % text)
            self.assertIn("line %d" % line, err, err)

    def test_sighup_reloads_and_a_bad_reload_keeps_the_running_policy(self):
        self.start()
        self.start_app()
        c = self.client()
        self.wait_app(c)
        c.result("events.subscribe", {"events": ["policy.changed"]})
        write_private(self.policy, json.dumps({"version": 1, "apps": {APP_NAME: {"allow": [WIFI], "deny": [RESET]}}}))
        self.server.p.send_signal(signal.SIGHUP)
        deadline = time.time() + 10
        while time.time() < deadline and self.state(c, WIFI)[0] != "allow":
            time.sleep(0.05)
        self.assertEqual(self.state(c, WIFI), ("allow", "file"))
        self.assertEqual(self.state(c, RESET), ("deny", "file"))
        events = [n for n in c.notifications if n["method"] == "policy.changed"]
        self.assertTrue(any(e["params"]["by"] == "policy file reload (SIGHUP)" for e in events), events)
        # A half-written file is refused whole: the running policy stays.
        write_private(self.policy, '{"version": 1, "apps": {"%s": {"deny": [' % APP_NAME)
        self.server.p.send_signal(signal.SIGHUP)
        time.sleep(1.0)
        self.assertIsNone(self.server.p.poll(), "the server died on a bad reload")
        self.assertEqual(self.state(c, WIFI), ("allow", "file"))
        self.assertEqual(self.state(c, RESET), ("deny", "file"))
        c.close()


class HangUp(unittest.TestCase):
    """Issue 12.9: without a policy to reload, SIGHUP shuts the server down cleanly and removes its socket."""

    def test_sighup_without_policy_removes_the_socket(self):
        server, sock, _ = start_server()
        self.assertTrue(os.path.exists(sock))
        server.p.send_signal(signal.SIGHUP)
        try:
            server.p.wait(15)
        finally:
            code = server.stop()
        self.assertEqual(code, 0, "the server did not shut down cleanly on SIGHUP")
        self.assertFalse(os.path.exists(sock), "SIGHUP left the socket behind")


class KioskPolicyATSPI(unittest.TestCase):
    """The AT-SPI route stays blocked after the app is killed and relaunched."""

    def test_doaction_on_the_cell_stays_blocked_after_kill_9(self):
        import tempfile
        d = tempfile.mkdtemp(prefix="axkiosk-")
        policy = os.path.join(d, "policy.json")
        write_private(policy, json.dumps({"version": 1, "apps": {APP_NAME: {"deny": [WIFI]}}}))
        stack = A11yStack()
        server = app = client = None
        try:
            server, sock, _ = start_server("--policy", policy, env=stack.env, atspi=True)
            client = AtspiClient(stack.env)
            for attempt in range(2):
                app = Proc([AXSERVER, "demo-app", "--socket", sock, "--name", APP_NAME], env=stack.env)
                app.wait_line("READY", timeout=30)
                rpc = RPC(sock)
                rpc.result("initialize", {"role": "automation"})
                deadline = time.time() + 10
                blocked = None
                while time.time() < deadline:
                    try:
                        blocked = not client.call("action", app=APP_NAME, where={"name": "Wi-Fi"}, index=0)
                        break
                    except Exception as e:  # the app is not on the bus yet, or the action was denied
                        if "AccessDenied" in str(e) or "Guided Access" in str(e):
                            blocked = True
                            break
                        time.sleep(0.2)
                self.assertTrue(blocked, "DoAction on the Wi-Fi cell was not blocked (attempt %d)" % attempt)
                el = rpc.result("element.get", {"app": APP_NAME, "target": {"id": "cellWifi"}})
                self.assertIn("checked", el["states"], "the denied DoAction turned Wi-Fi off")
                rpc.close()
                app.stop(signal.SIGKILL)
                app = None
        finally:
            if app:
                app.stop(signal.SIGKILL)
            if client:
                client.close()
            if server:
                server.stop()
            stack.stop()


if __name__ == "__main__":
    unittest.main()
