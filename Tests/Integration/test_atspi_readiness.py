"""Ready for newer at-spi2-core and Orca (issue 21 item 6; Specs/atspi-mapping.md §1 "Newer at-spi2-core"), with the
demo and a second app (the mail client of Tests/Integration/data/mail_provider.py, a plain JSON-RPC provider):

* at-spi2-core 2.60.1's registry pings every application (`org.freedesktop.DBus.Peer.Ping` on path "/" at its bus
  name, 10 s timeout) and stops listing those that fail: both apps answer on "/", also while the mail provider
  patches its tree as fast as the server takes it.
* at-spi2-core 2.61's bus launcher no longer reads the `toolkit-accessibility` gsetting for `org.a11y.Status.IsEnabled`:
  AXServer never read it. With IsEnabled set to false and no AT_SPI_BUS_ADDRESS in its environment, the server still
  finds the bus through `org.a11y.Bus.GetAddress` and registers (D-ATSPI-READY-1).
* `AccessibleId` is the element's `accessibilityIdentifier` (Orca 45+ and Accerciser show it; dogtail and Selenium-
  style AT-SPI drivers locate by it), on the mail app too.
* Announcements carry their politeness: UIKit's high priority → ASSERTIVE (2), default and low → POLITE (1).
"""
import os
import subprocess
import threading
import time
import unittest

from atspi_helpers import AtspiClient, find, wait_until
from harness import RPC, A11yStack, Proc, start_server

HERE = os.path.dirname(os.path.abspath(__file__))
MAIL = os.path.join(HERE, "data", "mail_provider.py")
LISTENER = """
import pyatspi
from gi.repository import GLib
def on_event(event):
    pass
for kind in ("object:", "window:"):
    pyatspi.Registry.registerEventListener(on_event, kind)
print("READY", flush=True)
GLib.MainLoop().run()
"""


class NewerAtSpiReadiness(unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        cls.stack = A11yStack()
        cls.server = cls.mail = cls.client = None
        try:
            cls.server, cls.sock, _ = start_server("--demo", env=cls.stack.env, atspi=True)
            cls.mail = Proc(["/usr/bin/python3", MAIL, cls.sock, "mail"], env=cls.stack.env)
            cls.mail.wait_line("READY", timeout=30)
            cls.client = AtspiClient(cls.stack.env)
        except BaseException:
            cls._cleanup()
            raise

    @classmethod
    def _cleanup(cls):
        if cls.client:
            cls.client.close()
        for proc in (cls.mail, cls.server):
            if proc:
                proc.stop()
        cls.stack.stop()

    @classmethod
    def tearDownClass(cls):
        cls._cleanup()

    def ping(self, app=None, bus=None):
        return self.client.call("raw", app=app, bus=bus, path="/", iface="org.freedesktop.DBus.Peer", method="Ping",
                                timeout_ms=10000)

    def bus_of(self, app):
        names = wait_until(lambda: [a["bus"] for a in self.client.call("apps") if a["name"] == app], timeout=10)
        self.assertTrue(names, "%s never appeared on the desktop" % app)
        return names[0]

    def test_1_both_apps_answer_the_registry_ping_on_the_root_path(self):
        for app in ("axserver-demo", "mail"):
            reply = self.ping(app)
            self.assertNotIn("dbus_error", reply, "%s: %r" % (app, reply))

    def test_2_ping_answers_while_a_provider_patches_at_full_speed(self):
        rpc = RPC(self.sock)
        rpc.result("initialize", {"role": "provider", "clientInfo": {"name": "patcher"}})
        rpc.result("app.register", {"name": "patcher"})
        cells = [{"id": "c%d" % i, "class": "UITableViewCell", "frame": [0, 20 * i, 300, 20],
                  "accessibilityLabel": "Row %d" % i} for i in range(100)]
        rpc.result("hierarchy.set", {"windows": [{"id": "w", "class": "UIWindow", "frame": [0, 0, 400, 600],
                                                  "isKeyWindow": True, "children": [
                                                      {"id": "t", "class": "UITableView", "frame": [0, 0, 300, 600],
                                                       "children": cells}]}]})
        bus = self.bus_of("patcher")
        # An AT listening to every object event (in its own process), so the bridge emits all it would emit to Orca.
        listener = subprocess.Popen(["/usr/bin/python3", "-c", LISTENER], env=self.stack.env,
                                    stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        self.assertEqual(listener.stdout.readline().strip(), "READY")
        stop = threading.Event()
        patched = [0]

        def patch():
            generation = 0
            while not stop.is_set():
                generation += 1
                ops = [{"op": "set", "id": "c%d" % i,
                        "properties": {"accessibilityLabel": "Row %d %d" % (i, generation)}} for i in range(100)]
                rpc.result("hierarchy.update", {"ops": ops})
                patched[0] += 1
        worker = threading.Thread(target=patch, daemon=True)
        worker.start()
        samples = []
        try:
            time.sleep(0.3)
            # At least 40 pings, and on until the provider has sent 10 updates (a loaded machine runs it slower;
            # CI run 10a at load 18 saw 3 updates in 40 pings), within 30 s.
            deadline = time.monotonic() + 30
            while len(samples) < 40 or (patched[0] < 10 and time.monotonic() < deadline):
                started = time.perf_counter()
                reply = self.ping(bus=bus)
                samples.append((time.perf_counter() - started) * 1000)
                self.assertNotIn("dbus_error", reply, reply)
        finally:
            stop.set()
            worker.join(10)
            listener.kill()
            listener.wait()
            rpc.close()
        ordered = sorted(samples)
        print("\nFIGURES Peer.Ping while a provider patches 100 labels per update (%d updates): p50 %.2f ms, "
              "max %.2f ms (through the pyatspi helper process, one pipe round trip included)"
              % (patched[0], ordered[len(ordered) // 2], ordered[-1]))
        self.assertGreater(patched[0], 5, "the provider never patched: the test measured nothing")
        # The registry's limit is 10 s; anything near it would hide the app.
        self.assertLess(ordered[-1], 2000.0)

    def test_3_accessible_id_is_the_accessibility_identifier_in_the_second_app(self):
        nodes = self.client.call("dump", app="mail", check_links=False)["nodes"]
        by_id = {n.get("accessible_id"): n for n in nodes if n.get("accessible_id")}
        for identifier in ("folders", "search", "messages", "body", "delete"):
            self.assertIn(identifier, by_id, "no AccessibleId %r in the mail app: %r" % (identifier, sorted(by_id)))
        self.assertEqual(by_id["delete"]["name"], "Delete")

    def test_4_announcements_carry_their_politeness(self):
        rpc = RPC(self.sock)
        rpc.result("initialize", {"role": "provider", "clientInfo": {"name": "announcer"}})
        rpc.result("app.register", {"name": "announcer"})
        rpc.result("hierarchy.set", {"windows": [{"id": "w", "class": "UIWindow", "frame": [0, 0, 400, 600],
                                                  "isKeyWindow": True, "children": [
                                                      {"id": "b", "class": "UIButton", "frame": [0, 0, 100, 40],
                                                       "title": "OK"}]}]})
        self.client.call("listen", types=["object:announcement"])
        self.client.call("collect", seconds=0.2)
        try:
            for text, priority in (("Saved", "high"), ("Syncing", "default"), ("Idle", "low")):
                rpc.result("accessibility.post", {"notification": "announcement", "argument": text,
                                                  "priority": priority})
            got = {}
            deadline = time.time() + 10
            while len(got) < 3 and time.time() < deadline:
                for event in self.client.call("collect", seconds=0.5, until_type="object:announcement"):
                    if event["type"].startswith("object:announcement"):
                        got[event["any_data"]] = event["detail1"]
        finally:
            rpc.close()
        self.assertEqual(got, {"Saved": 2, "Syncing": 1, "Idle": 1})


class NoIsEnabledGsetting(unittest.TestCase):
    """IsEnabled false, AT_SPI_BUS_ADDRESS unset: the server still asks org.a11y.Bus for the address and registers."""

    def test_registers_with_is_enabled_false(self):
        stack = A11yStack()
        server = client = None
        try:
            out = subprocess.run(
                ["gdbus", "call", "--session", "--dest", "org.a11y.Bus", "--object-path", "/org/a11y/bus",
                 "--method", "org.freedesktop.DBus.Properties.Set", "org.a11y.Status", "IsEnabled", "<false>"],
                env=stack.env, capture_output=True, text=True, timeout=20)
            self.assertEqual(out.returncode, 0, out.stderr)
            out = subprocess.run(
                ["gdbus", "call", "--session", "--dest", "org.a11y.Bus", "--object-path", "/org/a11y/bus",
                 "--method", "org.freedesktop.DBus.Properties.Get", "org.a11y.Status", "IsEnabled"],
                env=stack.env, capture_output=True, text=True, timeout=20)
            self.assertIn("false", out.stdout, "IsEnabled did not turn false: %s %s" % (out.stdout, out.stderr))
            env = dict(stack.env)
            env.pop("AT_SPI_BUS_ADDRESS", None)
            server, sock, _ = start_server("--demo", env=env, atspi=True)
            self.assertIn("atspi=", server.lines[-1])
            self.assertNotIn("atspi=off", server.lines[-1])
            client = AtspiClient(stack.env)
            apps = wait_until(lambda: "axserver-demo" in [a["name"] for a in client.call("apps")], timeout=10)
            self.assertTrue(apps, "the demo never appeared on the desktop with IsEnabled false")
        finally:
            if client:
                client.close()
            if server:
                server.stop()
            stack.stop()


if __name__ == "__main__":
    unittest.main()
