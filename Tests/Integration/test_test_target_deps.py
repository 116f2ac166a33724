"""Each test target declares exactly the modules of this package its files import (issue 31 item 5): a dependency no
file imports is build time for nothing and hides where a test belongs; an import not declared builds only by accident
of another target's dependencies. Reads `swift package describe --type json` and the test files' import lines."""
import glob
import json
import os
import re
import shutil
import subprocess
import unittest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
SWIFT = shutil.which("swift") or "/opt/swift/usr/bin/swift"
IMPORT = re.compile(r"^\s*(?:@testable\s+)?import\s+(\w+)", re.MULTILINE)


def imports_of(folder):
    found = set()
    for path in glob.glob(os.path.join(folder, "**", "*.swift"), recursive=True):
        with open(path, encoding="utf-8", errors="replace") as handle:
            found.update(IMPORT.findall(handle.read()))
    return found


def mismatches(description):
    """(target, unused declared dependencies, undeclared imports of package modules) for every test target."""
    modules = {target["name"] for target in description["targets"]}
    rows = []
    for target in description["targets"]:
        if target.get("type") != "test":
            continue
        imported = imports_of(os.path.join(ROOT, target["path"])) & modules
        declared = set(target.get("target_dependencies", []))
        rows.append((target["name"], sorted(declared - imported), sorted(imported - declared)))
    return rows


@unittest.skipUnless(os.path.exists(SWIFT), "needs swift (the test reads the package description)")
class TestTargetDependencies(unittest.TestCase):
    def test_each_test_target_declares_what_it_imports(self):
        described = subprocess.run([SWIFT, "package", "describe", "--type", "json"], cwd=ROOT, capture_output=True,
                                   text=True, timeout=120)
        self.assertEqual(described.returncode, 0, described.stderr[-2000:])
        rows = mismatches(json.loads(described.stdout))
        self.assertGreater(len(rows), 10, "the test targets were found")
        wrong = ["%s: declared, never imported: %s; imported, not declared: %s" % row
                 for row in rows if row[1] or row[2]]
        self.assertEqual(wrong, [], "\n".join(wrong) + "\n(fix the target's dependencies in Package.swift)")

    def test_a_mismatch_is_noticed(self):
        description = {"targets": [
            {"name": "AXJSON", "type": "library", "path": "Sources/AXJSON"},
            {"name": "AXSchema", "type": "library", "path": "Sources/AXSchema"},
            {"name": "AXJSONTests", "type": "test", "path": "Tests/AXJSONTests",
             "target_dependencies": ["AXJSON", "AXSchema"]}]}
        self.assertEqual(mismatches(description), [("AXJSONTests", ["AXSchema"], [])])


if __name__ == "__main__":
    unittest.main()
