"""The axquery CLI end to end: a live `axserver serve --demo` on a private socket, and offline --file on a JSON
hierarchy and an Appium XCUITest page source written here.

Expected values come from the demo app's source (Sources/AXDemo/DemoApp.swift) and from the files this test
writes, never from axquery's own output:
  * window title "Settings"; tab bar buttons "Home", "Settings", "Profile" with "Settings" selected (selectedTab 1)
  * the Edit button (accessibilityIdentifier "edit"); the Wi-Fi cell ("cell.wifi", wifi = true at start)
  * the segmented control "Appearance" with segments Light, Dark, Automatic and appearance = 0 (Light)
  * the stepper "Copies" (identifier "copies", value 2, range 1...10); the text field "deviceName"
  * "Reset All Settings" (#showAlert) presents the alert (#alert) with "Cancel" (#"alert.cancel")
  * the display cell's custom action "Add to Favorites" / "Remove from Favorites"
"""
import json
import os
import pty
import re
import select
import shutil
import signal
import stat
import subprocess
import tempfile
import time
import unittest
import xml.etree.ElementTree as ET

from harness import AXQUERY, start_server


def run(*args, env=None, timeout=30):
    """Runs axquery; returns (exit code, stdout, stderr)."""
    e = dict(os.environ)
    e.pop("AXSERVER_SOCKET", None)
    e["NO_COLOR"] = ""
    if env:
        e.update(env)
    p = subprocess.run([AXQUERY] + list(args), capture_output=True, text=True, timeout=timeout, env=e)
    return p.returncode, p.stdout, p.stderr


class Live(unittest.TestCase):
    """Against a live demo server."""

    @classmethod
    def setUpClass(cls):
        cls.server, cls.sock, cls.tmp = start_server("--demo")

    @classmethod
    def tearDownClass(cls):
        cls.server.stop()
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def ax(self, cmd, *args, timeout=30):
        return run(cmd, "--socket", self.sock, *args, timeout=timeout)

    def ok(self, cmd, *args):
        code, out, err = self.ax(cmd, *args)
        self.assertEqual(code, 0, "axquery %s %s -> %d\nstdout: %s\nstderr: %s" % (cmd, args, code, out, err))
        return out

    def js(self, cmd, *args):
        return json.loads(self.ok(cmd, *args, "--json"))

    def one_line_error(self, err):
        """Errors: the first stderr line is the message; it starts with 'axquery: '."""
        lines = err.splitlines()
        self.assertTrue(lines and lines[0].startswith("axquery: "), err)
        return lines

    # -- find / one / count -------------------------------------------------------------------------------------

    def test_find_lists_matches_in_document_order(self):
        out = self.ok("find", "tab")
        lines = out.splitlines()
        self.assertEqual(len(lines), 3, out)
        for line, label in zip(lines, ["Home", "Settings", "Profile"]):
            self.assertIn('"%s"' % label, line)
        r = self.js("find", "tab")
        self.assertEqual(r["count"], 3)
        self.assertEqual([e["label"] for e in r["elements"]], ["Home", "Settings", "Profile"])
        self.assertIn("selected", r["elements"][1]["states"])    # selectedTab = 1
        self.assertNotIn("selected", r["elements"][0]["states"])

    def test_find_is_the_default_command_and_takes_limit_and_root(self):
        code, out, err = run("tab", env={"AXSERVER_SOCKET": self.sock})
        self.assertEqual(code, 0, err)
        self.assertEqual(len(out.splitlines()), 3)
        code, out, err = run("--socket", self.sock, "--json", "count", "tab")   # options before the command
        self.assertEqual(code, 0, err)
        self.assertEqual(json.loads(out)["count"], 3)
        r = self.js("find", "tab", "--limit", "2")
        self.assertEqual([e["label"] for e in r["elements"]], ["Home", "Settings"])
        self.assertEqual(r["truncated"]["limit"], 2)
        r = self.js("find", "button", "--root", "#appearance")
        self.assertEqual([e["label"] for e in r["elements"]], ["Light", "Dark", "Automatic"])
        code, _, err = self.ax("find", "button", "--root", "tab")       # the root itself must be unique
        self.assertEqual(code, 2, err)
        self.assertTrue(err.startswith("axquery: --root: "), err)
        code, _, err = self.ax("count", "button", "--root", "#nowhere")
        self.assertEqual(code, 1, err)
        self.assertTrue(err.startswith("axquery: --root: "), err)

    def test_find_without_match_exits_1_with_near_misses(self):
        code, out, err = self.ax("find", 'button[label="Edt"]')
        self.assertEqual(code, 1, err)
        self.assertEqual(out, "")
        lines = self.one_line_error(err)
        self.assertIn("no element matches", lines[0])
        self.assertTrue(any('"Edit"' in l for l in lines[1:]), err)   # the near miss names the real label
        code, out, err = self.ax("find", 'button[label="Edt"]', "--json")
        self.assertEqual(code, 1)
        self.assertEqual(json.loads(out)["count"], 0)

    def test_one_resolves_exactly_one(self):
        out = self.ok("one", "#edit")
        self.assertIn('"Edit"', out)
        r = self.js("one", "#edit")
        self.assertEqual(r["label"], "Edit")
        self.assertEqual(r["identifier"], "edit")
        self.assertEqual(r["role"], "button")

    def test_one_ambiguous_exits_2_and_lists_candidates(self):
        code, out, err = self.ax("one", "tab")
        self.assertEqual(code, 2, err)
        lines = self.one_line_error(err)
        self.assertIn("3", lines[0])
        for label in ("Home", "Settings", "Profile"):
            self.assertTrue(any('"%s"' % label in l for l in lines[1:]), err)
        code, out, err = self.ax("one", "tab", "--json")
        self.assertEqual(code, 2)
        e = json.loads(out)["error"]
        self.assertEqual(e["code"], -32011)
        self.assertEqual(e["exitCode"], 2)
        self.assertEqual([c["label"] for c in e["data"]["candidates"]], ["Home", "Settings", "Profile"])

    def test_one_without_match_exits_1(self):
        code, out, err = self.ax("one", 'tab[label="Nowhere"]', "--json")
        self.assertEqual(code, 1, err)
        self.assertEqual(json.loads(out)["error"]["code"], -32010)

    def test_count(self):
        self.assertEqual(self.ok("count", "tab").strip(), "3")
        self.assertEqual(self.js("count", "segmentedControl > button")["count"], 3)
        code, out, _ = self.ax("count", 'button[label="Nope"]')
        self.assertEqual((code, out.strip()), (1, "0"))

    # -- exit codes 3, 4, 5 ------------------------------------------------------------------------------------

    def test_invalid_selector_exits_3_with_a_caret(self):
        sel = 'button[label="Edit"'
        code, out, err = self.ax("find", sel)
        self.assertEqual(code, 3, err)
        lines = self.one_line_error(err)
        m = re.search(r"position (\d+)", lines[0])
        self.assertIsNotNone(m, lines[0])
        pos = int(m.group(1))
        self.assertEqual(pos, len(sel))            # the ']' is missing at the very end
        self.assertEqual(lines[1].strip(), sel)
        indent = lines[1].index(sel)
        self.assertEqual(lines[2].rstrip(), " " * (indent + pos) + "^")
        code, out, err = self.ax("one", "button[", "--json")
        self.assertEqual(code, 3)
        e = json.loads(out)["error"]
        self.assertEqual(e["code"], -32015)
        self.assertEqual(e["data"]["position"], len("button["))

    def test_invalid_selector_is_caught_before_connecting(self):
        code, _, err = run("count", "::", "--socket", os.path.join(self.tmp, "absent.sock"))
        self.assertEqual(code, 3, err)

    def test_connection_error_exits_5(self):
        missing = os.path.join(self.tmp, "no-such.sock")
        for cmd in (["apps"], ["find", "tab"], ["tree"], ["watch", "--count", "1"]):
            code, out, err = run(*cmd, "--socket", missing)
            self.assertEqual(code, 5, "%s: %s" % (cmd, err))
            self.assertEqual(len(err.splitlines()[0].splitlines()), 1)
            self.assertIn("cannot connect", err.splitlines()[0])
        code, out, err = run("apps", "--socket", missing, "--json")
        self.assertEqual(code, 5)
        self.assertEqual(json.loads(out)["error"]["exitCode"], 5)

    def test_unknown_app_exits_5(self):
        for cmd in (["find", "tab"], ["tree"], ["watch", "--count", "1"], ["do", "activate", "#edit"]):
            code, _, err = self.ax(*cmd, "--app", "no-such-app")
            self.assertEqual(code, 5, "%s: %s" % (cmd, err))
            self.assertIn("no-such-app", err)
        self.assertEqual(self.ok("count", "tab", "--app", "axserver-demo").strip(), "3")

    def test_wait_times_out_with_exit_4(self):
        t0 = time.time()
        code, out, err = self.ax("wait", "#alert", "--timeout", "300ms")
        elapsed = time.time() - t0
        self.assertEqual(code, 4, err)
        self.assertGreaterEqual(elapsed, 0.3)
        self.assertLess(elapsed, 10)
        self.one_line_error(err)
        code, out, err = self.ax("wait", "#edit", "--state", "disabled", "--timeout", "200ms", "--json")
        self.assertEqual(code, 4)
        e = json.loads(out)["error"]
        self.assertEqual(e["code"], -32016)
        self.assertEqual(e["data"]["lastState"]["label"], "Edit")

    # -- tree / get / explain / apps ---------------------------------------------------------------------------

    def test_tree_text(self):
        out = self.ok("tree")
        lines = out.splitlines()
        self.assertTrue(lines[0].startswith('window "Settings"'), lines[0])
        self.assertNotIn("\x1b[", out)             # not a terminal: no colours
        tabbar = next(i for i, l in enumerate(lines) if l.lstrip().startswith("tabBar"))
        home = next(i for i, l in enumerate(lines) if l.lstrip().startswith('tab "Home"'))
        indent = lambda l: len(l) - len(l.lstrip())
        self.assertGreater(home, tabbar)
        self.assertEqual(indent(lines[home]), indent(lines[tabbar]) + 2)
        self.assertTrue(any('"Wi-Fi"' in l and '#"cell.wifi"' in l for l in lines), out)

    def test_tree_depth_root_and_formats(self):
        out = self.ok("tree", "--depth", "0")
        lines = out.splitlines()
        self.assertTrue(lines[0].startswith("window"))
        self.assertEqual(len(lines), 2, out)        # the window and its truncation marker
        self.assertIn("more", lines[1])
        lines = self.ok("tree", "--root", "#tabBar").splitlines()
        self.assertTrue(lines[0].startswith("tabBar #tabBar"), lines)         # the root, then its children
        self.assertEqual([l.strip().split(" ")[1] for l in lines[1:]], ['"Home"', '"Settings"', '"Profile"'])
        r = self.js("tree", "--depth", "1")
        self.assertEqual(r["windows"][0]["id"], "mainWindow")
        self.assertTrue(all("children" not in c for c in r["windows"][0]["children"]))
        self.assertTrue(r["truncated"])
        r2 = json.loads(self.ok("tree", "--format", "json"))
        self.assertEqual(r2["windows"][0]["id"], "mainWindow")
        xml = self.ok("tree", "--format", "xml")
        root = ET.fromstring(xml.encode())
        edit = [e for e in root.iter() if e.get("name") == "edit"]
        self.assertEqual(len(edit), 1)
        self.assertEqual(edit[0].tag, "XCUIElementTypeButton")
        self.assertEqual(edit[0].get("label"), "Edit")
        code, _, err = self.ax("tree", "--format", "xml", "--depth", "1")
        self.assertEqual(code, 64, err)              # a usage error from the argument parser

    def test_tree_is_coloured_on_a_terminal(self):
        master, slave = pty.openpty()
        e = dict(os.environ)
        e.pop("NO_COLOR", None)
        p = subprocess.Popen([AXQUERY, "tree", "--depth", "1", "--socket", self.sock], stdout=slave, stderr=subprocess.PIPE, env=e)
        os.close(slave)
        data = b""
        deadline = time.time() + 20
        while time.time() < deadline:
            r, _, _ = select.select([master], [], [], 0.5)
            if r:
                try:
                    chunk = os.read(master, 65536)
                except OSError:
                    break
                if not chunk:
                    break
                data += chunk
            elif p.poll() is not None:
                break
        p.wait(10)
        os.close(master)
        self.assertEqual(p.returncode, 0)
        self.assertIn(b"\x1b[", data)
        master, slave = pty.openpty()
        p = subprocess.Popen([AXQUERY, "tree", "--depth", "1", "--no-color", "--socket", self.sock], stdout=slave, env=e)
        os.close(slave)
        data = b""
        while True:
            r, _, _ = select.select([master], [], [], 5)
            if not r:
                break
            try:
                chunk = os.read(master, 65536)
            except OSError:
                break
            if not chunk:
                break
            data += chunk
        p.wait(10)
        os.close(master)
        self.assertIn(b"window", data)
        self.assertNotIn(b"\x1b[", data)

    def test_get_by_selector_and_id(self):
        r = self.js("get", '#"cell.wifi"')
        self.assertEqual(r["label"], "Wi-Fi")
        self.assertEqual(r["identifier"], "cell.wifi")
        self.assertIn(r["value"], ("on", "off"))
        self.assertEqual(r["id"], "cellWifi")
        r = self.js("get", "--id", "editButton")
        self.assertEqual(r["label"], "Edit")
        self.assertTrue(r["hittable"])
        out = self.ok("get", "--id", "editButton")
        self.assertIn("label: Edit", out.splitlines())
        self.assertIn("identifier: edit", out.splitlines())
        code, out, err = self.ax("get", "--id", "no-such-id")
        self.assertEqual(code, 1, err)

    def test_explain(self):
        code, out, err = self.ax("explain", 'list > switch[label="Wifi"]')
        self.assertEqual(code, 1, err)
        self.assertIn('"Wi-Fi"', out)               # the near miss
        r = self.js("explain", "tabBar > tab")
        self.assertEqual(r["count"], 3)
        self.assertEqual([s["count"] for s in r["chains"][0]["steps"]], [1, 3])

    def test_apps(self):
        r = self.js("apps")
        self.assertEqual([a["name"] for a in r], ["axserver-demo"])
        self.assertIn("axserver-demo", self.ok("apps"))

    # -- actions, focus, waits, events, diffs -----------------------------------------------------------------

    def test_do_activate_toggles_wifi(self):
        before = self.js("get", '#"cell.wifi"')["value"]
        out = self.ok("do", "activate", '#"cell.wifi"')
        self.assertIn("cellWifi", out)
        after = self.js("get", '#"cell.wifi"')["value"]
        self.assertEqual({before, after}, {"on", "off"})
        self.ok("do", "activate", '#"cell.wifi"')
        self.assertEqual(self.js("get", '#"cell.wifi"')["value"], before)

    def test_do_activate_segment_dark(self):
        dark = 'segmentedControl > button[label="Dark"]'
        light = 'segmentedControl > button[label="Light"]'
        self.assertNotIn("selected", self.js("get", dark)["states"])   # appearance = 0 at start
        r = self.js("do", "activate", dark)
        self.assertTrue(r["performed"])
        self.assertGreater(r["revisionAfter"], r["revisionBefore"])
        self.assertIn("selected", self.js("get", dark)["states"])
        self.assertNotIn("selected", self.js("get", light)["states"])
        self.ok("do", "activate", light)
        self.assertIn("selected", self.js("get", light)["states"])

    def test_do_increment_decrement_type_set_value_custom(self):
        self.assertEqual(self.js("get", "#copies")["value"], "2")
        self.ok("do", "increment", "#copies")
        self.assertEqual(self.js("get", "#copies")["value"], "3")
        self.ok("do", "decrement", "#copies")
        self.assertEqual(self.js("get", "#copies")["value"], "2")
        self.ok("do", "type", "#deviceName", "--text", "Kitchen")
        self.assertEqual(self.js("get", "#deviceName")["value"], "Kitchen")
        self.ok("do", "set-value", "#deviceName", "--value", "", "--string")
        self.assertNotEqual(self.js("get", "#deviceName").get("value"), "Kitchen")
        names = lambda: [a["name"] for a in self.js("get", '#"cell.display"')["customActions"]]
        self.assertEqual(names(), ["Add to Favorites"])
        self.ok("do", "custom", '#"cell.display"', "--name", "favorite")
        self.assertEqual(names(), ["Remove from Favorites"])
        self.ok("do", "custom", '#"cell.display"', "--name", "favorite")

    def test_do_refusals(self):
        code, _, err = self.ax("do", "activate", "tab")          # ambiguous target
        self.assertEqual(code, 2, err)
        code, _, err = self.ax("do", "increment", "#edit")       # a button is not adjustable
        self.assertEqual(code, 6, err)
        self.one_line_error(err)
        code, _, err = self.ax("do", "scroll", "#settingsTable")  # missing --direction
        self.assertEqual(code, 64, err)
        code, _, err = self.ax("do", "zoom-in", "#edit")         # no supportsZoom (D-ZOOM-1)
        self.assertEqual(code, 6, err)
        self.assertIn("zoomIn", err)
        code, _, err = self.ax("do", "zoom-out", "#edit", "--point", "1,x")  # malformed centre
        self.assertEqual(code, 64, err)
        code, _, err = self.ax("do", "drop", "#edit", "--name", "Here")  # no drop points (D-DRAG-1)
        self.assertEqual(code, 6, err)
        self.assertIn("drop", err)
        code, _, err = self.ax("do", "drag", "#edit")  # drag needs --name
        self.assertEqual(code, 64, err)

    def test_wait_satisfied_by_a_change_and_escape(self):
        waiter = subprocess.Popen([AXQUERY, "wait", "#alert", "--state", "visible", "--timeout", "15s", "--json",
                                   "--socket", self.sock], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            time.sleep(0.3)
            self.ok("do", "activate", "#showAlert")
            out, err = waiter.communicate(timeout=20)
        finally:
            if waiter.poll() is None:
                waiter.kill()
                waiter.wait()
        self.assertEqual(waiter.returncode, 0, err)
        r = json.loads(out)
        self.assertTrue(r["satisfied"])
        self.assertEqual(r["element"]["identifier"], "alert")
        self.ok("wait", "#alert", "--state", "attached", "--timeout", "1s")
        self.ok("do", "activate", '#"alert.cancel"')
        self.ok("wait", "#alert", "--state", "detached", "--timeout", "5s")
        self.ok("wait", "#copies", "--state", "value", "--value", "2", "--timeout", "1s")

    def test_focus_get_and_set(self):
        self.ok("focus", "#deviceName")
        r = self.js("focus")
        self.assertEqual(r["element"]["id"], "nameField")
        self.assertIn("nameField", self.ok("focus"))
        self.ok("focus", "--clear")
        self.assertIsNone(self.js("focus")["element"])
        self.assertIn("nothing focused", self.ok("focus"))

    def test_watch_receives_tree_changed(self):
        watcher = subprocess.Popen([AXQUERY, "watch", "--count", "1", "--events", "tree.changed", "--json",
                                    "--timeout", "20s", "--socket", self.sock],
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            time.sleep(0.5)
            self.ok("do", "activate", '#"cell.wifi"')
            self.ok("do", "activate", '#"cell.wifi"')
            out, err = watcher.communicate(timeout=30)
        finally:
            if watcher.poll() is None:
                watcher.kill()
                watcher.wait()
        self.assertEqual(watcher.returncode, 0, err)
        lines = out.splitlines()
        self.assertEqual(len(lines), 1, out)
        ev = json.loads(lines[0])
        self.assertEqual(ev["event"], "tree.changed")
        self.assertIsInstance(ev["params"]["revision"], int)
        self.assertEqual(ev["params"]["app"], "axserver-demo")

    def test_watch_text_lines_and_timeout_without_events(self):
        code, out, err = self.ax("watch", "--events", "policy.changed", "--timeout", "400ms")
        self.assertEqual(code, 4, err)
        self.assertEqual(out, "")
        code, out, err = self.ax("watch", "--events", "no.such.event", "--timeout", "400ms")
        self.assertEqual(code, 6, err)
        self.one_line_error(err)

    def test_diff(self):
        rev = self.js("apps")[0]["revision"]
        self.ok("do", "activate", '#"cell.wifi"')
        r = self.js("diff", str(rev))
        self.assertEqual(r["fromRevision"], rev)
        self.assertGreater(r["toRevision"], rev)
        self.assertIn("cellWifi", r["updated"])
        self.assertIn("value", r["updated"]["cellWifi"])
        out = self.ok("diff", str(rev))
        self.assertTrue(any(l.startswith("~ cellWifi:") and "value" in l for l in out.splitlines()), out)
        self.ok("do", "activate", '#"cell.wifi"')
        out = self.ok("diff", str(rev + 1), str(rev + 1))
        self.assertIn("no changes", out)

    def test_watch_stops_on_sigint(self):
        watcher = subprocess.Popen([AXQUERY, "watch", "--socket", self.sock], stdout=subprocess.PIPE,
                                   stderr=subprocess.PIPE, text=True)
        try:
            # Wait for the first event (the demo's uptime label ticks every second): the watch is subscribed.
            r, _, _ = select.select([watcher.stdout], [], [], 20)
            self.assertTrue(r, "no event within 20 s")
            first = watcher.stdout.readline()
            watcher.send_signal(signal.SIGINT)
            out, err = watcher.communicate(timeout=10)
            out = first + out
        finally:
            if watcher.poll() is None:
                watcher.kill()
                watcher.wait()
        self.assertEqual(watcher.returncode, 0, err)
        for line in out.splitlines():
            self.assertRegex(line, r"^(tree\.changed|focus\.changed|a11y\.\w+) ")

    def test_watch_ends_when_its_reader_goes_away(self):
        """Issue 38 item 6: `axquery watch | head -1` ends. Both ways a reader can go: while events flow (the
        next write fails) and while none come (the closed pipe is noticed without writing)."""
        for events in ("tree.changed", "policy.changed"):   # the uptime label ticks each second; policy never
            started = time.monotonic()
            pipeline = subprocess.run(
                ["bash", "-c", "set -o pipefail; %s watch --events %s --socket %s | head -c 0; echo done"
                 % (AXQUERY, events, self.sock)], capture_output=True, text=True, timeout=30)
            self.assertEqual(pipeline.returncode, 0, pipeline.stderr)
            self.assertEqual(pipeline.stdout.strip(), "done")
            self.assertLess(time.monotonic() - started, 10, events)
        started = time.monotonic()
        pipeline = subprocess.run(["bash", "-c", "%s watch --socket %s | head -1" % (AXQUERY, self.sock)],
                                  capture_output=True, text=True, timeout=30)
        self.assertEqual(pipeline.returncode, 0, pipeline.stderr)
        self.assertRegex(pipeline.stdout, r"^tree\.changed ")
        self.assertLess(time.monotonic() - started, 10)

    def test_policy_get_lists_the_demos_restrictions(self):
        out = self.ok("policy", "get")
        self.assertIn("org.axserver.demo.wifi", out)          # declared in DemoApp.swift
        self.assertIn("allow", out)
        doc = self.js("policy", "get")
        self.assertIn("org.axserver.demo.reset", [r["id"] for r in doc["restrictions"]])
        code, out, err = self.ax("policy", "set", "org.axserver.demo.wifi", "deny", "--operator-token-file",
                                 os.path.join(self.tmp, "missing.token"))
        self.assertEqual(code, 5, err)
        self.one_line_error(err)

    # -- help -------------------------------------------------------------------------------------------------

    def test_help_on_every_subcommand_and_completions(self):
        for sub in ("find", "one", "count", "tree", "get", "wait", "do", "focus", "watch", "diff", "explain", "apps"):
            code, out, err = run(sub, "--help")
            self.assertEqual(code, 0, sub)
            self.assertIn("Examples:", out, sub)
            self.assertIn("axquery " + sub, out, sub)
        code, out, err = run("--help")
        self.assertEqual(code, 0)
        self.assertIn("Exit codes", out)
        code, out2, err = run()                                     # no arguments: the help
        self.assertEqual((code, out2), (0, out))
        code, out, err = run("find")                                # a usage error: one line plus the hint
        self.assertEqual(code, 64)
        lines = err.splitlines()
        self.assertEqual(len(lines), 2, err)
        self.assertTrue(lines[0].startswith("axquery: ") and "<selector>" in lines[0], err)
        self.assertIn("axquery find --help", lines[1])
        for shell in ("bash", "zsh", "fish"):
            code, out, err = run("--generate-completion-script", shell)
            self.assertEqual(code, 0, err)
            self.assertIn("axquery", out)


SNAPSHOT = {
    "windows": [{
        "id": "win", "class": "UIWindow", "frame": [0, 0, 400, 800], "isKeyWindow": True, "windowTitle": "Offline",
        "children": [
            {"id": "okButton", "class": "UIButton", "frame": [10, 10, 100, 44], "title": "OK", "accessibilityIdentifier": "ok"},
            {"id": "cancelButton", "class": "UIButton", "frame": [120, 10, 100, 44], "title": "Cancel", "isEnabled": False},
            {"id": "swA", "class": "UISwitch", "frame": [10, 70, 51, 31], "isOn": True, "accessibilityLabel": "Alpha"},
            {"id": "swB", "class": "UISwitch", "frame": [10, 110, 51, 31], "isOn": False, "accessibilityLabel": "Beta"},
            {"id": "title", "class": "UILabel", "frame": [10, 150, 300, 30], "text": "Hello", "accessibilityTraits": ["header"]},
        ],
    }],
}

PAGE_SOURCE = """<?xml version="1.0" encoding="UTF-8"?>
<!-- written by test_axquery.py in the shape of an Appium XCUITest page source -->
<AppiumAUT>
  <XCUIElementTypeApplication type="XCUIElementTypeApplication" name="Shop" label="Shop" enabled="true" visible="true" x="0" y="0" width="375" height="812">
    <XCUIElementTypeWindow type="XCUIElementTypeWindow" enabled="true" visible="true" x="0" y="0" width="375" height="812">
      <XCUIElementTypeOther type="XCUIElementTypeOther" enabled="true" visible="true" x="0" y="0" width="375" height="812">
        <XCUIElementTypeNavigationBar type="XCUIElementTypeNavigationBar" name="Login" enabled="true" visible="true" x="0" y="44" width="375" height="44">
          <XCUIElementTypeButton type="XCUIElementTypeButton" name="Back" label="Back" enabled="true" visible="true" x="8" y="50" width="60" height="32"/>
        </XCUIElementTypeNavigationBar>
        <XCUIElementTypeStaticText type="XCUIElementTypeStaticText" value="Welcome &amp; hello" name="Welcome &amp; hello" label="Welcome &amp; hello" enabled="true" visible="true" x="20" y="100" width="335" height="30" traits="Header, StaticText"/>
        <XCUIElementTypeTextField type="XCUIElementTypeTextField" value="alice" name="username" label="Username" enabled="true" visible="true" x="20" y="150" width="335" height="40"/>
        <XCUIElementTypeSecureTextField type="XCUIElementTypeSecureTextField" name="password" label="Password" enabled="true" visible="true" x="20" y="200" width="335" height="40"/>
        <XCUIElementTypeSwitch type="XCUIElementTypeSwitch" value="1" name="remember" label="Remember me" enabled="true" visible="true" x="300" y="250" width="51" height="31"/>
        <XCUIElementTypeButton type="XCUIElementTypeButton" name="loginButton" label="Log In" enabled="false" visible="true" x="20" y="300" width="335" height="44"/>
        <XCUIElementTypeTable type="XCUIElementTypeTable" name="recent" enabled="true" visible="true" x="0" y="360" width="375" height="200">
          <XCUIElementTypeCell type="XCUIElementTypeCell" name="row1" enabled="true" visible="true" x="0" y="360" width="375" height="44">
            <XCUIElementTypeStaticText type="XCUIElementTypeStaticText" value="Alpha" name="Alpha" label="Alpha" enabled="true" visible="true" x="16" y="371" width="200" height="22"/>
          </XCUIElementTypeCell>
          <XCUIElementTypeCell type="XCUIElementTypeCell" name="row2" enabled="true" visible="true" x="0" y="404" width="375" height="44">
            <XCUIElementTypeStaticText type="XCUIElementTypeStaticText" value="Beta" name="Beta" label="Beta" enabled="true" visible="true" x="16" y="415" width="200" height="22"/>
          </XCUIElementTypeCell>
        </XCUIElementTypeTable>
        <XCUIElementTypeSlider type="XCUIElementTypeSlider" value="30%" name="volume" label="Volume" enabled="true" visible="true" x="20" y="600" width="335" height="30"/>
      </XCUIElementTypeOther>
    </XCUIElementTypeWindow>
  </XCUIElementTypeApplication>
</AppiumAUT>
"""


class Offline(unittest.TestCase):
    """--file: the same engine in-process, no server anywhere (the socket option points nowhere)."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="axq-")
        cls.json_path = os.path.join(cls.tmp, "snap.json")
        with open(cls.json_path, "w") as f:
            json.dump(SNAPSHOT, f)
        cls.xml_path = os.path.join(cls.tmp, "page.xml")
        with open(cls.xml_path, "w") as f:
            f.write(PAGE_SOURCE)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def ax(self, cmd, path, *args):
        return run(cmd, "--file", path, "--socket", os.path.join(self.tmp, "none.sock"), *args)

    def js(self, cmd, path, *args):
        code, out, err = self.ax(cmd, path, *args, "--json")
        self.assertEqual(code, 0, err)
        return json.loads(out)

    def test_json_snapshot(self):
        p = self.json_path
        self.assertEqual(self.js("count", p, "switch")["count"], 2)
        r = self.js("one", p, 'button[label="OK"]')
        self.assertEqual((r["id"], r["identifier"]), ("okButton", "ok"))
        self.assertEqual(r["frame"], {"x": 10, "y": 10, "width": 100, "height": 44})
        r = self.js("find", p, "button:disabled")
        self.assertEqual([e["id"] for e in r["elements"]], ["cancelButton"])
        r = self.js("get", p, "--id", "swA")
        self.assertEqual((r["label"], r["value"]), ("Alpha", "on"))
        self.assertEqual(self.js("get", p, 'switch[label="Beta"]')["value"], "off")
        code, out, err = self.ax("tree", p)
        self.assertEqual(code, 0, err)
        lines = out.splitlines()
        self.assertTrue(lines[0].startswith('window "Offline"'), out)
        self.assertIn('header "Hello"', out)
        self.assertEqual(len(lines), 6)
        code, out, err = self.ax("one", p, "switch")
        self.assertEqual(code, 2, err)
        code, out, err = self.ax("find", p, 'button[label="Okay"]')
        self.assertEqual(code, 1, err)
        self.assertIn('"OK"', err)
        code, out, err = self.ax("explain", p, 'button[label="OK"]')
        self.assertEqual(code, 0, err)
        code, out, err = self.ax("count", p, "button[")
        self.assertEqual(code, 3, err)
        code, out, err = self.ax("tree", p, "--format", "xml")
        self.assertEqual(code, 0, err)
        self.assertEqual(ET.fromstring(out.encode()).find(".//*[@name='ok']").get("label"), "OK")

    def test_appium_page_source(self):
        p = self.xml_path
        r = self.js("one", p, 'button[label="Log In"]')
        self.assertEqual(r["identifier"], "loginButton")
        self.assertNotIn("enabled", r["states"])                  # enabled="false"
        self.assertEqual(r["frame"], {"x": 20, "y": 300, "width": 335, "height": 44})   # absolute, as in the XML
        r = self.js("get", p, "#remember")
        self.assertEqual((r["role"], r["label"], r["value"]), ("switch", "Remember me", "on"))   # value="1"
        self.assertEqual(self.js("get", p, "#username")["value"], "alice")
        self.assertEqual(self.js("count", p, "secureTextField")["count"], 1)
        self.assertEqual(self.js("get", p, "#volume")["value"], "30%")
        r = self.js("find", p, "cell")
        self.assertEqual([e["identifier"] for e in r["elements"]], ["row1", "row2"])
        self.assertEqual([e["label"] for e in r["elements"]], ["Alpha", "Beta"])
        r = self.js("find", p, 'header[label="Welcome & hello"]')      # traits="Header, StaticText"
        self.assertEqual(r["count"], 1)
        self.assertEqual(set(r["elements"][0]["traits"]), {"header", "staticText"})
        self.assertEqual(self.js("find", p, "list#recent > cell")["count"], 2)
        self.assertEqual(self.js("count", p, "navigationBar > button")["count"], 1)
        code, out, err = self.ax("tree", p)
        self.assertEqual(code, 0, err)
        self.assertTrue(out.splitlines()[0].startswith("window"), out)

    def test_bad_files_exit_5(self):
        code, _, err = self.ax("tree", os.path.join(self.tmp, "missing.json"))
        self.assertEqual(code, 5, err)
        bad = os.path.join(self.tmp, "bad.xml")
        with open(bad, "w") as f:
            f.write("<AppiumAUT>\n  <XCUIElementTypeApplication>\n</AppiumAUT>\n")
        code, _, err = self.ax("tree", bad)
        self.assertEqual(code, 5, err)
        self.assertIn("line 3", err)
        nowin = os.path.join(self.tmp, "nowin.json")
        with open(nowin, "w") as f:
            json.dump({"views": []}, f)
        code, _, err = self.ax("count", nowin, "button")
        self.assertEqual(code, 5, err)
        self.assertIn("windows", err)


    def test_many_attributes_on_one_element_are_read_in_linear_time(self):
        """50,000 attributes on one element: refused at the cap, fast (the duplicate check was quadratic); an
        element at the cap still reads."""
        def page(count):
            attrs = " ".join('a%d="v"' % k for k in range(count))
            return ('<AppiumAUT><XCUIElementTypeApplication name="A" x="0" y="0" width="390" height="844">'
                    '<XCUIElementTypeButton name="b" label="B" x="0" y="0" width="10" height="10" %s/>'
                    '</XCUIElementTypeApplication></AppiumAUT>' % attrs)
        many = os.path.join(self.tmp, "many.xml")
        with open(many, "w") as f:
            f.write(page(50000))
        started = time.monotonic()
        code, _, err = self.ax("count", many, "button")
        elapsed = time.monotonic() - started
        self.assertEqual(code, 5, err)
        self.assertIn("more than 1024 attributes", err)
        self.assertLess(elapsed, 5.0, "50,000 attributes took %.2f s" % elapsed)
        at_cap = os.path.join(self.tmp, "cap.xml")
        with open(at_cap, "w") as f:
            f.write(page(1024 - 7))   # 7 named attributes plus the generated ones: exactly the cap
        code, out, err = self.ax("count", at_cap, "button")
        self.assertEqual((code, out.strip()), (0, "1"), err)

    def test_regex_queries_run_offline(self):
        """A regex query is run off a server's event loop; offline, the CLI runs it itself."""
        code, out, err = self.ax("count", self.json_path, "*[label~=/(.+)+X/]")
        self.assertEqual((code, out.strip()), (1, "0"), err)   # no match: exit 1, as for any count of 0
        code, out, err = self.ax("count", self.json_path, "*[label~=/./]")
        self.assertEqual(code, 0, err)
        self.assertGreater(int(out.strip()), 0)


class OverTCP(unittest.TestCase):
    """--tcp HOST:PORT --token-file F against a server listening on loopback TCP with a token."""

    @classmethod
    def setUpClass(cls):
        cls.tokdir = tempfile.mkdtemp(prefix="axq-tok-")
        cls.token = os.path.join(cls.tokdir, "token")
        fd = os.open(cls.token, os.O_WRONLY | os.O_CREAT, 0o600)
        os.write(fd, b"s3cret-token\n")
        os.close(fd)
        cls.server, cls.sock, cls.tmp = start_server("--demo", "--listen", "tcp:127.0.0.1:0", "--token-file", cls.token)
        ready = [l for l in cls.server.lines if l.startswith("READY")][0]
        cls.port = int(re.search(r"tcp=(\d+)", ready).group(1))

    @classmethod
    def tearDownClass(cls):
        cls.server.stop()
        shutil.rmtree(cls.tmp, ignore_errors=True)
        shutil.rmtree(cls.tokdir, ignore_errors=True)

    def test_tcp_with_token(self):
        code, out, err = run("count", "tab", "--tcp", "127.0.0.1:%d" % self.port, "--token-file", self.token)
        self.assertEqual((code, out.strip()), (0, "3"), err)
        code, out, err = run("watch", "--count", "1", "--events", "tree.changed", "--timeout", "10s",
                             "--tcp", "127.0.0.1:%d" % self.port, "--token-file", self.token)
        self.assertEqual(code, 0, err)                          # the uptime label ticks every second
        self.assertTrue(out.startswith("tree.changed "), out)

    def test_tcp_with_a_wrong_token_exits_5(self):
        bad = os.path.join(self.tokdir, "bad")
        fd = os.open(bad, os.O_WRONLY | os.O_CREAT, 0o600)
        os.write(fd, b"wrong\n")
        os.close(fd)
        code, out, err = run("count", "tab", "--tcp", "127.0.0.1:%d" % self.port, "--token-file", bad, "--json")
        self.assertEqual(code, 5, err)
        self.assertEqual(json.loads(out)["error"]["code"], -32019)
        code, out, err = run("count", "tab", "--tcp", "127.0.0.1:%d" % self.port)
        self.assertEqual(code, 5, err)                          # no token at all


if __name__ == "__main__":
    unittest.main()
