"""Specs/hierarchy.schema.json is the contract for what apps push: the demo's snapshot conforms to it, and for a
set of malformed hierarchies the schema and the server agree that they are invalid (the server names the
problem precisely)."""
import json
import os
import subprocess
import unittest

from harness import AXSERVER, ROOT, RPC, start_server

try:
    import jsonschema
except ImportError:  # python3-jsonschema is installed by Tools/install-deps.sh
    jsonschema = None


@unittest.skipIf(jsonschema is None, "python3-jsonschema is not installed")
class HierarchySchema(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        with open(os.path.join(ROOT, "Specs", "hierarchy.schema.json")) as f:
            cls.schema = json.load(f)
        cls.validator = jsonschema.Draft202012Validator(cls.schema)

    def test_schema_is_valid(self):
        jsonschema.Draft202012Validator.check_schema(self.schema)

    def test_demo_snapshot_conforms(self):
        out = subprocess.run([AXSERVER, "dump", "--demo", "--snapshot"], capture_output=True, text=True, timeout=60)
        self.assertEqual(out.returncode, 0, out.stderr)
        snap = json.loads(out.stdout)
        errors = sorted(self.validator.iter_errors(snap), key=str)
        self.assertEqual(errors, [], [e.message for e in errors[:5]])
        # and with the alert presented
        out = subprocess.run([AXSERVER, "dump", "--demo", "--alert", "--snapshot"], capture_output=True, text=True, timeout=60)
        self.assertEqual(list(self.validator.iter_errors(json.loads(out.stdout))), [])

    def test_schema_and_server_agree_on_bad_input(self):
        w = lambda *kids: {"windows": [{"id": "w", "class": "UIWindow", "frame": [0, 0, 100, 100], "children": list(kids)}]}
        bad = {
            "alpha out of range": (w({"id": "a", "alpha": 2}), "alpha"),
            "unknown trait": (w({"id": "a", "accessibilityTraits": ["buton"]}), "accessibilityTraits"),
            "negative size": (w({"id": "a", "frame": [0, 0, -1, 5]}), "frame"),
            "frame of wrong arity": (w({"id": "a", "frame": [0, 0, 1]}), "frame"),
            "unknown property": (w({"id": "a", "colour": "red"}), "colour"),
            "heading level 7": (w({"id": "a", "accessibilityHeadingLevel": 7}), "accessibilityHeadingLevel"),
            "container type 9": (w({"id": "a", "accessibilityContainerType": 9}), "accessibilityContainerType"),
            "missing id": (w({"class": "UIView"}), None),
            "step 0": (w({"id": "a", "class": "UIStepper", "stepValue": 0}), "stepValue"),
        }
        server, sock, _ = start_server()
        try:
            c = RPC(sock)
            c.result("initialize", {"role": "provider"})
            c.result("app.register", {"name": "schema"})
            for name, (snap, prop) in bad.items():
                with self.subTest(name):
                    self.assertTrue(list(self.validator.iter_errors(snap)), "schema accepted " + name)
                    r = c.call("hierarchy.set", snap)
                    self.assertIn("error", r, "server accepted " + name)
                    self.assertEqual(r["error"]["code"], -32602)
                    if prop:
                        self.assertEqual(r["error"]["data"].get("property"), prop, r["error"])
            # a good one is accepted by both
            good = w({"id": "a", "class": "UIButton", "title": "OK", "frame": [0, 0, 10, 10]})
            self.assertEqual(list(self.validator.iter_errors(good)), [])
            self.assertIn("result", c.call("hierarchy.set", good))
            c.close()
        finally:
            server.stop()


if __name__ == "__main__":
    unittest.main()
