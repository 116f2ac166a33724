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

import pytest  # noqa: E402  (after the path set-up above, so the plugin and the package come from this checkout)


def pytest_configure(config):
    config.addinivalue_line(
        "markers", "orca: starts a real Orca (the screen_reader fixture, or a file about Orca); set on such tests "
        "at collection. `Tools/test.sh quick` runs `-m 'not orca'`")


def pytest_collection_modifyitems(config, items):
    for item in items:
        if "screen_reader" in getattr(item, "fixturenames", ()) or "orca" in item.module.__name__:
            item.add_marker(pytest.mark.orca)
