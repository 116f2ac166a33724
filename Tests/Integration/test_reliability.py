"""Reliability round 2 (issue 19) with real sockets and processes: subscribed providers that close during event
delivery (D-REL-1), duplicate keys in the kiosk policy file at start and on SIGHUP (D-REL-4), oversized token
files (D-REL-7). Each test starts its own `axserver serve`, ended by PID."""
import json
import os
import signal
import socket
import struct
import tempfile
import threading
import time
import unittest

from harness import AXSERVER, RPC, Proc, start_server


def write_private(path, data):
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "wb") as f:
        f.write(data if isinstance(data, bytes) else data.encode())


def send(sock, method, params, ident):
    sock.sendall((json.dumps({"jsonrpc": "2.0", "id": ident, "method": method, "params": params}) + "\n").encode())


class ClosingDuringDelivery(unittest.TestCase):
    """Issue 19 item 1: connections that are providers and subscribers close (reset) while another connection's
    3,000-update stream is delivered. The server used to die ("Recursive call to lock Mutex")."""

    def setUp(self):
        self.server, self.sock, _ = start_server()

    def tearDown(self):
        self.server.stop()

    def test_subscribed_providers_closing_mid_stream_leave_the_server_serving(self):
        streamer = RPC(self.sock)
        streamer.result("initialize", {"role": "provider"})
        streamer.result("app.register", {"name": "streamer"})
        streamer.result("hierarchy.set", {"windows": [{"id": "w", "class": "UIWindow", "frame": [0, 0, 100, 100],
                                                       "children": [{"id": "l", "class": "UILabel", "text": "0",
                                                                     "frame": [0, 0, 50, 20]}]}]})
        victims = []
        for index in range(20):
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            s.connect(self.sock)
            # Registered, subscribed to everything, and never reading: its writes back up, then it resets.
            send(s, "initialize", {"role": "provider"}, 1)
            send(s, "app.register", {"name": "victim%d" % index}, 2)
            send(s, "events.subscribe", {}, 3)
            victims.append(s)
        time.sleep(0.5)

        def stream():
            burst = []
            for n in range(3000):
                burst.append(json.dumps({"jsonrpc": "2.0", "id": 100 + n, "method": "hierarchy.update",
                                         "params": {"ops": [{"op": "set", "id": "l", "properties": {"text": str(n)}}]}}))
            streamer.s.sendall(("\n".join(burst) + "\n").encode())
        sender = threading.Thread(target=stream)
        sender.start()
        for s in victims:
            time.sleep(0.01)
            s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            s.close()
        sender.join(30)
        replies = 0
        deadline = time.time() + 60
        while replies < 3000 and time.time() < deadline:
            m = streamer.read_msg()
            if "id" in m and "method" not in m:
                self.assertIn("result", m, m)
                replies += 1
        self.assertEqual(replies, 3000, "the stream's replies were lost")
        self.assertIsNone(self.server.p.poll(), "the server died")
        c = RPC(self.sock)
        c.result("initialize", {"role": "automation"})
        deadline = time.time() + 10
        names = None
        while time.time() < deadline:
            names = [a["name"] for a in c.result("apps.list")]
            if names == ["streamer"]:
                break
            time.sleep(0.05)
        self.assertEqual(names, ["streamer"], "the closed providers' apps did not leave")
        c.close()
        streamer.close()


class PolicyAndTokenFiles(unittest.TestCase):
    """Issue 19 items 4 and 7: a key written twice in the policy file is refused with its line, at start and on
    SIGHUP (the running policy stays); a token file of megabytes is refused at start."""

    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="axrel-")
        self.policy = os.path.join(self.dir, "policy.json")
        self.token = os.path.join(self.dir, "operator.token")
        write_private(self.token, "reliability-operator-token-7d3e\n")
        self.procs = []

    def tearDown(self):
        for p in self.procs:
            p.stop(signal.SIGKILL)

    def refused_at_start(self, *args):
        p = Proc([AXSERVER, "serve", "--no-atspi", "--socket", os.path.join(self.dir, "s.sock")] + list(args))
        try:
            _, err = p.p.communicate(timeout=30)
        finally:
            p.stop()
        self.assertNotEqual(p.p.returncode, 0, "accepted: %s" % (args,))
        return err

    def test_duplicate_keys_are_refused_at_start_with_their_line(self):
        write_private(self.policy, '{"version": 1, "apps": {"kiosk": {\n"deny": ["r.a"],\n"deny": ["r.b"]}}}\n')
        err = self.refused_at_start("--policy", self.policy)
        self.assertIn("line 3", err, err)
        self.assertIn("duplicate key 'deny'", err, err)

    def test_duplicate_keys_on_sighup_keep_the_running_policy(self):
        write_private(self.policy, json.dumps({"version": 1, "apps": {"kiosk": {"deny": ["r.a"]}}}))
        server, sock, _ = start_server("--policy", self.policy)
        self.procs.append(server)
        app = RPC(sock)
        app.result("initialize", {"role": "provider"})
        app.result("app.register", {"name": "kiosk"})
        app.result("hierarchy.set", {"windows": [{"id": "w", "class": "UIWindow", "frame": [0, 0, 100, 100]}],
                                     "guidedAccessRestrictions": [{"id": "r.a", "text": "A"},
                                                                  {"id": "r.b", "text": "B"}]})
        c = RPC(sock)
        c.result("initialize", {"role": "automation"})

        def states():
            return {r["id"]: r["state"] for r in c.result("policy.get", {"app": "kiosk"})["restrictions"]}
        self.assertEqual(states(), {"r.a": "deny", "r.b": "allow"})
        # Written twice: last-one-wins would allow r.a and deny r.b.
        write_private(self.policy, '{"version": 1, "apps": {"kiosk": {"deny": ["r.a"],\n"deny": ["r.b"]}}}\n')
        server.p.send_signal(signal.SIGHUP)
        time.sleep(1.0)
        self.assertIsNone(server.p.poll(), "the server died on a refused reload")
        self.assertEqual(states(), {"r.a": "deny", "r.b": "allow"}, "a duplicate key re-allowed a denial")
        c.close()
        app.close()
        server.p.send_signal(signal.SIGTERM)
        _, err = server.p.communicate(timeout=30)
        self.assertIn("duplicate key 'deny'", err, err)

    def test_a_megabytes_long_operator_token_file_is_refused(self):
        write_private(self.token, b"x" * (50 << 20))
        err = self.refused_at_start("--operator-token-file", self.token)
        self.assertIn("at most 4096 bytes", err, err)

    def test_a_megabytes_long_tcp_token_file_is_refused(self):
        tcp_token = os.path.join(self.dir, "tcp.token")
        write_private(tcp_token, b"y" * (5 << 20))
        err = self.refused_at_start("--listen", "tcp:127.0.0.1:0", "--token-file", tcp_token)
        self.assertIn("larger than 4096 bytes", err, err)


if __name__ == "__main__":
    unittest.main()
