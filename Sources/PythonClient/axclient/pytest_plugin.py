"""pytest plugin (entry point ``pytest11``): fixtures that start AXServer and connect clients and providers.

Fixtures:

* ``axserver`` — a running :class:`~axclient.server.ServerProcess`. **Each test gets a server of its own**: the
  demo (or the test's providers) starts from its initial state whatever the previous test did (about 0.15 s a
  test; Specs/python-client.md §Isolation has the measured options). ``@pytest.mark.axserver(demo=False,
  atspi=True, shared=True, fresh=True, tcp=True, args=[...])`` picks options: ``atspi`` serves AT-SPI on the
  session's private AT-SPI stack (Tools/a11y-stack.sh); ``shared`` opts in to one server per session for these
  options (faster, but state carries from test to test); ``fresh`` also gives the test a stack (and Orca) of its own.
* ``ax`` — a connected :class:`~axclient.Client` (closed after the test).
* ``ax_provider`` — a factory ``ax_provider(name, windows=None, restrictions=None, on_action=None)`` returning a
  registered :class:`~axclient.Provider` (disconnected after the test).
* ``screen_reader`` — a :class:`~axclient.screen_reader.ScreenReader`: a private headless Orca listening to the
  server under test. Orca, its X display and AT-SPI stack are started once per session (about 5 s); each test's
  server replaces the previous one on that stack and the fixture waits until Orca is quiet, so a test starts with
  the app in its initial state, nothing focused that Orca knows of and no speech from the test before (about 0.4 s
  a test). ``screen_reader.press("Tab")`` sends keys as a keyboard does; ``expect(screen_reader).to_say("Wi-Fi")``
  waits for Orca's speech. Needs Orca and Xvfb (Tools/install-deps.sh); the user's own Orca and desktop bus are
  never touched.

Parallel runs (pytest-xdist, ``pytest -n 2``): every worker is its own pytest session, so it has its own servers,
stack and Orca; nothing is shared between workers.

Options: ``--axserver-bin DIR`` (default ``$AXSERVER_BIN``, else PATH), ``--axserver-atspi`` (every server gets
a private AT-SPI stack), ``--axserver-timeout SECONDS`` (the clients' default auto-wait timeout),
``--axserver-orca-timeout SECONDS`` (how long Orca may take to start, default 20), ``--axserver-orca 43|48|PATH``
(the screen reader's stack, default ``$AXSERVER_ORCA``, else the system's Orca 43; the marker's ``orca="48"`` picks
it per test; axclient/orca_stack.py).

Traces (Specs/trace.md): ``--ax-trace on|off|retain-on-failure`` (as Playwright's ``--tracing``; default off)
records one trace per test — every request of the ``ax`` and ``screen_reader`` clients, with the speech Orca really
said attached to its step beside ``speech.describe``'s preview — into ``--ax-trace-dir`` (default
``ax-traces``) as ``<test>.axtrace`` plus its viewer ``<test>.html``; a failing test's report names both.
``retain-on-failure`` keeps only failing tests' traces. ``--ax-trace-pictures`` adds a picture per step.
"""
from __future__ import annotations

import os
import re
from typing import Any, Callable, Dict, Iterator, List, Optional, Tuple

import pytest

from .client import Client
from .provider import Provider
from .screen_reader import ScreenReader, ScreenReaderSession
from .server import A11yStack, ServerProcess, ServerStartError, find_a11y_stack_script, find_axserver

_MARKER = ("axserver(demo=True, atspi=False, shared=False, fresh=False, tcp=False, args=(), orca=None): options of "
           "the server "
           "the 'axserver', 'ax', 'ax_provider' and 'screen_reader' fixtures use; by default each test gets its own "
           "server, shared=True opts in to one per session (axclient plugin)")


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
    group.addoption("--ax-trace", default="off", choices=("on", "off", "retain-on-failure"),
                    help="record an accessibility trace per test (Specs/trace.md): on, off (default) or "
                         "retain-on-failure (keep only failing tests' traces)")
    group.addoption("--ax-trace-pictures", action="store_true", default=False,
                    help="add a picture of the window to every trace step (tree.render; larger traces)")
    group.addoption("--ax-trace-dir", default="ax-traces",
                    help="folder for the traces and their viewers (default: ax-traces)")


def pytest_configure(config: Any) -> None:
    """Registers the ``axserver`` marker."""
    config.addinivalue_line("markers", _MARKER)


class ServerPool:
    """The servers of a test session. By default every test gets a server of its own (the demo in its initial
    state), started on the session's AT-SPI stack or screen-reader session when it needs one (those take seconds to
    start and keep no app state, so they are shared). ``shared=True`` servers live for the whole session, keyed by
    their options; ``fresh=True`` ones bring their own stack (and Orca) too. Everything is stopped by PID at the end.
    """

    def __init__(self, binary: str, atspi_default: bool, orca_timeout: float = 20.0) -> None:
        self.binary = binary
        self.atspi_default = atspi_default
        self.orca_timeout = orca_timeout
        #: The screen reader's stack when a marker names none (--axserver-orca; None: $AXSERVER_ORCA, else 43).
        self.orca_default: Optional[str] = None
        self._servers: Dict[Tuple[Any, ...], ServerProcess] = {}
        # The session's private AT-SPI stack (isolated servers with atspi=True run on it), started on first use.
        self._stack: Optional[A11yStack] = None
        # The session's screen-reader session (stack, Xvfb, Orca); its server is replaced test by test.
        self._reader_session: Optional[ScreenReaderSession] = None
        # What the reader session's current server was started with, when a shared=True test may reuse it.
        self._reader_shared_key: Optional[Tuple[Any, ...]] = None
        # The reader session's server was started with the session and no test has used it yet.
        self._reader_unused = False
        # The Orca choice (--axserver-orca / the marker's orca=) the reader session was started with.
        self._reader_orca: Optional[str] = None
        # Screen-reader sessions by the id of their server (the session's own and fresh=True ones).
        self._session_of: Dict[int, ScreenReaderSession] = {}

    def options(self, marker: Any) -> Dict[str, Any]:
        """The server options a marker (or its absence) asks for."""
        kwargs: Dict[str, Any] = dict(marker.kwargs) if marker is not None else {}
        unknown = set(kwargs) - {"demo", "atspi", "fresh", "shared", "tcp", "args", "orca"}
        if unknown:
            raise pytest.UsageError("unknown axserver marker option(s): %s" % ", ".join(sorted(unknown)))
        shared = bool(kwargs.get("shared", "fresh" in kwargs and not kwargs["fresh"]))
        if shared and kwargs.get("fresh"):
            raise pytest.UsageError("axserver marker: shared=True and fresh=True contradict each other")
        return {"demo": bool(kwargs.get("demo", True)), "atspi": bool(kwargs.get("atspi", self.atspi_default)),
                "fresh": bool(kwargs.get("fresh", False)), "shared": shared, "tcp": bool(kwargs.get("tcp", False)),
                "args": tuple(kwargs.get("args", ())), "screen_reader": False,
                "orca": kwargs.get("orca", self.orca_default)}

    def start(self, options: Dict[str, Any]) -> ServerProcess:
        """A new server with these options on a stack (and Orca) of its own; the caller stops it."""
        if options.get("screen_reader"):
            session = ScreenReaderSession(self.binary, demo=options["demo"], args=options["args"],
                                          orca_timeout=self.orca_timeout, orca=options.get("orca"))
            assert session.server is not None
            self._session_of[id(session.server)] = session
            return session.server
        return ServerProcess(self.binary, demo=options["demo"], atspi=options["atspi"], tcp=options["tcp"],
                             args=options["args"])

    def isolated(self, options: Dict[str, Any]) -> ServerProcess:
        """A new server for one test (the default): its app starts from its initial state; an AT-SPI stack or a
        screen-reader session is the session's, started on first use. The caller stops it with :meth:`release`."""
        if options.get("screen_reader"):
            session = self.reader_session(options)
            if self._reader_unused:   # the session was just started with this test's server: it is fresh
                self._reader_unused = False
                assert session.server is not None
                session.wait_until_quiet()   # Orca presented the app as it found it: not this test's speech
                return session.server
            self._session_of.pop(id(session.server), None)
            server = session.serve(demo=options["demo"], args=options["args"])
            self._session_of[id(server)] = session
            self._reader_shared_key = None
            return server
        stack = None
        if options["atspi"]:
            if self._stack is None or not self._stack.dir:
                script = find_a11y_stack_script(os.path.dirname(self.binary))
                if script is None:
                    raise ServerStartError("atspi=True needs Tools/a11y-stack.sh (set AXSERVER_A11Y_STACK)")
                self._stack = A11yStack(script)
            stack = self._stack
        return ServerProcess(self.binary, demo=options["demo"], atspi=options["atspi"], tcp=options["tcp"],
                             args=options["args"], stack=stack)

    def reader_session(self, options: Dict[str, Any]) -> ScreenReaderSession:
        """The session's screen-reader session (stack, Xvfb, Orca), started on first use (again if Orca died)
        with a server for ``options`` (marked unused: the test that started it takes it as its fresh server)."""
        session = self._reader_session
        if session is not None and (not (session.orca and session.orca.running())
                                    or self._reader_orca != options.get("orca")):
            self._forget(session)
            session.stop()
            session = None
        if session is None:
            session = ScreenReaderSession(self.binary, demo=options["demo"], args=options["args"],
                                          orca_timeout=self.orca_timeout, orca=options.get("orca"))
            self._reader_session = session
            self._reader_orca = options.get("orca")
            self._reader_shared_key = None
            self._reader_unused = True
            assert session.server is not None
            self._session_of[id(session.server)] = session
        return session

    def session_for(self, server: ServerProcess) -> Optional[ScreenReaderSession]:
        """The screen-reader session (stack, server, Orca) ``server`` belongs to, if any."""
        return self._session_of.get(id(server))

    def _forget(self, session: ScreenReaderSession) -> None:
        self._session_of = {key: value for key, value in self._session_of.items() if value is not session}
        if session is self._reader_session:
            self._reader_session = None
            self._reader_shared_key = None

    def release(self, server: ServerProcess) -> None:
        """Stops a server started for one test (with its own Orca and stack, if it has them; a server on the
        session's screen-reader session stops alone, and Orca stays for the next test)."""
        session = self._session_of.pop(id(server), None)
        if session is None:
            server.stop()
        elif session is self._reader_session:
            server.stop()
            session.server = None
        else:
            session.stop()

    stop = release

    def shared(self, options: Dict[str, Any]) -> ServerProcess:
        """The session's server for these options (``shared=True``), started on first use (restarted if it
        died). With a screen reader it is the reader session's server, kept while shared tests follow each other."""
        if options.get("screen_reader"):
            key = (options["demo"], options["args"], options.get("orca"))
            session = self.reader_session(options)
            if self._reader_unused:
                self._reader_unused = False
                self._reader_shared_key = key
            if self._reader_shared_key != key or session.server is None or not session.server.running():
                self._session_of.pop(id(session.server), None)
                server = session.serve(demo=options["demo"], args=options["args"])
                self._session_of[id(server)] = session
                self._reader_shared_key = key
            assert session.server is not None
            return session.server
        key = (options["demo"], options["atspi"], options["tcp"], options["args"])
        server = self._servers.get(key)
        if server is None or not server.running():
            server = self.start(options)
            self._servers[key] = server
        return server

    def stop_all(self) -> None:
        """Stops every shared server, every screen-reader session and the session's AT-SPI stack."""
        for server in self._servers.values():
            server.stop()
        self._servers.clear()
        for session in set(self._session_of.values()) | ({self._reader_session} if self._reader_session else set()):
            session.stop()
        self._session_of.clear()
        self._reader_session = None
        if self._stack is not None:
            self._stack.stop()
            self._stack = None


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
    if options["shared"]:
        yield axserver_pool.shared(options)
        return
    server = axserver_pool.start(options) if options["fresh"] else axserver_pool.isolated(options)
    try:
        yield server
    finally:
        axserver_pool.release(server)


def trace_path(config: Any, nodeid: str) -> str:
    """Where ``--ax-trace`` writes the trace of the test ``nodeid``."""
    name = re.sub(r"[^A-Za-z0-9_.-]+", "-", nodeid).strip("-")[:180] or "test"
    return os.path.join(str(config.getoption("--ax-trace-dir")), name + ".axtrace")


class _TestTrace:
    """The trace of one test (``--ax-trace``): made when its first client fixture starts, ended after the test."""

    def __init__(self, request: Any) -> None:
        self.path = trace_path(request.config, request.node.nodeid)
        self.recorder: Any = None
        self.request = request

    def attach(self, client: Client, speech: Any = None) -> None:
        from .trace import new_recorder
        if self.recorder is None:
            self.recorder = new_recorder(self.path, title=self.request.node.nodeid, source="pytest",
                                         pictures=bool(self.request.config.getoption("--ax-trace-pictures")),
                                         speech=speech, screen_reader=self._screen_reader_version())
        if speech is not None:
            self.recorder.speech = speech
        client.start_trace(recorder=self.recorder)

    def _screen_reader_version(self) -> Optional[str]:
        """The Orca of the test's screen_reader fixture (``orca-43``/``orca-48``), if it has one."""
        if "screen_reader" not in self.request.fixturenames:
            return None
        pool = self.request.getfixturevalue("axserver_pool")
        session = pool.session_for(self.request.getfixturevalue("axserver"))
        stack = getattr(getattr(session, "orca", None), "orca_stack", None)
        return getattr(stack, "name", None)

    def finish(self, report: Any) -> None:
        """Ends the trace (a failure becomes its last step); keeps it and writes its viewer unless it passed under
        retain-on-failure."""
        if self.recorder is None:
            return
        failed = report is not None and report.failed
        if failed:
            self.recorder.note("test.failed", _failure_text(report))
        self.recorder.finish()
        if self.request.config.getoption("--ax-trace") == "retain-on-failure" and not failed:
            os.remove(self.path)
            return
        from .trace import write_viewer
        write_viewer(self.path)


def _failure_text(report: Any) -> str:
    crash = getattr(getattr(report, "longrepr", None), "reprcrash", None)
    text = str(getattr(crash, "message", "") or report.longreprtext or "failed")
    return text[:4000]


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: Any, call: Any) -> Iterator[None]:
    """Keeps each phase's report on the item; a failing traced test's report names its trace and viewer."""
    outcome = yield
    report = outcome.get_result()
    setattr(item, "_ax_report_" + report.when, report)
    if report.failed and getattr(item, "_ax_trace", None) is not None:
        path = item._ax_trace.path
        report.sections.append(("axserver trace", "trace: %s\nviewer: %s\n(python3 -m axclient.trace show %s)"
                                % (path, os.path.splitext(path)[0] + ".html", path)))


@pytest.fixture(autouse=True)
def _ax_test_trace(request: Any) -> Iterator[None]:
    """With ``--ax-trace on|retain-on-failure``: the test's trace, ended after the test's other fixtures."""
    if request.config.getoption("--ax-trace") == "off":
        yield
        return
    trace = _TestTrace(request)
    request.node._ax_trace = trace
    yield
    report = getattr(request.node, "_ax_report_call", None) or getattr(request.node, "_ax_report_setup", None)
    trace.finish(report)


@pytest.fixture
def ax(request: Any, axserver: ServerProcess) -> Iterator[Client]:
    """A :class:`Client` connected to the ``axserver`` fixture's server (closed after the test)."""
    client = Client(axserver.socket, timeout=request.config.getoption("--axserver-timeout"),
                    client_name="pytest:" + request.node.name[:80])
    trace = getattr(request.node, "_ax_trace", None)
    if trace is not None:
        trace.attach(client)
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


def _speech_source(reader: ScreenReader) -> Any:
    """What the reader's Orca said, for a trace: a mark before a step, the utterances since it after."""
    from .trace import SpeechSource

    def settle() -> None:
        reader.wait_until_quiet()

    return SpeechSource(mark=reader.orca.speech_count, since=reader.orca.speech, settle=settle,
                        version=reader.version)


@pytest.fixture
def screen_reader(request: Any, axserver: ServerProcess, axserver_pool: ServerPool) -> Iterator[ScreenReader]:
    """Orca listening to the ``axserver`` fixture's server (see the module's docstring): press keys, read what
    Orca said, ``expect(screen_reader).to_say(…)``. Its keys go through a client of its own."""
    session = axserver_pool.session_for(axserver)
    assert session is not None, "the axserver fixture did not start a screen-reader session"
    client = Client(axserver.socket, timeout=request.config.getoption("--axserver-timeout"),
                    client_name="pytest-screen-reader:" + request.node.name[:60])
    reader = session.reader(client, timeout=request.config.getoption("--axserver-timeout"))
    trace = getattr(request.node, "_ax_trace", None)
    if trace is not None:
        trace.attach(client, _speech_source(reader))
    try:
        yield reader
    finally:
        client.close()
