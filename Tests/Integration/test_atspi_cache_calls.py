"""libatspi's D-Bus calls per node when a pyatspi client walks a served app (issue 35 item 6; atspi-mapping.md §9).

A private stack, `axserver --bench-tree 200` on it with peer-to-peer off (so every call crosses the bus), and
Tools/atspi_walk.py's own pyatspi walk (name, role, states, child count, extents, children by index) counted
by a monitor connection on the AT-SPI bus (org.freedesktop.DBus.Monitoring.BecomeMonitor): real calls from a
real libatspi, per method.

* Inside libatspi's event main loop (how Orca and pyatspi.Registry.start() run it) libatspi answers name, role,
  states, child count and children from the cache the app's Cache.GetItems reply filled; only GetExtents (which
  libatspi never caches) reaches the app per node: at most 1 call per node, plus 3 once per client and app.
* Outside the loop libatspi reads no cache (_atspi_accessible_test_cache): 6 calls per node whatever the server
  sends; the test checks the counter sees them (the first figure cannot pass with a counter that counts nothing).
* Both walks print the same tree: the cache items carry exactly what the per-call answers say.
* The cache stays valid: a client that keeps it (atspi_cached_client.py, in the loop with object:/window: listeners,
  as Orca) walks the demo from its cache after each of six changes (a switch, an alert shown and cancelled, a tab, a
  second window opened and closed) and must converge on a fresh client's uncached walk (checked to fail when the
  bridge drops the new tab's `selected` state event).

Runs on the system's at-spi2-core (2.46 on Debian 12) and, when Tools/install-orca48.sh installed it, on 2.56.
"""
import json
import os
import re
import select
import subprocess
import time
import unittest

from harness import ROOT, RPC, A11yStack, start_server

APP = "axserver-bench"
WALK = os.path.join(ROOT, "Tools", "atspi_walk.py")
ORCA48_ROOT = os.path.join(ROOT, ".build", "orca48", "root")
EXTENTS = "org.a11y.atspi.Component.GetExtents"
#: The per-node calls of an uncached pyatspi walk (atspi_walk.walk_pyatspi): Get(Name), Get(ChildCount), GetRole,
#: GetState, GetExtents, GetChildAtIndex (the root has no extents and is nobody's child).
UNCACHED = {"org.freedesktop.DBus.Properties.Get(Accessible.Name)": 1,
            "org.freedesktop.DBus.Properties.Get(Accessible.ChildCount)": 1, "org.a11y.atspi.Accessible.GetRole": 1,
            "org.a11y.atspi.Accessible.GetState": 1, EXTENTS: 1, "org.a11y.atspi.Accessible.GetChildAtIndex": 1}

#: What a fresh libatspi asks an app once, not per node: the peer-to-peer address, the cache, and the root's Name
#: (read by pyatspi's search of the desktop before the GetItems reply is in).
ONCE = ("org.a11y.atspi.Application.GetApplicationBusAddress", "org.a11y.atspi.Cache.GetItems",
        "org.freedesktop.DBus.Properties.Get(Accessible.Name)")


class CacheCallsBase:
    atspi_root = None

    @classmethod
    def setUpClass(cls):
        extra = ("--atspi-root", cls.atspi_root) if cls.atspi_root else ()
        cls.stack = A11yStack(extra_args=extra)
        cls.server = None
        try:
            env = dict(cls.stack.env, AXSERVER_ATSPI_P2P="0")
            cls.server, _, _ = start_server("--bench-tree", "200", env=env, atspi=True)
        except BaseException:
            cls.stack.stop()
            raise

    @classmethod
    def tearDownClass(cls):
        if cls.server:
            cls.server.stop()
        cls.stack.stop()

    def walk(self, mode, *extra):
        out = subprocess.run(["/usr/bin/python3", WALK, APP, "--mode", mode, "--runs", "1", *extra],
                             env=self.stack.env, capture_output=True, text=True, timeout=180)
        self.assertEqual(out.returncode, 0, "atspi_walk.py %s failed: %s" % (mode, out.stderr[-2000:]))
        return out.stdout

    def counted(self, mode):
        lines = [json.loads(line) for line in self.walk(mode, "--count-calls", "--json").splitlines()
                 if line.startswith("{")]
        self.assertEqual(len(lines), 1, lines)
        return lines[0]

    def test_cached_walk_asks_only_for_extents(self):
        res = self.counted("pyatspi-loop")
        self.assertTrue(res["cache_loaded"], "libatspi did not load the GetItems reply: %s" % res)
        nodes = res["nodes"]
        self.assertGreater(nodes, 200)
        per_node = set(res["calls"]) - set(ONCE)
        self.assertEqual(per_node, {EXTENTS}, "calls libatspi could not answer from its cache: %s" % res)
        for method in ONCE:
            self.assertLessEqual(round(res["calls"].get(method, 0) * nodes), 1, "%s: %s" % (method, res))
        self.assertLessEqual(res["calls_total"], nodes + len(ONCE), res)

    def test_uncached_walk_is_counted(self):
        res = self.counted("pyatspi")
        nodes = res["nodes"]
        for method, per_node in UNCACHED.items():
            self.assertAlmostEqual(res["calls"].get(method, 0), per_node, delta=0.02,
                                   msg="%s per node: %s" % (method, res))

    def test_cache_and_calls_give_the_same_tree(self):
        def tree(mode):
            return [line for line in self.walk(mode, "--dump").splitlines() if not line.startswith(mode + " ")]
        uncached, cached = tree("pyatspi"), tree("pyatspi-loop")
        self.assertGreater(len(uncached), 200)
        self.assertEqual(cached, uncached)


def masked(lines):
    """The demo's clock label changes every second: its digits are not compared."""
    return [re.sub(r"Uptime \d+ s", "Uptime # s", line) for line in lines]


class CacheStaysValidBase:
    """A libatspi client that keeps its cache across changes (atspi_cached_client.py: the event loop and object:/
    window: listeners, as Orca) walks the demo from its cache after each change the bridge announces; the walk must
    equal a fresh client's uncached walk: the events keep the cache valid (atspi-mapping.md §7)."""

    atspi_root = None

    @classmethod
    def setUpClass(cls):
        cls.stack = A11yStack(extra_args=("--atspi-root", cls.atspi_root) if cls.atspi_root else ())
        cls.server = cls.client = None
        try:
            cls.server, cls.sock, _ = start_server("--demo", env=cls.stack.env, atspi=True)
            cls.client = subprocess.Popen(["/usr/bin/python3", os.path.join(os.path.dirname(__file__),
                                                                            "atspi_cached_client.py"), "axserver-demo"],
                                          stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                          env=cls.stack.env, text=True, bufsize=1)
            ready = cls.read(cls.client)
            if not ready.get("ready"):
                raise AssertionError("the cached client did not load the demo's cache: %s" % ready)
        except BaseException:
            cls.tearDownClass()
            raise

    @classmethod
    def tearDownClass(cls):
        if cls.client:
            cls.client.stdin.close()
            try:
                cls.client.wait(10)
            except subprocess.TimeoutExpired:
                cls.client.kill()
                cls.client.wait()
        if cls.server:
            cls.server.stop()
        cls.stack.stop()

    @staticmethod
    def read(client, timeout=60):
        ready, _, _ = select.select([client.stdout], [], [], timeout)
        if not ready:
            raise AssertionError("the cached client said nothing within %s s" % timeout)
        line = client.stdout.readline()
        if not line:
            raise AssertionError("the cached client ended: %s" % client.stderr.read()[-2000:])
        return json.loads(line)

    def command(self, line):
        self.client.stdin.write(line + "\n")
        self.client.stdin.flush()
        return self.read(self.client)

    def fresh(self):
        out = subprocess.run(["/usr/bin/python3", WALK, "axserver-demo", "--mode", "pyatspi", "--dump"],
                             env=self.stack.env, capture_output=True, text=True, timeout=120)
        self.assertEqual(out.returncode, 0, out.stderr[-2000:])
        return [line for line in out.stdout.splitlines() if not line.startswith("pyatspi ")]

    def act(self, target, event):
        """Arms the client for `event`, activates `target` over JSON-RPC and waits for the event (the bridge swaps
        the served tree before it emits, so a fresh walk from here on sees the change)."""
        self.assertEqual(self.command("wait " + event), {"armed": True})
        rpc = RPC(self.sock)
        try:
            rpc.result("initialize", {"role": "automation", "clientInfo": {"name": "test_atspi_cache_calls"}})
            rpc.result("action.activate", {"target": {"id": target}})
        finally:
            rpc.close()
        announced = self.read(self.client)
        self.assertIn("dump", announced, "%s: %s" % (target, announced))

    def converges(self, fresh, what):
        """The cached walk equals `fresh` once the change's events are in (asked again for at most 10 s)."""
        deadline = time.monotonic() + 10
        while True:
            cached = masked(self.command("dump")["dump"])
            if cached == fresh or time.monotonic() > deadline:
                break
        self.assertEqual(cached, fresh, "the cache after %s" % what)

    def test_cache_follows_changes(self):
        first = masked(self.fresh())
        self.converges(first, "loading")
        for target, event in (("cellWifi", "object:state-changed:checked"), ("showAlert", "object:children-changed"),
                              ("alertCancel", "object:children-changed"),
                              ("tabProfile", "object:state-changed:selected"),
                              ("cellAbout", "window:create"), ("aboutDone", "window:destroy")):
            with self.subTest(target=target):
                self.act(target, event)
                self.converges(masked(self.fresh()), target)
        self.assertNotEqual(first, masked(self.fresh()), "the changes changed nothing")


class CacheStaysValid246(CacheStaysValidBase, unittest.TestCase):
    """The system's at-spi2-core and libatspi."""


@unittest.skipUnless(os.path.isdir(ORCA48_ROOT), "no .build/orca48 (Tools/install-orca48.sh): libatspi 2.56 not here")
class CacheStaysValid256(CacheStaysValidBase, unittest.TestCase):
    """at-spi2-core and libatspi 2.56 from Tools/install-orca48.sh."""
    atspi_root = ORCA48_ROOT


class CacheCalls246(CacheCallsBase, unittest.TestCase):
    """The system's at-spi2-core and libatspi."""


@unittest.skipUnless(os.path.isdir(ORCA48_ROOT), "no .build/orca48 (Tools/install-orca48.sh): libatspi 2.56 not here")
class CacheCalls256(CacheCallsBase, unittest.TestCase):
    """at-spi2-core and libatspi 2.56 from Tools/install-orca48.sh."""
    atspi_root = ORCA48_ROOT


if __name__ == "__main__":
    unittest.main()
