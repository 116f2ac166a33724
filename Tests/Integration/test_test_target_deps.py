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


# Modules that have a test target of their own (issue 31 item 5: AXWire and AXJSONRPC were tested only through the
# transport's and the router's targets), which depends on the module and on nothing above it in the layering.
OWN_TEST_TARGETS = {"AXJSON": set(), "AXJSONRPC": {"AXJSON"}, "AXWire": {"AXJSONRPC", "AXJSON"},
                    "AXProtocol": {"AXJSON", "AXJSONRPC"}}


def own_target_problems(description):
    """Why a module of OWN_TEST_TARGETS lacks its own test target, or that target reaches above the module."""
    targets = {target["name"]: target for target in description["targets"]}
    problems = []
    for module, allowed in sorted(OWN_TEST_TARGETS.items()):
        tests = targets.get(module + "Tests")
        if tests is None or tests.get("type") != "test":
            problems.append("%s has no test target %sTests" % (module, module))
            continue
        declared = set(tests.get("target_dependencies", []))
        if module not in declared:
            problems.append("%sTests does not depend on %s" % (module, module))
        above = sorted(declared - allowed - {module})
        if above:
            problems.append("%sTests depends on %s, above %s" % (module, ", ".join(above), module))
    return problems


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
        self.assertEqual(own_target_problems(json.loads(described.stdout)), [])

    def test_a_mismatch_is_noticed(self):
        description = {"targets": [
            {"name": "AXJSON", "type": "library", "path": "Sources/AXJSON"},
            {"name": "AXSchema", "type": "library", "path": "Sources/AXSchema"},
            {"name": "AXJSONTests", "type": "test", "path": "Tests/AXJSONTests",
             "target_dependencies": ["AXJSON", "AXSchema"]}]}
        self.assertEqual(mismatches(description), [("AXJSONTests", ["AXSchema"], [])])

    def test_a_missing_or_reaching_own_target_is_noticed(self):
        description = {"targets": [
            {"name": "AXJSONTests", "type": "test", "target_dependencies": ["AXJSON"]},
            {"name": "AXJSONRPCTests", "type": "test", "target_dependencies": ["AXJSONRPC", "AXTestSupport"]},
            {"name": "AXProtocolTests", "type": "test", "target_dependencies": ["AXJSON"]}]}
        self.assertEqual(own_target_problems(description), [
            "AXJSONRPCTests depends on AXTestSupport, above AXJSONRPC",
            "AXProtocolTests does not depend on AXProtocol", "AXWire has no test target AXWireTests"])


if __name__ == "__main__":
    unittest.main()
