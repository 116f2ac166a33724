"""The Python client's tests run against the real axserver, started by the client's own pytest plugin.

AXSERVER_BIN names the folder holding the binaries (default: .build/debug of this checkout). The package is
imported from Sources/PythonClient unless it is installed.
"""
import os
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
PACKAGE_DIR = os.path.join(ROOT, "Sources", "PythonClient")
if PACKAGE_DIR not in sys.path:
    sys.path.insert(0, PACKAGE_DIR)
if not os.environ.get("AXSERVER_BIN"):
    os.environ["AXSERVER_BIN"] = os.path.join(ROOT, ".build", "debug")
os.environ.setdefault("AXSERVER_A11Y_STACK", os.path.join(ROOT, "Tools", "a11y-stack.sh"))

# The plugin's entry point has the same name, so an installed axclient is not registered twice.
pytest_plugins = ["axclient.pytest_plugin", "pytester"]
