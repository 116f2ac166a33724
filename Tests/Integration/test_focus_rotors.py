"""The focus engine and rotors over the real socket (issue 9): a test script Tabs, arrow-moves, queries, explains
and steps rotors on the demo's About screen (activate the About cell), with the demo app as a separate provider
process, so the server's scrollToVisible request travels over the socket like any action."""
import json
import os
import subprocess
import time
import unittest

from harness import AXQUERY, AXSERVER, Proc, RPC, start_server


class FocusAndRotors(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.server, cls.sock, cls.tmp = start_server()
        cls.app = Proc([AXSERVER, "demo-app", "--socket", cls.sock])
        cls.app.wait_line("READY", timeout=60)
        c = cls.client()
        c.result("action.activate", {"target": {"id": "cellAbout"}})
        c.result("wait.for", {"target": {"id": "tile1"}, "state": "attached", "timeoutMs": 10000})
        c.close()

    @classmethod
    def tearDownClass(cls):
        cls.app.stop()
        cls.server.stop()

    @classmethod
    def client(cls):
        c = RPC(cls.sock)
        c.result("initialize", {"role": "automation", "clientInfo": {"name": "focus-it"}})
        return c

    def axquery(self, *args):
        p = subprocess.run([AXQUERY] + list(args) + ["--socket", self.sock], capture_output=True, text=True, timeout=60)
        return p.returncode, p.stdout

    def test_1_tab_arrows_guide_and_query(self):
        c = self.client()
        status = c.result("focus.status")
        self.assertEqual(status["keyWindow"], "aboutWindow")
        self.assertEqual(status["initial"], "tile1", "the top-leading focusable item of the key window (C6)")
        self.assertEqual(status["sequence"][:4], ["tile1", "tile2", "tile3", "tile4"])
        c.result("events.subscribe", {"events": ["focus.changed", "focus.movementFailed"]})
        self.assertEqual(c.result("focus.move", {"direction": "next"})["to"], "tile1")
        self.assertEqual(c.result("focus.move", {"direction": "next"})["to"], "tile2")
        self.assertEqual(c.result("focus.move", {"direction": "right"})["to"], "tile3")
        # Nothing right of tile 3: the move fails and says so.
        failed = c.result("focus.move", {"direction": "right"})
        self.assertIsNone(failed["to"])
        self.assertEqual(failed["failure"], "noCandidate")
        # Down from tile 3: nothing is under it but the guide, which leads to tile 4 (C20, C21).
        down = c.result("focus.move", {"direction": "down"})
        self.assertEqual((down["to"], down["guide"]), ("tile4", "tilesGuide"))
        # Simulate: up from tile 4 would reach tile 1; focus stays on tile 4 (C33).
        self.assertEqual(c.result("focus.query", {"direction": "up"})["to"], "tile1")
        self.assertEqual(c.result("focus.status")["engine"]["id"], "tile4")
        self.assertEqual(c.result("focus.get")["element"]["id"], "tile4", "accessibility focus follows engine moves (D-FOCUS-3)")
        deadline = time.time() + 5
        while time.time() < deadline and not any(n["method"] == "focus.movementFailed" for n in c.notifications):
            c.call("ping")
        engine = [n["params"] for n in c.notifications if n["method"] == "focus.changed" and n["params"]["focus"] == "engine"]
        self.assertEqual([(e["from"], e["to"], e["heading"]) for e in engine],
                         [(None, "tile1", "next"), ("tile1", "tile2", "next"), ("tile2", "tile3", "right"), ("tile3", "tile4", "down")])
        self.assertEqual([n["params"]["heading"] for n in c.notifications if n["method"] == "focus.movementFailed"], ["right"])
        c.close()

    def test_2_explain(self):
        c = self.client()
        label = c.result("focus.explain", {"target": {"id": "okNetwork"}})
        self.assertFalse(label["focusable"])
        self.assertEqual((label["failed"]["check"], label["failed"]["view"]), ("canBecomeFocused", "okNetwork"))
        behind = c.result("focus.explain", {"target": {"id": "editButton"}})
        self.assertFalse(behind["focusable"])
        self.assertEqual((behind["failed"]["check"], behind["failed"]["view"]), ("keyWindow", "mainWindow"))
        self.assertTrue(c.result("focus.explain", {"target": {"id": "aboutDone"}})["focusable"])
        bad = c.call("focus.move", {"direction": "sideways"})
        self.assertEqual(bad["error"]["code"], -32602)
        self.assertIn("next", bad["error"]["data"]["accepted"])
        c.close()

    def test_3_scroll_below_the_fold(self):
        c = self.client()
        self.assertEqual(c.result("focus.update", {"target": {"id": "item3"}})["to"], "item3")
        moved = c.result("focus.move", {"direction": "down"})
        self.assertEqual(moved["to"], "item4")
        # item4 is at screen y 650…700 in a scroll view showing 470…670: scroll by 30 (C25); the demo applies it.
        self.assertEqual(moved["scroll"], {"container": "aboutScroll", "contentOffset": [0, 30], "handled": True})
        deadline = time.time() + 5
        frame = None
        while time.time() < deadline:
            frame = c.result("element.get", {"target": {"id": "item4"}})["frame"]
            if frame["y"] + frame["height"] <= 670:
                break
            time.sleep(0.05)
        self.assertLessEqual(frame["y"] + frame["height"], 670, frame)
        c.close()

    def test_4_rotors(self):
        c = self.client()
        listed = c.result("rotor.list", {"target": {"id": "okNetwork"}})
        by_name = {r["name"]: r for r in listed["rotors"]}
        self.assertEqual((by_name["Warnings"]["declaredBy"], by_name["Warnings"]["count"]), ("warnings", 2))
        self.assertEqual(by_name["headingLevel1"]["count"], 1)
        step = c.result("rotor.next", {"rotor": "Warnings", "from": {"id": "okNetwork"}})
        self.assertEqual(step["item"]["target"], "warnBattery")
        self.assertEqual(c.result("focus.get")["element"]["id"], "warnBattery")
        back = c.result("rotor.previous", {"rotor": "Warnings"})
        self.assertEqual(back["item"]["target"], "warnDisk")
        self.assertEqual(c.result("rotor.next", {"rotor": "heading", "from": {"id": "hdrAbout"}})["item"]["target"], "hdrTiles")
        self.assertEqual(c.result("rotor.next", {"rotor": "headingLevel1", "from": None})["item"]["target"], "hdrAbout")
        self.assertEqual(c.result("query.count", {"selector": ":rotor(headingLevel2)"})["count"], 5)
        c.close()

    def test_5_axquery_subcommands(self):
        code, out = self.axquery("focus", "status")
        self.assertEqual(code, 0, out)
        self.assertIn("engine:", out)
        code, out = self.axquery("focus", "explain", "#okNetwork")
        self.assertEqual(code, 0, out)
        self.assertIn("not focusable", out)
        code, out = self.axquery("focus", "query", "down", "--from", "#tile2", "--json")
        self.assertEqual(code, 0, out)
        self.assertEqual(json.loads(out)["to"], "tile4")
        code, out = self.axquery("rotor", "list", "--target", "#warnDisk")
        self.assertEqual(code, 0, out)
        self.assertIn("Warnings", out)
        code, out = self.axquery("rotor", "next", "Warnings", "--from", "#warnBattery", "--no-move")
        self.assertEqual(code, 1, "end of the rotor exits 1: " + out)
        code, out = self.axquery("focus", "move", "sideways")
        self.assertEqual(code, 6, out)


if __name__ == "__main__":
    unittest.main()
