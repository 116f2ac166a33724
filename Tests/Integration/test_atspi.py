"""The AT-SPI2 bridge as real clients see it (issue "AT-SPI2 bridge", part 6).

A private session bus + AT-SPI bus + registry (Tools/a11y-stack.sh), `axserver --demo` registered on it, and
a pyatspi client in its own /usr/bin/python3 process (atspi_helpers.AtspiClient). Every expected value comes
from Sources/AXDemo/DemoApp.swift (what the demo app shows and how it reacts) and Specs/atspi-mapping.md (how
UIKit semantics become AT-SPI roles, states, interfaces); changes made through AT-SPI are cross-checked through
the JSON-RPC socket, which reads the server's model, not the bridge.
"""
import json
import os
import time
import subprocess
import unittest

from atspi_helpers import AtspiClient, find, wait_until
from harness import RPC, A11yStack, start_server

APP = "axserver-demo"
# Toolkit names Orca matches to load a toolkit script (atspi-bridge.md §6.2): claiming one would load its quirks.
ORCA_TOOLKITS = {"gecko", "chromium", "qt", "webkitgtk", "gtk"}

# AT-SPI role numbers (atspi-constants.h, atspi-bridge.md §3.1).
R_ALERT, R_DIALOG, R_FRAME, R_IMAGE, R_LABEL, R_LINK = 2, 16, 23, 27, 29, 88
R_PAGE_TAB, R_PAGE_TAB_LIST, R_PUSH_BUTTON, R_RADIO_BUTTON, R_SLIDER, R_SPIN_BUTTON = 37, 38, 43, 44, 51, 52
R_TEXT, R_TOGGLE_BUTTON, R_APPLICATION, R_HEADING = 61, 62, 75, 83


class ATSPIBridgeDemo(unittest.TestCase):
    """Structure, values and actions of the demo app over AT-SPI."""

    @classmethod
    def setUpClass(cls):
        cls.stack = A11yStack()
        cls.server = cls.client = None
        try:
            cls.server, cls.sock, cls.tmp = start_server("--demo", env=cls.stack.env, atspi=True)
            cls.ready = cls.server.lines[-1]
            if "atspi=off" in cls.ready or "atspi=" not in cls.ready:
                raise AssertionError("the server did not register on the AT-SPI bus: " + cls.ready)
            cls.client = AtspiClient(cls.stack.env)
            # The snapshot every read-only test uses: taken before any test changes the app.
            cls.dump0 = cls.client.call("dump", app=APP)
        except BaseException:
            cls._cleanup()
            raise

    @classmethod
    def _cleanup(cls):
        if cls.client:
            cls.client.close()
        if cls.server:
            cls.server.stop()
        cls.stack.stop()

    @classmethod
    def tearDownClass(cls):
        cls._cleanup()

    # -- helpers -------------------------------------------------------------------------------------------

    @property
    def nodes(self):
        return self.dump0["nodes"]

    def fresh(self):
        return self.client.call("dump", app=APP, check_links=False)["nodes"]

    def node(self, name, role=None, nodes=None):
        n = find(nodes if nodes is not None else self.nodes, name=name, role=role)
        if n is None:
            self.fail("no node %r%s in the AT-SPI tree; have: %s" % (
                name, " with role %r" % role if role else "",
                [(x["name"], x["role"]) for x in (nodes if nodes is not None else self.nodes)]))
        return n

    def rpc(self):
        c = RPC(self.sock)
        c.result("initialize", {"role": "automation", "clientInfo": {"name": "test_atspi"}})
        return c

    def model(self, element_id):
        """The server model's view of one element (JSON-RPC element.get), independent of the bridge."""
        c = self.rpc()
        try:
            return c.result("element.get", {"app": APP, "target": {"id": element_id}})
        finally:
            c.close()

    def assertStates(self, node, present=(), absent=()):
        st = set(node["states"])
        missing = [s for s in present if s not in st]
        extra = [s for s in absent if s in st]
        self.assertFalse(missing or extra, "%r (%s): states %s; missing %s; unexpected %s" % (
            node["name"], node["role"], sorted(st), missing, extra))

    def assertSwitch(self, node):
        # Specs/atspi-mapping.md (atspi-bridge.md §4.2): a UISwitch is 62 TOGGLE_BUTTON + xml-roles:switch (the
        # form every libatspi/Orca version understands; 130 SWITCH needs libatspi ≥ 2.56), CHECKABLE.
        ok = node["role_num"] == R_TOGGLE_BUTTON and "switch" in node["attrs"].get("xml-roles", "").split()
        self.assertTrue(ok, "%r: role %d (%s) attrs %s is not a switch" % (node["name"], node["role_num"], node["role"], node["attrs"]))
        self.assertStates(node, present=["checkable"])

    # -- the desktop and the application --------------------------------------------------------------------

    def test_00_ready_line_reports_the_bridge(self):
        self.assertIn("atspi=", self.ready)
        self.assertNotIn("atspi=off", self.ready, "the server did not register on the AT-SPI bus: " + self.ready)

    def test_desktop_lists_the_app_and_it_is_not_gtk(self):
        apps = self.client.call("apps")
        mine = [a for a in apps if a["name"] == APP]
        self.assertEqual(len(mine), 1, apps)
        a = mine[0]
        self.assertEqual(a["role"], "application")
        self.assertEqual(a["path"], "/org/a11y/atspi/accessible/root")
        self.assertTrue(a["toolkit"], "Application.ToolkitName is empty")
        self.assertNotIn(a["toolkit"].lower(), ORCA_TOOLKITS)
        self.assertTrue(a["atspi_version"], "Application.AtspiVersion is empty")

    def test_tree_links_are_consistent(self):
        # Parent of every child is the node it was reached from; GetIndexInParent = its index.
        self.assertEqual(self.dump0["problems"], [])
        root = self.nodes[0]
        self.assertEqual((root["name"], root["role_num"]), (APP, R_APPLICATION))

    def test_frame_settings_is_active(self):
        root = self.nodes[0]
        frames = [n for n in self.nodes if n["depth"] == 1]
        self.assertEqual([(f["name"], f["role_num"]) for f in frames], [("Settings", R_FRAME)], "children of the app root")
        self.assertEqual(root["child_count"], 1)
        self.assertStates(frames[0], present=["active", "showing", "visible", "enabled", "sensitive"])
        self.assertIn("Component", frames[0]["ifaces"])

    def test_headings(self):
        heads = [n for n in self.nodes if n["role_num"] == R_HEADING]
        self.assertEqual([h["name"] for h in heads], ["Accessibility", "Connectivity", "Preferences"])
        for h in heads[1:]:   # accessibilityHeadingLevel 2 → attribute level (atspi-bridge.md §4.1)
            self.assertEqual(h["attrs"].get("level"), "2", h)

    def test_wifi_is_a_checked_switch_and_bluetooth_is_not_checked(self):
        wifi, bt = self.node("Wi-Fi"), self.node("Bluetooth")
        self.assertSwitch(wifi)
        self.assertSwitch(bt)
        self.assertStates(wifi, present=["checked", "enabled", "sensitive", "showing", "visible"])
        self.assertStates(bt, absent=["checked"])
        self.assertGreaterEqual(len(wifi["actions"]), 1, "a switch must be activatable (Action)")
        self.assertEqual(wifi["accessible_id"], "cell.wifi")

    def test_text_size_slider_value(self):
        s = self.node("Text Size")
        self.assertEqual(s["role_num"], R_SLIDER, s)
        self.assertIn("Value", s["ifaces"])
        self.assertStates(s, present=["focusable", "horizontal"])
        v = s["value"]
        # UISlider value 0.5 in 0…1 (DemoApp.textSize); the model also says "50%" (accessibilityValue).
        self.assertEqual((v["min"], v["max"]), (0.0, 1.0), v)
        self.assertAlmostEqual(v["current"], 0.5, places=6)
        self.assertGreater(v["increment"], 0.0)
        self.assertEqual(s["attrs"].get("valuetext"), "50%", s["attrs"])
        # no separate node for the non-element "Text Size" UILabel
        self.assertEqual([n for n in self.nodes if n["name"] == "Text Size"], [s])

    def test_copies_stepper_value(self):
        s = self.node("Copies")
        self.assertEqual(s["role_num"], R_SPIN_BUTTON, s)   # UIStepper → 52 SPIN_BUTTON
        v = s["value"]
        self.assertEqual((v["current"], v["min"], v["max"], v["increment"]), (2.0, 1.0, 10.0, 1.0), v)
        self.assertEqual([n for n in self.nodes if n["name"] == "Copies"], [s])

    def test_device_name_text_field(self):
        t = self.node("Device Name")
        self.assertEqual(t["role_num"], R_TEXT, t)   # UITextField → 61 TEXT, like GTK 4's GtkEntry (D-ATSPI-TEXT-2)
        self.assertStates(t, present=["editable", "focusable", "single-line"], absent=["multi-line", "read-only"])
        self.assertEqual(t["attrs"].get("placeholder-text"), "Device Name", t["attrs"])
        self.assertIn("Text", t["ifaces"])
        self.assertIn("EditableText", t["ifaces"])
        self.assertEqual(t["text"], "")   # DemoApp.deviceName starts empty
        self.assertEqual(t["accessible_id"], "deviceName")

    def test_segmented_control_segments(self):
        # segments of a UISegmentedControl: radio buttons (checkable), the selected one CHECKED (appearance = 0)
        segs = [self.node(n) for n in ("Light", "Dark", "Automatic")]
        for s in segs:
            self.assertEqual(s["role_num"], R_RADIO_BUTTON, s)
            self.assertEqual(s["ipath"][:-1], segs[0]["ipath"][:-1], "segments must be siblings")
            self.assertStates(s, present=["checkable"])
        self.assertStates(segs[0], present=["checked"])
        self.assertStates(segs[1], absent=["checked"])
        parent = [n for n in self.nodes if n["ipath"] == segs[0]["ipath"][:-1]]
        self.assertEqual([p["name"] for p in parent], ["Appearance"])

    def test_tabs(self):
        lists = [n for n in self.nodes if n["role_num"] == R_PAGE_TAB_LIST]
        self.assertEqual(len(lists), 1, [(n["name"], n["role"]) for n in self.nodes])
        tabs = [n for n in self.nodes if n["role_num"] == R_PAGE_TAB]
        self.assertEqual([t["name"] for t in tabs], ["Home", "Settings", "Profile"])
        for i, t in enumerate(tabs):
            self.assertEqual(t["ipath"][:-1], lists[0]["ipath"], "tab %r is not a child of the tab list" % t["name"])
            self.assertStates(t, present=["selectable"])
            # "n of 3" (the model's value) → posinset/setsize, which Orca speaks as the position
            self.assertEqual((t["attrs"].get("posinset"), t["attrs"].get("setsize")), (str(i + 1), "3"), t["attrs"])
        self.assertStates(tabs[1], present=["selected"])
        self.assertStates(tabs[0], absent=["selected"])
        self.assertStates(tabs[2], absent=["selected"])

    def test_images(self):
        imgs = [n for n in self.nodes if n["role_num"] == R_IMAGE]
        self.assertEqual([i["name"] for i in imgs], ["Profile photo"])   # the unlabeled decoration is not exposed
        self.assertEqual([n for n in self.nodes if n.get("accessible_id") == "decoration"], [])
        self.assertIn("Image", imgs[0]["ifaces"])

    def test_buttons_link_and_labels(self):
        reset = self.node("Reset All Settings")
        self.assertEqual(reset["role_num"], R_PUSH_BUTTON)
        self.assertEqual(reset["description"], "Asks before resetting")   # accessibilityHint
        self.assertEqual(reset["actions"][0]["name"], "click")
        self.assertStates(reset, present=["focusable", "enabled", "sensitive", "showing", "visible"])
        help_ = self.node("Help")
        self.assertEqual(help_["role_num"], R_LINK)
        self.assertEqual(help_["actions"][0]["name"], "click")
        self.assertEqual(self.node("Edit")["role_num"], R_PUSH_BUTTON)
        self.assertEqual(self.node("General")["role_num"], R_PUSH_BUTTON)   # the back button
        uptime = [n for n in self.nodes if n["name"].startswith("Uptime ")]
        self.assertEqual(len(uptime), 1)
        self.assertEqual(uptime[0]["role_num"], R_LABEL)
        footer = self.node("Toggles apply immediately.")
        self.assertEqual(footer["role_num"], R_LABEL)
        self.assertStates(footer, absent=["focusable"])

    def test_custom_action_listed(self):
        d = self.node("Display & Brightness")
        names = [a["localized"] or a["description"] or a["name"] for a in d["actions"]]
        self.assertIn("Add to Favorites", names, d["actions"])
        self.assertEqual(d["actions"][0]["name"], "click")
        self.assertEqual(len({a["name"] for a in d["actions"]}), len(d["actions"]), "action names must be unique")

    def test_extents_are_inside_the_frame(self):
        frame = self.node("Settings", role="frame")
        fx, fy, fw, fh = frame["extents"]
        self.assertGreater(fw * fh, 0)
        for n in self.nodes[2:]:
            if "extents" not in n or "showing" not in n["states"]:
                continue
            x, y, w, h = n["extents"]
            self.assertTrue(w >= 0 and h >= 0 and x >= fx - 1 and y >= fy - 1 and x + w <= fx + fw + 1 and y + h <= fy + fh + 1,
                            "%r extents %s outside the frame %s" % (n["name"], n["extents"], frame["extents"]))
        r = self.node("Reset All Settings")["extents"]
        self.assertEqual(r[2:], [170, 44])   # the UIButton's frame size

    def test_cache_matches_the_walk(self):
        c = self.client.call("cache_items", app=APP, full=True)
        self.assertIn(c["signature"], ("(a((so)(so)(so)iiassusau))", "(a((so)(so)(so)a(so)assusau))"))
        walked = {n["path"]: n for n in self.fresh()}
        items = {it["path"]: it for it in c["items"]}
        self.assertEqual(set(items), set(walked), "GetItems and the walk disagree on the set of objects")
        for p, it in items.items():
            w = walked[p]
            if w["name"].startswith("Uptime "):
                continue   # ticks once a second
            self.assertEqual((it["name"], it["role_num"], it["child_count"]), (w["name"], w["role_num"], w["child_count"]), p)

    def test_benchmark_walker_runs_on_the_real_stack(self):
        """Tools/atspi_walk.py (the benchmark's client) walks the demo in every mode bench_atspi.sh uses and measures
        its client floors: the counts agree with each other and with GetItems, so the benchmark cannot rot."""
        walker = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "Tools", "atspi_walk.py")
        out = subprocess.run(["/usr/bin/python3", walker, APP, "--mode", "pyatspi", "--mode", "cache", "--mode", "cache-only",
                              "--runs", "1", "--json", "--floor", "--floor-calls", "50"],
                             env=self.stack.env, capture_output=True, text=True, timeout=120)
        self.assertEqual(out.returncode, 0, out.stderr[-2000:])
        lines = [json.loads(l) for l in out.stdout.splitlines() if l.startswith("{")]
        walks = {r["mode"]: r for r in lines if "mode" in r}
        floor = next(r for r in lines if r.get("client_floor"))
        items = self.client.call("cache_items", app=APP, full=True)["items"]
        for mode in ("pyatspi", "cache", "cache-only"):
            self.assertIsNone(walks[mode]["error"], mode)
            self.assertGreater(walks[mode]["median_s"], 0, mode)
        self.assertEqual(walks["cache"]["nodes"], len(items))
        self.assertEqual(walks["cache-only"]["nodes"], len(items))
        self.assertGreaterEqual(walks["pyatspi"]["nodes"], len(items) - 1, "the walk reaches every cached object")
        self.assertIsNone(floor["error"])
        self.assertEqual(floor["items"], len(items))
        self.assertEqual(floor["component_items"], sum(1 for it in items if "org.a11y.atspi.Component" in it["ifaces"]))
        self.assertEqual(floor["ping_calls"], 50)
        self.assertGreater(floor["ping_us_per_call"], 0)
        self.assertGreater(floor["decode_msg_us_per_item"], 0)

    # -- Collection ---------------------------------------------------------------------------------------------

    def collection_names(self, roles):
        return [m["name"] for m in self.client.call("collection", app=APP, roles=roles)]

    def test_collection_headings_links_buttons(self):
        self.assertEqual(self.collection_names([R_HEADING]), ["Accessibility", "Connectivity", "Preferences"])
        self.assertEqual(self.collection_names([R_LINK]), ["Help"])
        buttons = self.collection_names([R_PUSH_BUTTON])
        walked = [n["name"] for n in self.nodes if n["role_num"] == R_PUSH_BUTTON]
        self.assertEqual(buttons, walked, "Collection order/contents differ from the canonical walk")
        for b in ("General", "Edit", "Reset All Settings"):
            self.assertIn(b, buttons)
        self.assertNotIn("Help", buttons)

    # -- actions, values, focus -------------------------------------------------------------------------------------

    def test_wifi_action_flips_checked(self):
        where = {"name": "Wi-Fi"}
        before = "checked" in self.client.call("states", app=APP, where=where)
        try:
            self.assertTrue(self.client.call("action", app=APP, where=where, index=0))
            flipped = wait_until(lambda: ("checked" in self.client.call("states", app=APP, where=where)) != before)
            self.assertTrue(flipped, "CHECKED did not change after DoAction(0) on Wi-Fi")
            self.assertEqual(self.model("cellWifi")["value"], "off" if before else "on")
        finally:
            if ("checked" in self.client.call("states", app=APP, where=where)) != before:
                self.client.call("action", app=APP, where=where, index=0)
        self.assertTrue(wait_until(lambda: ("checked" in self.client.call("states", app=APP, where=where)) == before))

    def test_reset_action_shows_the_alert_and_cancel_dismisses_it(self):
        self.assertTrue(self.client.call("action", app=APP, where={"name": "Reset All Settings"}, index=0))
        alert = wait_until(lambda: [n for n in self.fresh() if n["role_num"] in (R_ALERT, R_DIALOG)])
        try:
            self.assertEqual(len(alert), 1, "no ALERT/DIALOG after DoAction(0) on 'Reset All Settings'")
            a = alert[0]
            self.assertEqual(a["name"], "Reset All Settings?")
            self.assertStates(a, present=["modal", "showing", "visible"])
            nodes = self.fresh()
            names = [n["name"] for n in nodes]
            for b in ("Cancel", "Reset", "This cannot be undone."):
                self.assertIn(b, names)
            # modal: the rest of the screen is hidden from the UIKit tree (accessibilityViewIsModal, D-MODAL-1) ...
            c = self.rpc()
            try:
                text = c.result("tree.get", {"format": "text"})["text"]
            finally:
                c.close()
            self.assertNotIn("Wi-Fi", text)
            # ... but on AT-SPI it stays alive beside the alert, as a GTK dialog's background does (D-ATSPI-MODAL-1):
            # the same object answers (before: UnknownObject, the window's objects re-created on every alert).
            self.assertIn("Wi-Fi", names)
            kept = self.client.call("raw", app=APP, path=self.node("Wi-Fi")["path"], iface="org.a11y.atspi.Accessible",
                                    method="GetRole", sig=None, args=[], rtype=None)
            self.assertNotIn("dbus_error", kept)
            self.assertEqual(kept["reply"], [R_TOGGLE_BUTTON])
        finally:
            self.client.call("action", app=APP, where={"name": "Cancel"}, index=0)
        gone = wait_until(lambda: not [n for n in self.fresh() if n["role_num"] in (R_ALERT, R_DIALOG)])
        self.assertTrue(gone, "the alert is still there after Cancel")
        self.assertIsNotNone(find(self.fresh(), name="Wi-Fi"))

    def set_and_check(self, where, value, expected, model_id, model_value):
        """Value.CurrentValue = value; the next read (same client, after the Set reply) must give `expected`,
        and so must the server model (JSON-RPC)."""
        immediate = self.client.call("set_value", app=APP, where=where, value=value)   # Set, then Get
        eventually = wait_until(lambda: abs(self.client.call("get_value", app=APP, where=where)["current"] - expected) < 1e-9,
                                timeout=3)
        self.assertTrue(eventually, "Set(CurrentValue=%r) on %r never took effect (reads %r, expected %r)" % (
            value, where["name"], self.client.call("get_value", app=APP, where=where)["current"], expected))
        self.assertEqual(self.model(model_id)["value"], model_value)
        self.assertAlmostEqual(immediate, expected, places=9,
                               msg="read-after-write: Properties.Get(Value.CurrentValue) sent after the reply to "
                                   "Properties.Set(CurrentValue=%r) on %r returned the old value %r (expected %r; the new "
                                   "value shows up later)" % (value, where["name"], immediate, expected))

    def test_slider_value_set(self):
        where = {"name": "Text Size"}
        try:
            self.set_and_check(where, 0.8, 0.8, "textSize", "80%")
            self.set_and_check(where, 7.0, 1.0, "textSize", "100%")   # out of range: clamped, as UISlider does
            self.set_and_check(where, 0.3, 0.3, "textSize", "30%")
        finally:
            self.client.call("set_value", app=APP, where=where, value=0.5)
            wait_until(lambda: self.client.call("get_value", app=APP, where=where)["current"] == 0.5)

    def test_stepper_value_set(self):
        where = {"name": "Copies"}
        try:
            self.set_and_check(where, 5, 5.0, "copies", "5")
            self.set_and_check(where, 3, 3.0, "copies", "3")
        finally:
            self.client.call("set_value", app=APP, where=where, value=2)
            wait_until(lambda: self.client.call("get_value", app=APP, where=where)["current"] == 2.0)

    def test_custom_action_performs(self):
        d = self.node("Display & Brightness")
        idx = [a["localized"] or a["description"] or a["name"] for a in d["actions"]].index("Add to Favorites")
        self.assertTrue(self.client.call("action", app=APP, where={"name": "Display & Brightness"}, index=idx))
        try:
            def renamed():
                n = find(self.fresh(), name="Display & Brightness")
                acts = self.client.call("node", app=APP, where={"name": "Display & Brightness"})["actions"] if n else []
                return [a for a in acts if "Remove from Favorites" in (a["localized"], a["description"], a["name"])]
            self.assertTrue(wait_until(renamed), "custom action did not run (name still 'Add to Favorites')")
        finally:
            self.client.call("action", app=APP, where={"name": "Display & Brightness"}, index=idx)

    def test_tab_action_selects(self):
        try:
            self.assertTrue(self.client.call("action", app=APP, where={"name": "Home", "role": "page tab"}, index=0))
            ok = wait_until(lambda: "selected" in self.client.call("states", app=APP, where={"name": "Home", "role": "page tab"}))
            self.assertTrue(ok, "Home tab not SELECTED after DoAction(0)")
            self.assertNotIn("selected", self.client.call("states", app=APP, where={"name": "Settings", "role": "page tab"}))
        finally:
            self.client.call("action", app=APP, where={"name": "Settings", "role": "page tab"}, index=0)

    def test_grab_focus_moves_focus(self):
        for name, model_id in (("Reset All Settings", "showAlert"), ("Device Name", "nameField")):
            self.assertTrue(self.client.call("grab_focus", app=APP, where={"name": name}), name)
            focused = wait_until(lambda: [n["name"] for n in self.fresh() if "focused" in n["states"]])
            self.assertEqual(focused, [name], "exactly one FOCUSED node expected after GrabFocus")
            c = self.rpc()
            try:
                self.assertEqual(c.result("focus.get", {"app": APP})["element"]["id"], model_id)
            finally:
                c.close()

    # -- events -----------------------------------------------------------------------------------------------------

    def test_events_checked_focus_and_announcement(self):
        c = self.client
        c.call("listen", types=["object:state-changed", "object:announcement", "object:property-change",
                                "object:children-changed"])
        c.call("collect", seconds=0.3)   # drop whatever was queued
        where = {"name": "Wi-Fi"}
        before = "checked" in c.call("states", app=APP, where=where)
        c.call("action", app=APP, where=where, index=0)
        try:
            evs = c.call("collect", seconds=3, until_type="object:state-changed:checked")
            chk = [e for e in evs if e["type"] == "object:state-changed:checked"]
            self.assertTrue(chk, "no object:state-changed:checked after toggling Wi-Fi; got %s" % [e["type"] for e in evs])
            self.assertEqual(chk[-1]["source_name"], "Wi-Fi")
            self.assertEqual(chk[-1]["detail1"], 0 if before else 1)
        finally:
            c.call("action", app=APP, where=where, index=0)
        c.call("collect", seconds=0.3)
        c.call("grab_focus", app=APP, where={"name": "Help"})
        evs = c.call("collect", seconds=3, until_type="object:state-changed:focused")
        foc = [e for e in evs if e["type"] == "object:state-changed:focused" and e["detail1"] == 1]
        self.assertTrue(foc and foc[-1]["source_name"] == "Help", "no focused(1) from Help: %s" % evs)
        # Only the app posts its announcements (D-TRUST-1): a test client that tries is refused ...
        r = self.rpc()
        try:
            refused = r.call("accessibility.post", {"app": APP, "notification": "announcement", "argument": "Spoofed"})
            self.assertEqual(refused.get("error", {}).get("code"), -32018, refused)
        finally:
            r.close()
        # ... so the demo posts its own: dismissing its alert announces "Alert dismissed".
        self.assertTrue(c.call("action", app=APP, where={"name": "Reset All Settings"}, index=0))
        time.sleep(0.3)
        self.assertTrue(c.call("action", app=APP, where={"name": "Cancel"}, index=0))
        evs = c.call("collect", seconds=3, until_type="object:announcement")
        ann = [e for e in evs if e["type"].startswith("object:announcement")]
        self.assertTrue(ann, "no object:announcement after the demo dismissed its alert: %s" % [e["type"] for e in evs])
        self.assertEqual(ann[-1]["any_data"], "Alert dismissed")
        self.assertFalse([e for e in evs if e.get("any_data") == "Spoofed"], "a refused announcement reached AT-SPI")

    # -- bad input --------------------------------------------------------------------------------------------------

    def raw(self, path, iface, method, sig=None, args=(), rtype=None):
        return self.client.call("raw", app=APP, path=path, iface=iface, method=method, sig=sig, args=list(args), rtype=rtype)

    def test_zz_bad_calls_get_errors_and_the_server_keeps_serving(self):
        root = "/org/a11y/atspi/accessible/root"
        acc = "org.a11y.atspi.Accessible"
        frame_path = self.node("Settings", role="frame")["path"]
        reset_path = self.node("Reset All Settings")["path"]
        cases = [
            ((root, acc, "GetChildAtIndex", "(s)", ["zero"]), {"org.freedesktop.DBus.Error.InvalidArgs"}),
            ((root, acc, "GetChildAtIndex", "(ii)", [0, 1]), {"org.freedesktop.DBus.Error.InvalidArgs"}),
            ((frame_path, acc, "GetRole", "(u)", [3]), {"org.freedesktop.DBus.Error.InvalidArgs"}),
            (("/org/a11y/atspi/accessible/no_such_node", acc, "GetRole", None, []),
             {"org.freedesktop.DBus.Error.UnknownObject"}),
            (("/org/a11y/atspi/accessible/999999999", acc, "GetChildren", None, []),
             {"org.freedesktop.DBus.Error.UnknownObject"}),
            ((frame_path, acc, "NoSuchMethod", None, []), {"org.freedesktop.DBus.Error.UnknownMethod"}),
            ((frame_path, "org.a11y.atspi.NoSuchInterface", "GetRole", None, []),
             {"org.freedesktop.DBus.Error.UnknownMethod", "org.freedesktop.DBus.Error.UnknownInterface"}),
            ((frame_path, "org.freedesktop.DBus.Properties", "Get", "(ss)", [acc, "NoSuchProperty"]),
             {"org.freedesktop.DBus.Error.UnknownProperty"}),
            ((root, acc, "GetChildAtIndex", "(i)", [-1]), {"org.freedesktop.DBus.Error.InvalidArgs"}),
            ((reset_path, "org.a11y.atspi.Action", "DoAction", "(s)", ["0"]), {"org.freedesktop.DBus.Error.InvalidArgs"}),
            ((reset_path, "org.a11y.atspi.Action", "DoAction", "(i)", [99]), {"org.freedesktop.DBus.Error.InvalidArgs"}),
            ((reset_path, "org.a11y.atspi.Action", "GetName", "(i)", [-5]), {"org.freedesktop.DBus.Error.InvalidArgs"}),
            ((frame_path, "org.a11y.atspi.Action", "DoAction", "(i)", [0]),   # the frame has no Action
             {"org.freedesktop.DBus.Error.UnknownMethod", "org.freedesktop.DBus.Error.UnknownInterface"}),
        ]
        problems = []
        for (path, iface, method, sig, args), want in cases:
            r = self.raw(path, iface, method, sig, args)
            if r.get("dbus_error") not in want:
                problems.append("%s %s.%s%s%s: expected %s, got %s" % (path, iface, method, sig or "()", args,
                                                                     sorted(want), r))
            elif not r.get("message"):
                problems.append("%s.%s: error %s without a message" % (iface, method, r["dbus_error"]))
        # Name is read-only (Specs/atspi-mapping.md §8: PropertyReadOnly)
        r = self.client.call("raw_set", app=APP, path=frame_path, iface=acc, prop="Name", vsig="s", value="x")
        if r.get("dbus_error") != "org.freedesktop.DBus.Error.PropertyReadOnly":
            problems.append("Properties.Set(Accessible.Name) on the frame: expected PropertyReadOnly, got %s" % r)
        # GetChildAtIndex past the end: the null reference (§8)
        r = self.raw(root, acc, "GetChildAtIndex", "(i)", [9999])
        if r.get("reply") is None or r["reply"][0][1] != "/org/a11y/atspi/null":
            problems.append("GetChildAtIndex(9999) on the root: expected the null reference, got %s" % r)
        self.assertEqual(problems, [])
        # still serving, over AT-SPI and JSON-RPC
        again = self.client.call("dump", app=APP)
        self.assertEqual(again["problems"], [])
        self.assertEqual(len(again["nodes"]), len(self.nodes))
        self.assertIsNone(self.server.p.poll(), "the server exited")
        self.assertEqual(self.model("cellWifi")["label"], "Wi-Fi")


if __name__ == "__main__":
    unittest.main()
