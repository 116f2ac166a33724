"""A provider in one process, the server in another, a test client in a third (issue: JSON-RPC server).
The demo app runs as a separate provider process (`axserver demo-app`)."""
import json
import os
import socket
import stat
import time
import unittest

from harness import AXSERVER, Proc, RPC, start_server


class SocketEndToEnd(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.server, cls.sock, cls.tmp = start_server()
        cls.app = Proc([AXSERVER, "demo-app", "--socket", cls.sock])
        cls.app.wait_line("READY", timeout=60)

    @classmethod
    def tearDownClass(cls):
        cls.app.stop()
        cls.server.stop()

    def client(self):
        c = RPC(self.sock)
        c.result("initialize", {"role": "automation", "clientInfo": {"name": "it"}})
        return c

    def test_socket_is_private(self):
        mode = stat.S_IMODE(os.stat(self.sock).st_mode)
        self.assertEqual(mode, 0o600, oct(mode))

    def test_apps_list_shows_the_separate_provider(self):
        c = self.client()
        apps = c.result("apps.list")
        self.assertIn("axserver-demo", [a["name"] for a in apps])
        c.close()

    def test_find_activate_and_observe(self):
        c = self.client()
        sw = c.result("element.get", {"target": {"selector": "#cell.wifi"}}) if False else \
            c.result("element.get", {"target": {"id": "cellWifi"}})
        self.assertEqual(sw["label"], "Wi-Fi")
        before = sw["value"]
        sub = c.result("events.subscribe", {"events": ["tree.changed"]})
        r = c.result("action.activate", {"target": {"id": "cellWifi"}})
        self.assertTrue(r["performed"])
        self.assertGreater(r["revisionAfter"], r["revisionBefore"])
        after = c.result("element.get", {"target": {"id": "cellWifi"}})["value"]
        self.assertNotEqual(before, after)
        self.assertIn(after, ("on", "off"))
        # the tree.changed event for that revision reaches the subscriber
        deadline = time.time() + 5
        while time.time() < deadline and not any(n["method"] == "tree.changed" and "cellWifi" in n["params"]["updated"]
                                                  for n in c.notifications):
            c.call("ping")
        self.assertTrue(any(n["method"] == "tree.changed" for n in c.notifications), c.notifications)
        c.result("events.unsubscribe", {"subscription": sub["subscription"]})
        c.close()

    def test_wait_for_live_label(self):
        c = self.client()
        first = c.result("element.get", {"target": {"id": "uptime"}})["label"]
        r = c.result("wait.for", {"target": {"id": "uptime"}, "state": "label", "value": first, "timeoutMs": 100})
        self.assertTrue(r["satisfied"])
        # the uptime label really changes over time: wait until it no longer reads the first value
        deadline = time.time() + 5
        changed = False
        while time.time() < deadline:
            lbl = c.result("element.get", {"target": {"id": "uptime"}})["label"]
            if lbl != first:
                changed = True
                break
            c.result("wait.for", {"target": {"id": "uptime"}, "state": "attached", "timeoutMs": 50})
            time.sleep(0.2)
        self.assertTrue(changed, "uptime label never changed from %r" % first)
        c.close()

    def test_errors_and_other_clients_unaffected(self):
        good = self.client()
        bad = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        bad.connect(self.sock)
        bad.sendall(b'{"jsonrpc":"2.0","id":1,"method":"initialize"}\n{not json}\n')
        f = bad.makefile("rb")
        json.loads(f.readline())
        err = json.loads(f.readline())
        self.assertEqual(err["error"]["code"], -32700)
        bad.sendall(b'{"jsonrpc":"2.0","id":2,"method":"no.such.method"}\n')
        self.assertEqual(json.loads(f.readline())["error"]["code"], -32601)
        bad.sendall(b'{"jsonrpc":"2.0","id":3,"method":"element.get","params":{"target":{"id":"nope"}}}\n')
        self.assertEqual(json.loads(f.readline())["error"]["code"], -32010)
        bad.sendall(b'{"jsonrpc":"2.0","id":4,"method":"element.get","params":[1,2]}\n')
        self.assertEqual(json.loads(f.readline())["error"]["code"], -32602)
        bad.close()
        self.assertEqual(good.result("ping"), "pong")
        good.close()

    def test_provider_disconnect_removes_app(self):
        p = RPC(self.sock)
        p.result("initialize", {"role": "provider"})
        app = p.result("app.register", {"name": "short-lived"})["app"]
        p.result("hierarchy.set", {"windows": [{"id": "w", "class": "UIWindow", "frame": [0, 0, 10, 10]}]})
        c = self.client()
        self.assertIn(app, [a["id"] for a in c.result("apps.list")])
        p.close()
        deadline = time.time() + 5
        while time.time() < deadline and app in [a["id"] for a in c.result("apps.list")]:
            time.sleep(0.05)
        self.assertNotIn(app, [a["id"] for a in c.result("apps.list")])
        c.close()


if __name__ == "__main__":
    unittest.main()


class OneConnectionAppAndClient(unittest.TestCase):
    """A single connection that is both an app and a test client: it activates its own button and, while
    answering the server's action.perform, publishes the change. This must not deadlock."""

    def test_self_action_with_update(self):
        server, sock, _ = start_server()
        try:
            c = RPC(sock, timeout=10)
            c.result("initialize", {"role": "provider"})
            c.result("app.register", {"name": "self"})
            c.result("hierarchy.set", {"windows": [{"id": "w", "class": "UIWindow", "frame": [0, 0, 200, 200], "children": [
                {"id": "b", "class": "UIButton", "title": "Off", "frame": [10, 10, 80, 40]}]}]})

            def on_request(method, params):
                self.assertEqual(method, "action.perform")
                self.assertEqual(params["target"], "b")
                c.result("hierarchy.update", {"ops": [{"op": "set", "id": "b", "properties": {"title": "On"}}]})
                return {"handled": True}
            c.on_request = on_request
            t0 = time.time()
            r = c.result("action.activate", {"target": {"id": "b"}})
            self.assertTrue(r["performed"])
            self.assertLess(time.time() - t0, 3, "the action waited for a timeout")
            self.assertEqual(c.result("element.get", {"target": {"id": "b"}})["label"], "On")
            c.close()
        finally:
            server.stop()
