"""Audits, speech and pictures over the real socket and through the axquery binary (issue 14).

A live `axserver serve --demo --demo-audit`. Expected values come from the demo sources and the decisions, never
from the server's output:
  * the audit demo "Checkout" (Sources/AXDemo/AuditDemo.swift) gets exactly one thing wrong per check: the
    (check, element) pairs below are the mistakes its design makes, one per control;
  * the main demo's only finding is its Device Name field, labelled by its placeholder alone (D-AUDIT-3);
  * Orca's lines are the ones real Orca speaks for the demo (test_orca.py), per stack (D-SPEECH-3): Orca 43 "Reset All
    Settings push button", Orca 48.1 "Reset All Settings button" (orca_transcript.ROLE_WORDS), then "Asks before
    resetting"; VoiceOver's follow D-SPEECH-1 (label, trait, hint after a pause);
  * the navigation bar reads its title, then its back item (R13), so a walk starts navBar#title, navBar#back.
"""
import base64
import json
import os
import shutil
import subprocess
import unittest
import xml.etree.ElementTree as ET

from harness import AXQUERY, ORCA_STACKS, RPC, start_server
from orca_transcript import ROLE_WORDS

AUDIT_APP = "axserver-audit-demo"
EXPECTED_MISTAKES = {
    ("hitRegion", "closeButton"), ("sufficientElementDescription", "shareIcon"),
    ("sufficientElementDescription", "submitButton"), ("trait", "couponButton"), ("parentChild", "giftCard"),
    ("action", "itemCell"), ("textClipped", "deliveryLabel"), ("contrast", "taxNote"),
    ("duplicateSpeakableText", "removeSecond"), ("duplicateClickableBounds", "shareOverlay"),
    ("unlabeledImage", "brandLogo"), ("unlabeledEditableText", "promoField"), ("linkPurposeUnclear", "termsLink"),
    ("elementDetection", "payButton"), ("focusable", "saveCart"), ("focusGroup", "shippingGroup"),
    ("emptyRotor", "navBar"), ("hitRegion", "likeButton"), ("unmaskedSecret", "pinField"),
}
CHECKS = ["elementDetection", "hitRegion", "sufficientElementDescription", "trait", "parentChild", "action",
          "textClipped", "contrast", "duplicateSpeakableText", "duplicateClickableBounds", "unlabeledImage",
          "unlabeledEditableText", "linkPurposeUnclear", "focusable", "focusGroup", "emptyRotor", "unmaskedSecret"]
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def axquery(*args, timeout=60):
    env = dict(os.environ)
    env.pop("AXSERVER_SOCKET", None)
    env["NO_COLOR"] = "1"
    p = subprocess.run([AXQUERY] + list(args), capture_output=True, timeout=timeout, env=env)
    return p.returncode, p.stdout, p.stderr.decode("utf-8", "replace")


class AuditSpeechRender(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.server, cls.sock, cls.tmp = start_server("--demo", "--demo-audit")
        cls.rpc = RPC(cls.sock)
        cls.rpc.result("initialize", {"role": "automation", "clientInfo": {"name": "test_audit_speech_render"}})

    @classmethod
    def tearDownClass(cls):
        cls.rpc.close()
        cls.server.stop()
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def ax(self, *args):
        return axquery(args[0], "--socket", self.sock, *args[1:])

    # -- audits --------------------------------------------------------------------------------------------------

    def test_audit_demo_reports_exactly_its_mistakes(self):
        r = self.rpc.result("audit.run", {"app": AUDIT_APP})
        found = {(f["check"], f["element"]) for f in r["findings"]}
        self.assertEqual(found, EXPECTED_MISTAKES)
        self.assertEqual(r["count"], len(EXPECTED_MISTAKES))
        self.assertEqual(r["checks"], CHECKS)
        for f in r["findings"]:
            self.assertTrue(f["reason"] and f["fix"], f)
            self.assertTrue(any(rule.startswith("D-AUDIT-") for rule in f["rules"]), f)
            # Every finding cites a seed or reference rule (R/X: UIKit semantics; C: the focus reference).
            self.assertTrue(any(rule[0] in "RXC" and rule[1:].isdigit() for rule in f["rules"]), f)

    def test_main_demo_has_only_its_placeholder_label(self):
        r = self.rpc.result("audit.run", {"app": "axserver-demo"})
        self.assertEqual([(f["check"], f["element"]) for f in r["findings"]], [("sufficientElementDescription", "nameField")])

    def test_unknown_check_lists_the_accepted_ones(self):
        m = self.rpc.call("audit.run", {"app": AUDIT_APP, "checks": ["colour"]})
        self.assertEqual(m["error"]["code"], -32602)
        self.assertEqual(m["error"]["data"]["accepted"], CHECKS)
        code, out, err = self.ax("audit", "--app", AUDIT_APP, "--check", "colour")
        self.assertEqual(code, 6, err)
        self.assertIn("elementDetection", err)

    def test_axquery_audit_text_exit_code_and_suppress(self):
        code, out, err = self.ax("audit", "--app", AUDIT_APP)
        self.assertEqual(code, 1, err)
        text = out.decode()
        for check, element in EXPECTED_MISTAKES:
            self.assertRegex(text, r"(?m)^(error|warning) %s %s\b" % (check, element))
        self.assertIn("19 findings", text)
        code, out, err = self.ax("audit", "--app", AUDIT_APP, "--check", "contrast", "--suppress", "@[axid=taxNote]")
        self.assertEqual(code, 0, out + err.encode())
        self.assertIn(b"no findings", out)
        code, out, err = self.ax("audit", "--app", AUDIT_APP, "--check", "hitRegion", "--check", "trait",
                                 "--suppress", "trait=[class=UIButton]")
        self.assertEqual(code, 1)
        self.assertRegex(out.decode(), r"(?m)^warning hitRegion closeButton")
        self.assertNotIn(b"couponButton", out)

    def test_axquery_audit_junit_and_sarif(self):
        code, out, err = self.ax("audit", "--app", AUDIT_APP, "--format", "junit")
        self.assertEqual(code, 1, err)
        suites = ET.fromstring(out)
        cases = suites.findall(".//testcase")
        self.assertEqual([c.get("name") for c in cases], CHECKS)
        failed = {c.get("name") for c in cases if c.find("failure") is not None}
        self.assertEqual(failed, {check for check, _ in EXPECTED_MISTAKES})
        code, out, err = self.ax("audit", "--app", AUDIT_APP, "--format", "sarif")
        self.assertEqual(code, 1, err)
        sarif = json.loads(out)
        self.assertEqual(sarif["version"], "2.1.0")
        run = sarif["runs"][0]
        self.assertEqual([r["id"] for r in run["tool"]["driver"]["rules"]], CHECKS)
        self.assertEqual({(r["ruleId"], r["locations"][0]["logicalLocations"][0]["name"]) for r in run["results"]},
                         EXPECTED_MISTAKES)

    # -- speech --------------------------------------------------------------------------------------------------

    def test_speech_describe_both_models(self):
        r = self.rpc.result("speech.describe", {"app": "axserver-demo", "target": {"selector": "#showAlert"}})
        self.assertEqual(r["orca"]["utterances"], ["Reset All Settings push button", "Asks before resetting"])
        self.assertEqual(r["orca"]["screenReader"], "orca-43", "the default is the system's Orca 43")
        self.assertEqual(r["voiceOver"]["text"], "Reset All Settings, button. Asks before resetting")
        for stack in ORCA_STACKS:
            with self.subTest(orca=stack):
                name = "orca-" + stack
                button = "Reset All Settings %s" % ROLE_WORDS[name]["push button"]
                r = self.rpc.result("speech.describe", {"app": "axserver-demo", "target": {"selector": "#showAlert"},
                                                        "screenReader": name})
                self.assertEqual((r["orca"]["utterances"], r["orca"]["screenReader"]),
                                 ([button, "Asks before resetting"], name))
                code, out, err = self.ax("say", "--app", "axserver-demo", "--screen-reader", name, "#showAlert")
                self.assertEqual(code, 0, err)
                self.assertEqual(out.decode().splitlines(), [
                    "VoiceOver: Reset All Settings, button. Asks before resetting",
                    "Orca:      " + button,
                    "Orca:      Asks before resetting",
                ])

    def test_speech_walk_reading_order(self):
        r = self.rpc.result("speech.walk", {"app": "axserver-demo", "model": "voiceOver"})
        ids = [item["id"] for item in r["items"]]
        self.assertEqual(ids[:2], ["navBar#title", "navBar#back"])
        self.assertEqual(len(ids), len(set(ids)), "every element once")
        self.assertEqual(r["items"][1]["voiceOver"], "General, back button")
        self.assertNotIn("orca", r["items"][0])

    # -- pictures ------------------------------------------------------------------------------------------------

    def test_render_svg_is_well_formed_and_names_the_window(self):
        r = self.rpc.result("tree.render", {"app": "axserver-demo", "overlay": ["labels", "order", "audit"]})
        root = ET.fromstring(r["svg"])
        self.assertTrue(root.tag.endswith("svg"))
        self.assertIn("Settings", r["svg"])
        self.assertEqual(r["findings"], 1)
        m = self.rpc.call("tree.render", {"app": "axserver-demo", "overlay": ["heatmap"]})
        self.assertEqual(m["error"]["data"]["accepted"], ["labels", "order", "focus", "hitRegions", "audit"])

    @unittest.skipIf(shutil.which("rsvg-convert") is None, "rsvg-convert (librsvg2-bin) is not installed")
    def test_render_png_through_the_rasterizer(self):
        r = self.rpc.result("tree.render", {"app": AUDIT_APP, "format": "png", "overlay": ["audit"]})
        self.assertEqual(r["encoding"], "base64")
        self.assertTrue(base64.b64decode(r["data"]).startswith(PNG_MAGIC))
        path = os.path.join(self.tmp, "audit.png")
        code, out, err = self.ax("render", "--app", AUDIT_APP, "--format", "png", "--overlay", "audit", "--out", path)
        self.assertEqual(code, 0, err)
        with open(path, "rb") as f:
            self.assertTrue(f.read().startswith(PNG_MAGIC))

    def test_render_cap_is_reported(self):
        code, out, err = self.ax("render", "--app", "axserver-demo", "--max-nodes", "3")
        self.assertEqual(code, 0, err)
        self.assertRegex(err, r"\d+ nodes were not drawn")
        self.assertIn(b"nodes not drawn", out)


if __name__ == "__main__":
    unittest.main()
