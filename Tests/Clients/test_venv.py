"""The test venv holds the PyPI clients the Clients phase uses (a missing one fails here, not as a skip)."""
import importlib


def test_pypi_clients_are_importable():
    for module in ("mcp", "selenium.webdriver", "appium.webdriver"):
        assert importlib.import_module(module) is not None, module
