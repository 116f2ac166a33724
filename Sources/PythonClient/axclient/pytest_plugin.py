"""pytest plugin (entry point ``pytest11``): fixtures that start AXServer and connect clients and providers.

Fixtures:

* ``axserver`` — a running :class:`~axclient.server.ServerProcess`. By default one demo server per test session
  (shared by every test that asks for the same options). ``@pytest.mark.axserver(demo=False, atspi=True,
  fresh=True, tcp=True, args=[...])`` picks options: ``atspi`` also starts a private AT-SPI stack
  (Tools/a11y-stack.sh); ``fresh`` gives the test its own server, stopped after it.
* ``ax`` — a connected :class:`~axclient.Client` (closed after the test).
* ``ax_provider`` — a factory ``ax_provider(name, windows=None, restrictions=None, on_action=None)`` returning a
  registered :class:`~axclient.Provider` (disconnected after the test).
* ``screen_reader`` — a :class:`~axclient.screen_reader.ScreenReader`: a private headless Orca listening to the
  server under test. A test asking for it gets, for the ``axserver``/``ax`` fixtures, a server on a private AT-SPI
  stack with an X display (one per session and set of options, like the others; ``fresh=True`` gives the test its
  own). ``screen_reader.press("Tab")`` sends keys as a keyboard does; ``expect(screen_reader).to_say("Wi-Fi")``
  waits for Orca's speech. Needs Orca and Xvfb (Tools/install-deps.sh); the user's own Orca and desktop bus are
  never touched.

Options: ``--axserver-bin DIR`` (default ``$AXSERVER_BIN``, else PATH), ``--axserver-atspi`` (every server gets
a private AT-SPI stack), ``--axserver-timeout SECONDS`` (the clients' default auto-wait timeout),
``--axserver-orca-timeout SECONDS`` (how long Orca may take to start, default 20), ``--axserver-orca 43|48|PATH``
(the screen reader's stack, default ``$AXSERVER_ORCA``, else the system's Orca 43; the marker's ``orca="48"`` picks
it per test; axclient/orca_stack.py).
"""
from __future__ import annotations

from typing import Any, Callable, Dict, Iterator, List, Optional, Tuple

import pytest

from .client import Client
from .provider import Provider
from .screen_reader import ScreenReader, ScreenReaderSession
from .server import ServerProcess, find_axserver

_MARKER = ("axserver(demo=True, atspi=False, fresh=False, tcp=False, args=(), orca=None): options of the server the "
           "'axserver', 'ax' and 'ax_provider' fixtures use (axclient plugin)")


def pytest_addoption(parser: Any) -> None:
    """Adds the ``--axserver-*`` command-line options."""
    group = parser.getgroup("axserver", "AXServer (axclient plugin)")
    group.addoption("--axserver-bin", default=None,
                    help="folder holding the axserver binary (default: $AXSERVER_BIN, else PATH)")
    group.addoption("--axserver-atspi", action="store_true", default=False,
                    help="serve AT-SPI on a private bus stack (Tools/a11y-stack.sh) for every server")
    group.addoption("--axserver-timeout", type=float, default=5.0,
                    help="default auto-wait/expect timeout of the 'ax' client, in seconds (default 5)")
    group.addoption("--axserver-orca-timeout", type=float, default=20.0,
                    help="how long the screen_reader fixture's Orca may take to start, in seconds (default 20)")
    group.addoption("--axserver-orca", default=None,
                    help="the screen_reader fixture's Orca: 43 (the system's, default), 48 (Orca 48 on at-spi2-core "
                         "2.56, Tools/install-orca48.sh) or an install-orca48 prefix PATH")


def pytest_configure(config: Any) -> None:
    """Registers the ``axserver`` marker."""
    config.addinivalue_line("markers", _MARKER)


class ServerPool:
    """Session-wide servers keyed by their options; every one is stopped at the end of the session."""

    def __init__(self, binary: str, atspi_default: bool, orca_timeout: float = 20.0) -> None:
        self.binary = binary
        self.atspi_default = atspi_default
        self.orca_timeout = orca_timeout
        #: The screen reader's stack when a marker names none (--axserver-orca; None: $AXSERVER_ORCA, else 43).
        self.orca_default: Optional[str] = None
        self._servers: Dict[Tuple[Any, ...], ServerProcess] = {}
        # Servers with Orca listening (the screen_reader fixture), by their options; fresh ones by server too.
        self._sessions: Dict[Tuple[Any, ...], ScreenReaderSession] = {}
        self._session_of: Dict[int, ScreenReaderSession] = {}

    def options(self, marker: Any) -> Dict[str, Any]:
        """The server options a marker (or its absence) asks for."""
        kwargs: Dict[str, Any] = dict(marker.kwargs) if marker is not None else {}
        unknown = set(kwargs) - {"demo", "atspi", "fresh", "tcp", "args", "orca"}
        if unknown:
            raise pytest.UsageError("unknown axserver marker option(s): %s" % ", ".join(sorted(unknown)))
        return {"demo": bool(kwargs.get("demo", True)), "atspi": bool(kwargs.get("atspi", self.atspi_default)),
                "fresh": bool(kwargs.get("fresh", False)), "tcp": bool(kwargs.get("tcp", False)),
                "args": tuple(kwargs.get("args", ())), "screen_reader": False,
                "orca": kwargs.get("orca", self.orca_default)}

    def start(self, options: Dict[str, Any]) -> ServerProcess:
        """A new server with these options (the caller stops it)."""
        if options.get("screen_reader"):
            session = ScreenReaderSession(self.binary, demo=options["demo"], args=options["args"],
                                          orca_timeout=self.orca_timeout, orca=options.get("orca"))
            assert session.server is not None
            self._session_of[id(session.server)] = session
            return session.server
        return ServerProcess(self.binary, demo=options["demo"], atspi=options["atspi"], tcp=options["tcp"],
                             args=options["args"])

    def session_for(self, server: ServerProcess) -> Optional[ScreenReaderSession]:
        """The screen-reader session (stack, server, Orca) ``server`` belongs to, if any."""
        return self._session_of.get(id(server))

    def stop(self, server: ServerProcess) -> None:
        """Stops a server this pool started for one test (with its Orca and stack, if it has them)."""
        session = self._session_of.pop(id(server), None)
        if session is not None:
            session.stop()
        else:
            server.stop()

    def shared(self, options: Dict[str, Any]) -> ServerProcess:
        """The session's server for these options, started on first use (restarted if it died)."""
        if options.get("screen_reader"):
            key = (options["demo"], options["args"], options.get("orca"))
            session = self._sessions.get(key)
            if session is None or not session.running():
                if session is not None:  # Orca or the server died: start the whole session again
                    session.stop()
                    self._session_of = {k: v for k, v in self._session_of.items() if v is not session}
                server = self.start(options)
                session = self._session_of[id(server)]
                self._sessions[key] = session
            assert session.server is not None
            return session.server
        key = (options["demo"], options["atspi"], options["tcp"], options["args"])
        server = self._servers.get(key)
        if server is None or not server.running():
            server = self.start(options)
            self._servers[key] = server
        return server

    def stop_all(self) -> None:
        """Stops every shared server (and every screen-reader session)."""
        for server in self._servers.values():
            server.stop()
        self._servers.clear()
        for session in list(self._session_of.values()):
            session.stop()
        self._session_of.clear()
        self._sessions.clear()


@pytest.fixture(scope="session")
def axserver_pool(request: Any) -> Iterator[ServerPool]:
    """The session's :class:`ServerPool` (servers shared between tests, stopped at the end)."""
    binary = find_axserver(request.config.getoption("--axserver-bin"))
    pool = ServerPool(binary, bool(request.config.getoption("--axserver-atspi")),
                      float(request.config.getoption("--axserver-orca-timeout")))
    pool.orca_default = request.config.getoption("--axserver-orca")
    yield pool
    pool.stop_all()


@pytest.fixture
def axserver(request: Any, axserver_pool: ServerPool) -> Iterator[ServerProcess]:
    """A running axserver (see the ``axserver`` marker for options)."""
    options = axserver_pool.options(request.node.get_closest_marker("axserver"))
    options["screen_reader"] = "screen_reader" in request.fixturenames
    if options["fresh"]:
        server = axserver_pool.start(options)
        try:
            yield server
        finally:
            axserver_pool.stop(server)
    else:
        yield axserver_pool.shared(options)


@pytest.fixture
def ax(request: Any, axserver: ServerProcess) -> Iterator[Client]:
    """A :class:`Client` connected to the ``axserver`` fixture's server (closed after the test)."""
    client = Client(axserver.socket, timeout=request.config.getoption("--axserver-timeout"),
                    client_name="pytest:" + request.node.name[:80])
    try:
        yield client
    finally:
        client.close()


@pytest.fixture
def ax_provider(axserver: ServerProcess) -> Iterator[Callable[..., Provider]]:
    """A factory: ``ax_provider(name, windows=None, restrictions=None, on_action=None, **client_options)``
    connects a :class:`Provider` to the ``axserver`` fixture's server, registers ``name`` and, when ``windows``
    is given, publishes them. Every provider is disconnected after the test."""
    providers: List[Provider] = []

    def make(name: str, windows: Optional[List[Dict[str, Any]]] = None,
             restrictions: Optional[List[Dict[str, Any]]] = None, on_action: Optional[Callable[..., Any]] = None,
             **client_options: Any) -> Provider:
        provider = Provider(name, axserver.socket, on_action=on_action, **client_options)
        providers.append(provider)
        if windows is not None:
            provider.set_hierarchy(windows, restrictions)
        return provider

    try:
        yield make
    finally:
        for provider in providers:
            provider.close()


@pytest.fixture
def screen_reader(request: Any, axserver: ServerProcess, axserver_pool: ServerPool) -> Iterator[ScreenReader]:
    """Orca listening to the ``axserver`` fixture's server (see the module's docstring): press keys, read what
    Orca said, ``expect(screen_reader).to_say(…)``. Its keys go through a client of its own."""
    session = axserver_pool.session_for(axserver)
    assert session is not None, "the axserver fixture did not start a screen-reader session"
    client = Client(axserver.socket, timeout=request.config.getoption("--axserver-timeout"),
                    client_name="pytest-screen-reader:" + request.node.name[:60])
    reader = session.reader(client, timeout=request.config.getoption("--axserver-timeout"))
    try:
        yield reader
    finally:
        client.close()
