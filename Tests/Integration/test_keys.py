"""Keys reach the screen reader (issue 10 §1, §2): `input.key` through the AT-SPI bridge to a keystroke listener
registered with the registry's DeviceEventController the way Orca registers (key_listener.py, pyatspi), and focus
as a screen reader sees it.

A private session bus + AT-SPI bus + registry (Tools/a11y-stack.sh) and `axserver --demo` (which lets the server
handle its navigation keys, D-KEY-2). Expected values come from Specs/decisions.md D-KEY-1…4 and D-FOCUS-7, the
keysym table (X11 keysymdef.h and the evdev US layout) and Sources/AXDemo/DemoApp.swift (the alert, its Cancel
button and the "Reset All Settings" button that shows it).
"""
import json
import os
import statistics
import threading
import time
import unittest

from atspi_helpers import AtspiClient, wait_until
from harness import RPC, A11yStack, Proc, start_server

APP = "axserver-demo"
HERE = os.path.dirname(os.path.abspath(__file__))


def percentile(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100.0 * (len(ordered) - 1))))]


class KeysThroughTheBridge(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.stack = A11yStack()
        cls.server = cls.atspi = None
        cls.listeners = []
        try:
            cls.server, cls.sock, cls.tmp = start_server("--demo", env=cls.stack.env, atspi=True)
            if "embedded=1" not in cls.server.lines[-1]:
                raise AssertionError("the demo is not on the AT-SPI bus: " + cls.server.lines[-1])
            cls.atspi = AtspiClient(cls.stack.env)
        except BaseException:
            cls._cleanup()
            raise

    @classmethod
    def _cleanup(cls):
        for listener in cls.listeners:
            listener.stop()
        if cls.atspi:
            cls.atspi.close()
        if cls.server:
            cls.server.stop()
        cls.stack.stop()

    @classmethod
    def tearDownClass(cls):
        cls._cleanup()

    def rpc(self):
        c = RPC(self.sock)
        c.result("initialize", {"role": "automation", "clientInfo": {"name": "keys-it"}})
        self.addCleanup(c.close)
        return c

    def start_listener(self, *args):
        listener = Proc(["/usr/bin/python3", os.path.join(HERE, "key_listener.py")] + list(args), env=self.stack.env)
        self.listeners.append(listener)
        listener.wait_line("READY", timeout=30)

        def read():
            try:
                for line in listener.p.stdout:
                    listener.lines.append(line.rstrip("\n"))
            except (ValueError, OSError):
                pass  # closed by stop()
        threading.Thread(target=read, daemon=True).start()
        return listener

    def stop_listener(self, listener):
        listener.stop()
        self.listeners.remove(listener)

    def wait_forwarding(self, c, on=True):
        """The bridge learns about (de)registrations from the registry's signals: wait until it forwards."""
        def state():
            r = c.result("input.key", {"key": "F12"})
            return (r["assistiveTechnology"] != "noListener") == on
        self.assertTrue(wait_until(state, timeout=10), "the bridge did not see the keystroke listener come/go")

    def heard(self, listener, count, timeout=5.0):
        """The keys the listener printed so far (the F12 probes of wait_forwarding left out), waiting for `count`."""
        deadline = time.time() + timeout
        while True:
            keys = [json.loads(l) for l in list(listener.lines) if l.startswith("{")]
            keys = [k for k in keys if k["event_string"] != "F12"]
            if len(keys) >= count or time.time() > deadline:
                return keys
            time.sleep(0.02)

    # -- no AT: the cost of forwarding ----------------------------------------------------------------------

    def test_0_no_listener_costs_nothing_measurable(self):
        c = self.rpc()
        self.assertEqual(c.result("input.key", {"key": "F12"})["assistiveTechnology"], "noListener")
        n = 250
        def timed(method, params):
            out = []
            for _ in range(n):
                t = time.perf_counter()
                c.result(method, params)
                out.append((time.perf_counter() - t) * 1000)
            return out
        timed("ping", None)  # warm-up
        ping = timed("ping", None)
        key = timed("input.key", {"key": "F12"})
        figures = {"ping_p50": percentile(ping, 50), "ping_p95": percentile(ping, 95),
                   "key_p50": percentile(key, 50), "key_p95": percentile(key, 95)}
        print("\nFIGURES input.key (no AT listening, F12 delivered to the demo app) vs ping, %d calls each: %s"
              % (n, json.dumps({k: round(v, 3) for k, v in figures.items()})))
        # The target is ≤ 1 ms added (release build); debug builds on a shared 2-core machine get slack.
        self.assertLess(figures["key_p50"] - figures["ping_p50"], 5.0)

    # -- an AT listening ------------------------------------------------------------------------------------

    def test_1_listener_hears_keys_and_consumes_one(self):
        c = self.rpc()
        listener = self.start_listener("--consume", "h,ISO_Left_Tab")
        self.addCleanup(lambda: listener in self.listeners and self.stop_listener(listener))
        self.wait_forwarding(c)
        consumed = c.result("input.key", {"key": "h"})
        self.assertEqual((consumed["consumed"], consumed["handledBy"]), (True, "assistive-technology"))
        passed = c.result("input.key", {"key": "a", "modifiers": ["shift"]})
        self.assertEqual((passed["consumed"], passed["assistiveTechnology"]), (False, "notConsumed"))
        self.assertNotEqual(passed["handledBy"], "assistive-technology")
        keys = self.heard(listener, 4)
        # What the listener got is what the X registry would have snooped: keysym, US keycode, mask, string
        # (Shift+a is the shifted level's keysym A, as X reports it: D-KEY-7).
        self.assertEqual([(k["type"], k["id"], k["hw_code"], k["modifiers"], k["event_string"]) for k in keys[:4]],
                         [("press", 0x68, 43, 0, "h"), ("release", 0x68, 43, 0, "h"),
                          ("press", 0x41, 38, 1, "A"), ("release", 0x41, 38, 1, "A")])
        # A consumed navigation key never reaches the server's rule: engine focus does not move.
        before = c.result("focus.status")["engine"]
        back = c.result("input.key", {"key": "ISO_Left_Tab"})
        self.assertEqual((back["consumed"], back["handledBy"]), (True, "assistive-technology"))
        self.assertEqual(c.result("focus.status")["engine"], before)
        # The same key not consumed (Tab) moves focus.
        moved = c.result("input.key", {"key": "Tab"})
        self.assertEqual((moved["consumed"], moved["handledBy"]), (False, "server"))
        self.assertNotEqual(c.result("focus.status")["engine"], before)
        # Press and release separately (Orca's modifier is held across other keys).
        self.assertEqual(c.result("input.key", {"key": "KP_Insert", "phase": "press"})["assistiveTechnology"], "notConsumed")
        self.assertEqual(c.result("input.key", {"key": "KP_Insert", "phase": "release"})["assistiveTechnology"], "notConsumed")
        tail = self.heard(listener, len(keys) + 6)[-2:]
        self.assertEqual([(k["type"], k["event_string"], k["hw_code"]) for k in tail],
                         [("press", "KP_Insert", 90), ("release", "KP_Insert", 90)])
        self.stop_listener(listener)
        self.wait_forwarding(c, on=False)

    def test_2_tab_moves_focus_and_the_focus_events_arrive(self):
        c = self.rpc()
        self.atspi.call("listen", types=["object:state-changed:focused", "focus:"])
        self.atspi.call("collect", seconds=0.2)
        events_at = time.time()
        r = c.result("input.key", {"key": "Tab"})
        self.assertEqual(r["handledBy"], "server")
        focused = r["focus"]
        self.assertIsNotNone(focused)
        label = c.result("element.get", {"target": {"id": focused}})["label"]
        events = self.atspi.call("collect", seconds=3, until_type="focus:")
        gained = [e for e in events if e["type"] == "object:state-changed:focused" and e["detail1"] == 1]
        self.assertTrue(gained, "no state-changed:focused: %r" % events)
        self.assertEqual(gained[-1]["source_name"], label)
        self.assertIn("focus:", [e["type"] for e in events])
        print("\nFIGURES Tab -> focused event at the pyatspi client (one run, debug build): %.1f ms"
              % ((time.time() - events_at) * 1000))
        states = self.atspi.call("states", app=APP, where={"name": label})
        self.assertIn("focused", states)
        self.assertIn("focusable", states)
        frame_states = self.atspi.call("states", app=APP, where={"role": "frame"})
        self.assertIn("active", frame_states, "Orca only follows focus inside an ACTIVE frame")

    def test_3_grab_focus_moves_engine_focus_too(self):
        c = self.rpc()
        target = c.result("element.get", {"target": {"id": "showAlert"}})["label"]
        self.assertTrue(self.atspi.call("grab_focus", app=APP, where={"name": target}))
        self.assertTrue(wait_until(lambda: (c.result("focus.status")["engine"] or {}).get("id") == "showAlert",
                                   timeout=5), "engine focus did not follow GrabFocus (D-FOCUS-8)")
        self.assertEqual(c.result("focus.get")["element"]["id"], "showAlert")

    def test_4_escape_on_the_alert_returns_focus(self):
        c = self.rpc()
        c.result("focus.set", {"target": {"id": "showAlert"}})
        c.result("focus.update", {"target": {"id": "showAlert"}})
        button = c.result("element.get", {"target": {"id": "showAlert"}})["label"]
        self.atspi.call("listen", types=["object:state-changed:focused"])
        c.result("input.key", {"key": "Return"})
        self.assertTrue(wait_until(lambda: (c.result("focus.get")["element"] or {}).get("id") == "alertCancel",
                                   timeout=5), "the alert did not take focus")
        self.atspi.call("collect", seconds=0.3)
        r = c.result("input.key", {"key": "Escape"})
        self.assertEqual(r["handledBy"], "server")
        self.assertTrue(wait_until(lambda: (c.result("focus.get")["element"] or {}).get("id") == "showAlert",
                                   timeout=5), "focus did not return to the button after Escape (D-FOCUS-7)")
        events = self.atspi.call("collect", seconds=3, until_type="object:state-changed:focused")
        gained = [e for e in events if e["detail1"] == 1]
        self.assertTrue(gained and gained[-1]["source_name"] == button, "events: %r" % events)
        # Dismissed by its button instead: the same return.
        c.result("input.key", {"key": "Return"})
        self.assertTrue(wait_until(lambda: (c.result("focus.get")["element"] or {}).get("id") == "alertCancel",
                                   timeout=5))
        c.result("action.activate", {"target": {"id": "alertCancel"}})
        self.assertTrue(wait_until(lambda: (c.result("focus.get")["element"] or {}).get("id") == "showAlert",
                                   timeout=5), "focus did not return after the Cancel button")

    def test_5_unknown_key_is_refused(self):
        c = self.rpc()
        err = c.call("input.key", {"key": "Tabulator"})["error"]
        self.assertEqual(err["code"], -32602)
        self.assertEqual(err["data"]["reason"], "unknown key")
        self.assertIn("Tab", err["data"]["accepted"])
        self.assertEqual(c.call("input.key", {"key": "Tab", "modifiers": ["meta"]})["error"]["code"], -32602)

    def test_9_an_at_that_never_answers_does_not_block(self):
        c = self.rpc()
        other = self.rpc()
        listener = self.start_listener("--hang", "x", "--hang-seconds", "8")
        self.addCleanup(lambda: listener in self.listeners and self.stop_listener(listener))
        self.wait_forwarding(c)
        result = {}
        def send():
            t = time.time()
            result["reply"] = c.result("input.key", {"key": "x", "phase": "press"})
            result["seconds"] = time.time() - t
        worker = threading.Thread(target=send)
        worker.start()
        time.sleep(0.3)
        # Meanwhile the server answers other requests and the bridge answers AT-SPI calls.
        t = time.time()
        other.result("ping")
        other.result("tree.revision")
        ping_ms = (time.time() - t) * 1000
        t = time.time()
        self.atspi.call("apps")
        atspi_ms = (time.time() - t) * 1000
        worker.join(15)
        self.assertFalse(worker.is_alive(), "input.key never came back")
        reply = result["reply"]
        self.assertFalse(reply["consumed"])
        self.assertIn(reply["assistiveTechnology"], ("timeout", "notConsumed"))
        print("\nFIGURES AT that never answers: input.key answered after %.2f s (%s); meanwhile ping+tree.revision "
              "%.1f ms, an AT-SPI read %.1f ms" % (result["seconds"], reply["assistiveTechnology"], ping_ms, atspi_ms))
        self.assertGreater(result["seconds"], 2.0, "the registry's 3 s timeout should have run")
        self.assertLess(result["seconds"], 4.5, "bounded by the registry's 3 s timeout")
        self.assertLess(ping_ms, 1000)
        self.assertLess(atspi_ms, 2000)


if __name__ == "__main__":
    unittest.main()
