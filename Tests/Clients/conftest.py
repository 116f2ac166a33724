"""Tests with unmodified clients from PyPI (the MCP SDK, Selenium, Appium) against the real axserver.

Run by `Tools/test.sh clients` with the test venv's python (Tools/test-venv.sh). AXSERVER_BIN names the folder
holding the built binaries (default: .build/debug of this checkout); the axclient package's pytest plugin
(`axserver`, `ax`, `ax_provider` fixtures) is loaded from Sources/PythonClient.
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

pytest_plugins = ["axclient.pytest_plugin"]
