"""What the toolkit adapters' client tests (Kivy, pygame_gui, Dear PyGui, Dear ImGui) share, written once: an
`axdriver` on a free loopback port with a Selenium session on one app, the `axquery` CLI, an MCP session through
`axquery mcp` with the real MCP SDK, and stopping an app a module fixture started. Each test keeps only what is its
own: the app, the steps, the assertions (issue 31 review: the set-up was copied into each toolkit's tests)."""
import contextlib
import os
import select
import subprocess

import pytest

from axclient.server import find_axserver

try:
    from selenium import webdriver
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.options import ArgOptions
    from selenium.webdriver.support import expected_conditions as EC
    from selenium.webdriver.support.ui import WebDriverWait
    HAVE_SELENIUM = True
except ImportError:  # pragma: no cover - Tools/requirements-test.txt installs selenium
    webdriver = By = ArgOptions = EC = WebDriverWait = None
    HAVE_SELENIUM = False

__all__ = ["AXDriver", "By", "EC", "WebDriverWait", "axquery", "mcp_tool_answers", "needs_selenium", "stopping",
           "webdriver_session"]

needs_selenium = pytest.mark.skipif(not HAVE_SELENIUM, reason="needs selenium (Tools/requirements-test.txt)")


def binary(name):
    """One of the built executables beside `axserver` (AXSERVER_BIN)."""
    return os.path.join(os.path.dirname(find_axserver()), name)


class AXDriver:
    """A running axdriver on a free loopback port, in front of the server at `server_socket`."""

    def __init__(self, server_socket, timeout=30.0):
        self.process = subprocess.Popen([binary("axdriver"), "--port", "0", "--socket", server_socket],
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL)
        ready, _, _ = select.select([self.process.stdout], [], [], timeout)
        line = self.process.stdout.readline().decode() if ready else ""
        if not line.startswith("READY port="):
            self.stop()
            raise RuntimeError("axdriver did not start within %.0f s: %r" % (timeout, line))
        self.url = "http://127.0.0.1:%d" % int(line.split()[1].split("=")[1])

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            self.process.wait(10)


@contextlib.contextmanager
def webdriver_session(server_socket, app_id, implicit_wait=None):
    """A Selenium `webdriver.Remote` session on the app `app_id` through a fresh axdriver; quits the session and
    stops the driver afterwards, also when the session could not be made."""
    driver = AXDriver(server_socket)
    try:
        options = ArgOptions()
        options.set_capability("platformName", "linux")
        options.set_capability("axserver:app", app_id)
        session = webdriver.Remote(driver.url, options=options)
        try:
            if implicit_wait is not None:
                session.implicitly_wait(implicit_wait)
            yield session
        finally:
            session.quit()
    finally:
        driver.stop()


def axquery(socket_path, *args, timeout=30):
    """Runs the `axquery` CLI against the server at `socket_path` (its answer: a CompletedProcess with text)."""
    return subprocess.run([binary("axquery")] + list(args) + ["--socket", socket_path], capture_output=True,
                          text=True, timeout=timeout)


def mcp_tool_answers(socket_path, calls):
    """Runs `calls`, (tool name, arguments) pairs, in order in one MCP session with `axquery mcp` (the real MCP SDK
    as an agent uses it); returns {tool name: (its first text, whether it is an error)}."""
    import anyio
    from mcp import ClientSession, StdioServerParameters
    from mcp.client.stdio import stdio_client

    out = {}

    async def main():
        params = StdioServerParameters(command=binary("axquery"), args=["mcp", "--socket", socket_path])
        with open(os.devnull, "w") as errlog:
            async with stdio_client(params, errlog=errlog) as (read, write):
                async with ClientSession(read, write) as session:
                    await session.initialize()
                    for name, arguments in calls:
                        answer = await session.call_tool(name, arguments)
                        texts = [item.text for item in answer.content if item.type == "text"]
                        out[name] = (texts[0] if texts else "", bool(answer.is_error))

    anyio.run(main)
    return out


@contextlib.contextmanager
def stopping(app):
    """Yields a started app and stops it afterwards (a module fixture's body: `with stopping(start(...)) as app`)."""
    try:
        yield app
    finally:
        app.stop()
