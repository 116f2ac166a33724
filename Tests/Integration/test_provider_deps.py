"""The library products stand alone: an app that links AXProvider (or a test that links AXClient) gets JSON, the
JSON-RPC protocol and the client transport (the provider also the schema table, AXSchema), never the server's derivation engine, hub, selector engine, audits or
method table (issue 13). Reads the package graph from `swift package describe --type json` and walks the target
dependencies; prints each library's closure.

AX_PACKAGE_ROOT names another checkout to inspect (default: this one).
"""
import json
import os
import shutil
import subprocess
import unittest

from harness import ROOT

# The server's internals: the derivation engine and UIKit semantics, the hub, the selector engine, the audits,
# and the JSON-RPC router with its method table.
FORBIDDEN = {"AXCore", "AXHub", "AXQuery", "AXInsight", "AXRPCRouter", "AXRPC", "AXTransport", "AXATSPI",
             "AXATSPIModel", "AXDBus"}
LIBRARIES = ["AXProvider", "AXClient"]
# What each library may link: JSON, the protocol and its catalog (AXProtocol: the typed method names and keys,
# D-CATALOG-1; the provider reads the server's requests from it, `RPCServerMessage`) and the wire it shares with the
# server (AXWire: framing, addresses, socket paths, no NIO). The provider: the schema table it shares with the server
# (AXSchema, JSON only; Specs/hierarchy.md §One schema table), and its own connection over a plain socket
# (D-PROVIDER-WIRE-1). The client: the NIO client transport (AXRPCClient, with AXWireNIO) and the trace writer of
# startTrace/stopTrace (AXTrace, itself only JSON, the protocol and the catalog; Specs/trace-swift.md).
ALLOWED = {"AXProvider": ["AXJSON", "AXJSONRPC", "AXProtocol", "AXSchema", "AXWire"],
           "AXClient": ["AXJSON", "AXJSONRPC", "AXProtocol", "AXRPCClient", "AXTrace", "AXWire", "AXWireNIO"]}
# The packages each library may build: an app that adds the provider library builds no other package (no NIO: 119
# CPU-seconds of the guide example's cold build went to swift-nio, swift-atomics and swift-collections' Deque).
ALLOWED_PRODUCTS = {"AXProvider": [], "AXClient": ["NIOCore", "NIOPosix"]}


def swift_binary():
    for candidate in (shutil.which("swift"), "/opt/swift/usr/bin/swift"):
        if candidate and os.path.exists(candidate):
            return candidate
    return None


def describe(package_root):
    out = subprocess.run([swift_binary(), "package", "describe", "--type", "json"], cwd=package_root,
                         capture_output=True, text=True, timeout=300)
    if out.returncode != 0:
        raise AssertionError("swift package describe failed: " + out.stderr[-2000:])
    return json.loads(out.stdout)


def closure(package, target):
    """(targets, products) reachable from `target` through target dependencies, in breadth-first order."""
    by_name = {t["name"]: t for t in package["targets"]}
    seen, products, queue = [], [], [target]
    while queue:
        name = queue.pop(0)
        if name in seen or name not in by_name:
            continue
        seen.append(name)
        node = by_name[name]
        for product in node.get("product_dependencies", []):
            if product not in products:
                products.append(product)
        queue.extend(node.get("target_dependencies", []))
    return seen, products


class ProviderDependenciesTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        if swift_binary() is None:
            raise unittest.SkipTest("no swift toolchain on PATH or at /opt/swift/usr/bin")
        cls.package = describe(os.environ.get("AX_PACKAGE_ROOT", ROOT))

    def test_library_products_link_no_server_internals(self):
        for library in LIBRARIES:
            with self.subTest(library=library):
                targets, products = closure(self.package, library)
                print("%s depends on targets %s and products %s" % (library, ", ".join(targets[1:]),
                                                                   ", ".join(products) or "none"))
                self.assertIn(library, targets, "no target named %s" % library)
                leaked = sorted(FORBIDDEN.intersection(targets))
                self.assertEqual(leaked, [], "%s links the server's %s" % (library, ", ".join(leaked)))

    def test_library_products_need_only_the_protocol_and_the_client_transport(self):
        for library in LIBRARIES:
            with self.subTest(library=library):
                targets, _ = closure(self.package, library)
                self.assertEqual(sorted(targets[1:]), ALLOWED[library])

    def test_the_provider_library_builds_no_other_package(self):
        for library in LIBRARIES:
            with self.subTest(library=library):
                _, products = closure(self.package, library)
                self.assertEqual(sorted(products), ALLOWED_PRODUCTS[library],
                                 "%s links the products %s" % (library, ", ".join(products)))


if __name__ == "__main__":
    unittest.main()
