"""Over 64 KiB of typed text must not wedge the demo (issue: reliability and security).

The demo app runs as its own provider process (`axserver demo-app --socket`), the test client is this process.
Before the fix the demo accepted the text, the server refused the update (string over the 64 KiB schema limit),
the action still reported `performed: true`, and every later update (each uptime tick, each action) carried the
same refused text, so the app froze on the server. Now the demo's name field holds at most 64 KiB like a
length-limited UITextField: text that would overflow it is turned down with −32022 "app error" (`reason:
maxLength`), the field keeps its text, and the app goes on answering actions and publishing its tree."""
import time
import unittest

from harness import AXSERVER, Proc, RPC, start_server

APP_ERROR = -32022
LIMIT = 65536


class ProviderRefusal(unittest.TestCase):
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
        c.result("initialize", {"role": "automation", "clientInfo": {"name": "it-refusal"}})
        return c

    def name_value(self, c):
        return c.result("element.get", {"target": {"id": "nameField"}}).get("value") or ""

    def test_typing_past_64_kib_is_refused_and_the_demo_keeps_working(self):
        c = self.client()
        first = "a" * 40000
        r = c.result("action.typeText", {"target": {"id": "nameField"}, "text": first})
        self.assertTrue(r["performed"])
        self.assertEqual(len(self.name_value(c)), 40000)

        # 40,000 + 30,000 bytes is over the 64 KiB limit: an app error, not `performed: true`.
        m = c.call("action.typeText", {"target": {"id": "nameField"}, "text": "b" * 30000})
        self.assertIn("error", m, m.get("result"))
        err = m["error"]
        self.assertEqual(err["code"], APP_ERROR, err)
        self.assertEqual(err["data"]["kind"], "app error")
        self.assertEqual(err["data"]["reason"], "maxLength", err)
        self.assertEqual(err["data"]["appError"]["data"]["maxLength"], LIMIT)
        self.assertIn("65536", err["message"])
        self.assertEqual(self.name_value(c), first, "the refused text changed the field")

        # One call with more than 64 KiB at once is refused the same way.
        m = c.call("action.setValue", {"target": {"id": "nameField"}, "value": "c" * (LIMIT + 1)})
        self.assertEqual(m.get("error", {}).get("code"), APP_ERROR, m)

        # The demo still answers a second action, and publishes its effect.
        before = c.result("element.get", {"target": {"id": "cellWifi"}})["value"]
        r = c.result("action.activate", {"target": {"id": "cellWifi"}})
        self.assertTrue(r["performed"])
        self.assertGreater(r["revisionAfter"], r["revisionBefore"])
        self.assertNotEqual(c.result("element.get", {"target": {"id": "cellWifi"}})["value"], before)

        # Its live label keeps ticking (its updates are accepted), and the tree is whole and in step.
        uptime = c.result("element.get", {"target": {"id": "uptime"}})["label"]
        deadline = time.time() + 5
        while time.time() < deadline and c.result("element.get", {"target": {"id": "uptime"}})["label"] == uptime:
            time.sleep(0.2)
        self.assertNotEqual(c.result("element.get", {"target": {"id": "uptime"}})["label"], uptime, "the demo froze")
        tree = c.result("tree.get", {"format": "json"})
        nodes = {}

        def walk(node):
            nodes[node["id"]] = node
            for child in node.get("children", []):
                walk(child)
        for window in tree["windows"]:
            walk(window)
        for expected in ("nameField", "cellWifi", "cellBluetooth", "uptime", "textSize", "tabBar"):
            self.assertIn(expected, nodes)
        self.assertEqual(nodes["nameField"].get("value"), first)
        self.assertEqual(tree.get("truncated", []), [])

        # A short value replaces the long text: the field is usable again.
        r = c.result("action.setValue", {"target": {"id": "nameField"}, "value": "Pixel"})
        self.assertTrue(r["performed"])
        self.assertEqual(self.name_value(c), "Pixel")
        c.close()


if __name__ == "__main__":
    unittest.main()
